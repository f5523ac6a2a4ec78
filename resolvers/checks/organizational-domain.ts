import { getDomain } from 'tldts';

/**
 * The organisational domain of a name (RFC 7489 section 3.2): the registrable domain, one label below
 * the longest matching public suffix of the Public Suffix List (bundled by `tldts`, so no network).
 *
 * Private suffixes (the list's PRIVATE section: github.io, blogspot.com, herokuapp.com ...) are
 * INCLUDED. Under each of them every customer owns a separate name, so `alice.github.io` and
 * `bob.github.io` are different organisations: a DMARC record at `github.io` is not alice's policy, a
 * report address at `bob.github.io` is a different organisation that must authorise alice's reports
 * (RFC 7489 section 7.1), and `alice.github.io` is the apex of alice's zone for the CNAME check.
 * RFC 7489 section 3.2 names the list without excluding a section, and the mail receivers we know of
 * load the whole file.
 *
 * Answers in the form it was given (Unicode in, Unicode out; A-labels in, A-labels out), lower-cased.
 * Returns null when the name has no registrable domain: a public suffix itself, a single unlisted
 * label, an empty label (a leading dot), or an IP address.
 */
export function organizationalDomain(name: string | null | undefined): string | null {
  if (name == null) return null;
  const lower = name.toLowerCase().replace(/\.$/, '');
  // The PSL algorithm works on labels; an empty label (".example.com", "a..b") is not a domain name,
  // where tldts would silently drop it.
  if (lower === '' || lower.split('.').some((label) => label === '')) return null;
  return getDomain(lower, { allowPrivateDomains: true, extractHostname: false }) ?? null;
}

/** True when `name` is its own organisational domain (the apex of a registered zone). */
export function isOrganizationalDomain(name: string): boolean {
  return organizationalDomain(name) === name.toLowerCase().replace(/\.$/, '');
}
