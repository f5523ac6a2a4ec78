import type { RegistrationLookup } from './registration-record.js';

/** A member of a JSON object from the registry; anything else (null, a list, a string) has none. */
function member(value: unknown, name: string): unknown {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? Reflect.get(value, name) : undefined;
}

function isoDate(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const time = Date.parse(value);
  return Number.isNaN(time) ? null : new Date(time).toISOString();
}

/** The registrar's name: the vCard "fn" of the entity with role "registrar" (RFC 9083 section 5.1). */
function registrarName(entities: unknown): string | null {
  if (!Array.isArray(entities)) return null;
  for (const entity of entities) {
    const roles = member(entity, 'roles');
    if (!Array.isArray(roles) || !roles.includes('registrar')) continue;
    const vcardArray = member(entity, 'vcardArray');
    const vcard = Array.isArray(vcardArray) ? vcardArray[1] : null;
    if (Array.isArray(vcard)) {
      const fn = (vcard as unknown[]).find((p): p is unknown[] => Array.isArray(p) && p[0] === 'fn');
      if (fn && typeof fn[3] === 'string' && fn[3].trim() !== '') return fn[3].trim();
    }
  }
  return null;
}

/** Reads an RDAP domain object (RFC 9083 section 5.3): registrar entity and registration/expiration events. */
export function parseRdapDomain(body: unknown, server: string): RegistrationLookup {
  const events = member(body, 'events');
  const listed: unknown[] = Array.isArray(events) ? events : [];
  const dateOf = (action: string): string | null =>
    isoDate(
      member(
        listed.find((e) => member(e, 'eventAction') === action),
        'eventDate',
      ),
    );
  return { kind: 'found', registrar: registrarName(member(body, 'entities')), created: dateOf('registration'), expires: dateOf('expiration'), server };
}

/** What one RDAP GET came to: the final status, and the JSON body of a 200 (null otherwise). */
export interface RdapResponse {
  readonly status: number;
  readonly body: unknown;
}

/**
 * One RDAP GET: Accept application/rdap+json, redirects followed, within timeoutMs. A timeout
 * rejects with an error named TimeoutError or AbortError. The service hands in a cheaper client
 * (clients/registry/rdap-client.ts); without one, fetch.
 */
export type RdapGet = (url: string, timeoutMs: number) => Promise<RdapResponse>;

export const fetchRdapJson: RdapGet = async (url, timeoutMs) => {
  const response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs), headers: { accept: 'application/rdap+json, application/json' } });
  return { status: response.status, body: response.status === 200 ? await response.json() : null };
};

/**
 * GET {base}domain/{name} (RFC 9082 section 3.1.3) on each of the TLD's RDAP services in turn.
 * 404 is "not registered" (RFC 9082 / 7480 section 5.3); anything else that is not a 200 with JSON
 * is a failure, tried on the next service.
 */
export async function lookupRdap(domain: string, bases: readonly string[], timeoutMs: number, get: RdapGet = fetchRdapJson): Promise<RegistrationLookup> {
  let last: RegistrationLookup = { kind: 'failed', reason: 'no RDAP service', server: null };
  for (const base of bases) {
    const url = `${base.endsWith('/') ? base : `${base}/`}domain/${encodeURIComponent(domain)}`;
    const server = new URL(url).host;
    try {
      const response = await get(url, timeoutMs);
      if (response.status === 404) return { kind: 'not_found', server };
      if (response.status !== 200) {
        last = { kind: 'failed', reason: `RDAP server ${server} answered HTTP ${response.status}`, server };
        continue;
      }
      return parseRdapDomain(response.body, server);
    } catch (error) {
      const timedOut = error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
      last = {
        kind: 'failed',
        reason: timedOut
          ? `RDAP server ${server} did not answer within ${timeoutMs} ms`
          : `RDAP server ${server} could not be read (${error instanceof Error ? error.message : String(error)})`,
        server,
      };
    }
  }
  return last;
}
