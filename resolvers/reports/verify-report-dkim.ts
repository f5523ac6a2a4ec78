import { Resolver } from 'node:dns/promises';

/** One DKIM signature of a report message: its signing domain (d=, lower case) and mailauth's result (pass, fail, neutral, policy, ...). */
export interface DkimVerdict {
  readonly signingDomain: string;
  readonly result: string;
}

/** How long one key lookup may take: a report that cannot be verified in time is stored unauthenticated, not held. */
const DKIM_DNS_TIMEOUT_MS = 3000;

/**
 * Verifies every DKIM signature of a raw message (RFC 6376, with mailauth) against the keys the
 * service's own DNS servers (DNS_SERVERS) answer. Runs in the report worker: the body hash is CPU
 * in proportion to the message. Never throws: a message that cannot be verified has no verdicts, and
 * the reason (for the log).
 */
export async function verifyReportDkim(message: Buffer, dnsServers: readonly string[]): Promise<{ verdicts: DkimVerdict[]; error: string | null }> {
  const resolver = new Resolver({ timeout: DKIM_DNS_TIMEOUT_MS, tries: 1 });
  if (dnsServers.length > 0) resolver.setServers([...dnsServers]);
  try {
    // Loaded with the first message (and, should an install leave mailauth out, every report simply
    // stays unauthenticated instead of every message failing).
    const { dkimVerify } = await import('mailauth/lib/dkim/verify.js');
    const verified = await dkimVerify(message, {
      // DKIM asks for TXT records only (the key at selector._domainkey.domain).
      resolver: (name: string, rrtype: string) => (rrtype === 'TXT' ? resolver.resolveTxt(name) : Promise.reject(new Error(`${rrtype} is not asked for DKIM`))),
    });
    const verdicts = verified.results
      .filter((r) => typeof r.signingDomain === 'string')
      .map((r) => ({ signingDomain: (r.signingDomain ?? '').toLowerCase(), result: String(r.status?.result ?? 'none') }));
    return { verdicts, error: null };
  } catch (error) {
    return { verdicts: [], error: error instanceof Error ? error.message : String(error) };
  }
}
