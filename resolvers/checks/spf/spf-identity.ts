/**
 * RFC 7208 2.4 and 4.3: the identity checked for a message. The MAIL FROM address gives <sender>
 * and <domain>; an empty reverse-path (a bounce) uses "postmaster@" + the HELO name instead, and an
 * address without a local-part gets "postmaster".
 */
export function spfIdentity(mailFrom: string, helo: string): { readonly domain: string; readonly sender: string } {
  const from = mailFrom.trim();
  if (from === '') return { domain: helo, sender: `postmaster@${helo}` };
  const at = from.lastIndexOf('@');
  if (at < 0) return { domain: from, sender: `postmaster@${from}` };
  const local = from.slice(0, at);
  const domain = from.slice(at + 1);
  return { domain, sender: `${local === '' ? 'postmaster' : local}@${domain}` };
}
