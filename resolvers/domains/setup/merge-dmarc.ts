/**
 * The customer's DMARC record with our aggregate-report address added to `rua=`, and nothing else
 * changed: the policy (p, sp), pct, alignment (adkim, aspf), fo, ruf and every report address they
 * have stay as written, so a merge can never lower a policy or drop someone's reports.
 */
export function mergeDmarc(existing: string, reportAddress: string): string {
  const ours = `mailto:${reportAddress}`;
  const tags = existing
    .split(';')
    .map((t) => t.trim())
    .filter((t) => t !== '');
  const ruaAt = tags.findIndex((t) => /^rua\s*=/i.test(t));
  if (ruaAt >= 0) {
    const uris = tags[ruaAt]!.replace(/^rua\s*=\s*/i, '')
      .split(',')
      .map((u) => u.trim())
      .filter((u) => u !== '');
    if (uris.some((u) => reportUriAddress(u) === ours.toLowerCase())) return tags.join('; ');
    tags[ruaAt] = `rua=${[...uris, ours].join(',')}`;
    return tags.join('; ');
  }
  // rua after p= (the ABNF puts p right after v), or after v when p is missing.
  const pAt = tags.findIndex((t) => /^p\s*=/i.test(t));
  tags.splice((pAt >= 0 ? pAt : 0) + 1, 0, `rua=${ours}`);
  return tags.join('; ');
}

/** A report URI without its size limit ("!10m"), in lower case. */
export function reportUriAddress(uri: string): string {
  const bang = uri.indexOf('!');
  return (bang < 0 ? uri : uri.slice(0, bang)).trim().toLowerCase();
}
