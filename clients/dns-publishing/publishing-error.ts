/**
 * The refusals a DNS publisher gives (a customer's server or provider refused, failed or did not
 * answer; the server's address or port is not one this service connects to): a stable code and a
 * sentence that says what to change, and nothing else (no HTTP status, no door). The publishers live
 * below resolvers/ and cannot throw the rules' DomainError; resolvers/domains/publishing/
 * publisher-refusals.ts turns each into a DomainError with the same code and the same sentence.
 */
export type DnsPublishingCode =
  | 'cloudflare_token_refused'
  | 'dns_lookup_failed'
  | 'dns_provider_failed'
  | 'dns_provider_unreachable'
  | 'dns_server_bad_answer'
  | 'dns_server_port_refused'
  | 'dns_server_refused'
  | 'dns_server_unreachable'
  | 'dns_update_failed'
  | 'dns_update_refused'
  | 'dns_zone_not_served'
  | 'tsig_key_refused';

export class DnsPublishingError extends Error {
  constructor(
    readonly code: DnsPublishingCode,
    message: string,
  ) {
    super(message);
    this.name = 'DnsPublishingError';
  }
}
