import type { ZoneRecord } from './dns-server.js';
import { DEMO_VERIFICATION_TOKEN, verificationName, verificationValue } from '../../resolvers/orders/verification-record.js';

/**
 * The TXT records that prove these domains belong to an account with `token` (by default the demo
 * account's fixed token, which every seedDemo account has): what a test zone publishes so that its
 * domains can be ordered, as their owner would.
 */
export function verificationRecords(domains: readonly string[], token: string = DEMO_VERIFICATION_TOKEN): ZoneRecord[] {
  return domains.map((domain) => ({ name: verificationName(domain), type: 'TXT', data: [verificationValue(token)] }));
}
