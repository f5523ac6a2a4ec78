/**
 * Whether an MX host name matches a policy's mx pattern (RFC 8461 section 4.1): names compare
 * case-insensitively without a trailing dot, and "*.example.com" stands for exactly one label in the
 * leftmost position, so it covers mx1.example.com but neither example.com nor a.mx1.example.com.
 */
export function mxMatchesPattern(host: string, pattern: string): boolean {
  const name = host.toLowerCase().replace(/\.$/, '');
  const want = pattern.toLowerCase().replace(/\.$/, '');
  if (!want.startsWith('*.')) return name === want;
  const dot = name.indexOf('.');
  return dot > 0 && name.slice(dot + 1) === want.slice(2);
}
