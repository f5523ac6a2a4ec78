import { DomainError } from '../../domain-error.js';
import { DnsPublishingError } from '../../../clients/dns-publishing/publishing-error.js';
import type { DnsPublisher } from '../../../clients/dns-publishing/dns-publisher.js';

/** A publisher's refusal as the rules' DomainError: the same code and the same sentence; any other error as it was. */
function asDomainError(error: unknown): unknown {
  return error instanceof DnsPublishingError ? new DomainError(error.code, error.message) : error;
}

/** Runs `work`, its publisher refusals turned into DomainErrors. */
export async function refusalsAsDomainErrors<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw asDomainError(error);
  }
}

/**
 * The publisher as the rules use it: every refusal of the server or provider a DomainError, which the
 * doors map to their status (operations/error-statuses.ts) and the publish flow reads by code
 * (publisher-lookup.ts).
 */
export function withDomainErrors(publisher: DnsPublisher): DnsPublisher {
  const servedStrings = publisher.servedStrings?.bind(publisher);
  return {
    readRecords: (name, type) => refusalsAsDomainErrors(() => publisher.readRecords(name, type)),
    applyChanges: (changes) => refusalsAsDomainErrors(() => publisher.applyChanges(changes)),
    rewriteRecords: (remove, add) => refusalsAsDomainErrors(() => publisher.rewriteRecords(remove, add)),
    ...(servedStrings && { servedStrings }),
  };
}
