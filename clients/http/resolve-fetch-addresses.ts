import { isIP } from 'node:net';
import type { DnsLookup } from '../dns/dns-types.js';
import { isMissing } from '../dns/dns-types.js';
import { addressRefusal } from './address-refusal.js';

export interface FetchAddress {
  readonly address: string;
  readonly family: 4 | 6;
}

export type FetchAddresses =
  | { readonly ok: true; readonly addresses: readonly FetchAddress[] }
  | { readonly ok: false; readonly code: 'dns_failed' | 'no_address' | 'address_refused'; readonly reason: string };

/**
 * The addresses a fetch may connect to, resolved through the checks' own DNS (so tests and operators
 * control it) and vetted all at once: if ANY address of the name is refused, the whole name is
 * refused. Picking only the good ones would let a name publish one public and one internal address
 * and reach the internal one whenever the connection falls back to it.
 */
export async function resolveFetchAddresses(dns: DnsLookup, host: string, allowPrivate: boolean, verb = 'fetched'): Promise<FetchAddresses> {
  const literal = isIP(host);
  let addresses: FetchAddress[];
  if (literal !== 0) {
    addresses = [{ address: host, family: literal === 4 ? 4 : 6 }];
  } else {
    const [a, aaaa] = await Promise.all([dns.lookup(host, 'A'), dns.lookup(host, 'AAAA')]);
    addresses = [
      ...(a.ok ? a.records.map((r) => ({ address: r.data, family: 4 as const })) : []),
      ...(aaaa.ok ? aaaa.records.map((r) => ({ address: r.data, family: 6 as const })) : []),
    ];
    if (addresses.length === 0) {
      // Missing on both sides is a fact about the name; any other failure means we could not tell.
      const failed = [a, aaaa].find((answer) => !answer.ok && !isMissing(answer));
      if (failed && !failed.ok) {
        return { ok: false, code: 'dns_failed', reason: `The ${failed.type} lookup for ${host} failed (${failed.failure}), so it could not be ${verb}.` };
      }
      return { ok: false, code: 'no_address', reason: `${host} has no A or AAAA record.` };
    }
  }
  if (!allowPrivate) {
    for (const { address } of addresses) {
      const refusal = addressRefusal(address);
      if (refusal) {
        return {
          ok: false,
          code: 'address_refused',
          reason: `${host} resolves to ${address}, which is not a public address (${refusal}); it was not ${verb}.`,
        };
      }
    }
  }
  return { ok: true, addresses };
}
