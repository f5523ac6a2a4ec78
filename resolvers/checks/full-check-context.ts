import type { BimiContext } from './bimi/check-bimi.js';
import type { BlacklistContext } from './blacklist/check-blacklist.js';
import type { ExpiryContext } from './domain-expiry/check-domain-expiry.js';
import type { ProviderDomainContext } from './provider-domain/check-provider-domain.js';

/** Everything any check needs for one request: DNS, HTTPS, clock, and the configs of the list-based checks. */
export type FullCheckContext = BlacklistContext & ExpiryContext & ProviderDomainContext & BimiContext;
