import { awaitsRebuild, nextBuildState } from './settle-build-state.js';
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import type { CheckContext } from '../../checks/check-context.js';
import type { DnsAnswer, DnsLookup } from '../../../clients/dns/dns-types.js';
import { isMissing } from '../../../clients/dns/dns-types.js';
import { readZoneOf, withinZone } from '../../../clients/dns/zone-lookup.js';
import { checkHost } from '../../checks/spf/check-host.js';
import { parseSpfIp } from '../../checks/spf/spf-ip.js';
import type { ServiceConfig } from '../../../config/settings.js';
import { verificationToken } from '../../orders/domain-verification.js';
import { findDkimKey } from './dkim-keys.js';
import { GOOGLE_DKIM_SELECTOR, GOOGLE_SENDING_ADDRESS } from './google-workspace.js';
import { dkimStatus, dmarcStatus, exactTxtStatus, forwardingStatus, mxStatus } from './record-status.js';
import { spfStatus } from './spf-record-status.js';
import { dmarcReportAddress, wantedRecords } from './wanted-records.js';
import { isBuildState, type DomainSetup, type WantedRecord, type WantedRecordWithStatus } from './setup-record.js';
import { findForwardingCertificateState } from '../../../db/forwarding-certificates.js';
import { httpsSentence, type CertificateState } from '../../forwarding/https-sentence.js';

/** What computing a setup needs: the database, the settings, and a check context (the request's, or a job's). */
export interface SetupEnvironment {
  readonly db: Kysely<Database>;
  readonly config: Pick<ServiceConfig, 'reportsDomain' | 'forwardTarget' | 'setupTlsRpt' | 'forwardHttps'>;
  /** The request's (or job's) checks: their lookup is the caching resolver. */
  readonly checks: CheckContext;
  readonly now: () => Date;
  /**
   * How the domain's own names are read. Left out: from the zone's name servers found through the
   * delegation (DNS_AUTHORITATIVE_PORT in tests). A publish passes the connection's own server
   * (publisher-lookup.ts), so a wrong key fails the read as it would fail the write.
   */
  readonly zone?: { readonly dns: DnsLookup; readonly readFrom: string };
}

/** The columns of a domain row the setup reads. */
export interface SetupDomainRow {
  readonly id: number;
  readonly account_id: number;
  readonly order_id: number;
  readonly domain: string;
  readonly forward_to: string | null;
  readonly build_state: string;
  readonly build_reason: string | null;
  /** When the provider made the mailboxes (null: not yet); left out, read as made. */
  readonly mailboxes_created_at?: Date | string | null;
}

/** The forwarding line once the A record points here: it also says whether https:// forwards (https-sentence.ts). */
async function forwardingWithHttps(record: WantedRecord, checks: CheckContext, https: HttpsFacts): Promise<WantedRecordWithStatus> {
  const judged = await forwardingStatus(record, checks.dns);
  if (judged.status !== 'verified') return judged;
  return { ...judged, detail: `${judged.detail} ${httpsSentence(https.mode, https.certificate, https.live, checks.now())}` };
}

/** What the forwarding line says of HTTPS: the operator's mode, the domain's certificate row, whether it is live. */
interface HttpsFacts {
  readonly mode: ServiceConfig['forwardHttps'];
  readonly certificate: CertificateState | undefined;
  readonly live: boolean;
}

function judge(record: WantedRecord, env: SetupEnvironment, checks: CheckContext, https: HttpsFacts): Promise<WantedRecordWithStatus> {
  const dns = checks.dns;
  switch (record.purpose) {
    case 'mx':
      return mxStatus(record, dns);
    case 'spf':
      return spfStatus(record, checks);
    case 'dkim':
      return dkimStatus(record, dns);
    case 'dmarc':
      return dmarcStatus(record, dns, dmarcReportAddress(env.config.reportsDomain));
    case 'forwarding':
      return forwardingWithHttps(record, checks, https);
    case 'verification':
      return exactTxtStatus(record, dns, /^inbox-verification=/);
    case 'tls_rpt':
      return exactTxtStatus(record, dns, /^v=TLSRPTv1/i);
  }
}

/**
 * `verified` means the record works, not only that it is there: SPF must give `pass` (check_host,
 * RFC 7208) for an address Google sends from, and the MX host must have an address. (DKIM is
 * compared key byte for key byte and DMARC parsed with our rua in record-status.ts.)
 */
async function judgeWorking(record: WantedRecord, env: SetupEnvironment, checks: CheckContext, https: HttpsFacts): Promise<WantedRecordWithStatus> {
  const judged = await judge(record, env, checks, https);
  if (judged.status !== 'verified') return judged;
  if (record.purpose === 'spf') return spfSends(judged, checks);
  if (record.purpose === 'mx') return mxReachable(judged, checks.dns);
  return judged;
}

async function spfSends(record: WantedRecordWithStatus, checks: CheckContext): Promise<WantedRecordWithStatus> {
  const ip = parseSpfIp(GOOGLE_SENDING_ADDRESS);
  if (!ip) return record;
  const evaluated = await checkHost({ ip, domain: record.name, sender: `postmaster@${record.name}`, helo: record.name }, { dns: checks.dns, now: checks.now });
  if (evaluated.result === 'pass') return record;
  if (evaluated.result === 'temperror')
    return {
      ...record,
      status: 'unknown',
      detail: `The SPF record is published, but evaluating it for Google's address ${GOOGLE_SENDING_ADDRESS} failed on a lookup (${evaluated.problem ?? 'temperror'}); this is not a missing record.`,
    };
  return {
    ...record,
    status: 'wrong',
    detail: `The SPF record is published, but evaluating it for ${GOOGLE_SENDING_ADDRESS}, an address Google sends from, gives ${evaluated.result}${evaluated.problem ? ` (${evaluated.problem})` : ''}, not pass: receivers would not accept Google's mail as the domain's. ${evaluated.result === 'permerror' ? 'Fix the error named; ' : ''}Make sure include:_spf.google.com is evaluated before any other "all".`,
  };
}

async function mxReachable(record: WantedRecordWithStatus, dns: DnsLookup): Promise<WantedRecordWithStatus> {
  const hosts = record.found.map((f) => f.split(' ')[1] ?? '').filter((h) => h !== '');
  const answers = await Promise.all(hosts.map(async (host) => ({ host, a: await dns.lookup(host, 'A'), aaaa: await dns.lookup(host, 'AAAA') })));
  if (answers.some((x) => x.a.ok || x.aaaa.ok)) return record;
  const failed = answers.find((x) => (!x.a.ok && !isMissing(x.a)) || (!x.aaaa.ok && !isMissing(x.aaaa)));
  if (failed)
    return {
      ...record,
      status: 'unknown',
      detail: `The MX record is published, but the address of ${failed.host} could not be looked up (${!failed.a.ok ? failed.a.detail : ''}); this is not a missing record.`,
    };
  return {
    ...record,
    status: 'wrong',
    detail: `The MX record is published, but ${hosts.join(', ')} has no address (A or AAAA), so no mail can be delivered to it. Publish MX with a host that resolves (Google's is smtp.google.com); if it is smtp.google.com, the resolver this service uses cannot see Google's name.`,
  };
}

/** Why a domain is not live (or not yet): the failing required records, or the step it waits for. */
export function setupReason(records: readonly WantedRecordWithStatus[], hasDkimKey: boolean): string | null {
  const failing = records.filter((r) => r.required && r.status !== 'verified');
  const parts = failing.map((r) => `${r.purpose.toUpperCase()} (${r.name}) is ${r.status}: ${r.detail}`);
  if (!hasDkimKey) parts.push('The DKIM key is made when the build starts; its record appears here then.');
  return parts.length > 0 ? parts.join(' ') : null;
}

/**
 * How the domain's own names are read: the given reader (a publish), else the zone's name servers
 * found through the delegation, else (no server could be found, a fake lookup) the resolver, and
 * the answer says so in `readFrom`.
 */
async function zoneReading(env: SetupEnvironment, domain: string): Promise<{ readonly dns: DnsLookup; readonly readFrom: string; readonly zone: string }> {
  return env.zone ? { ...env.zone, zone: domain } : readZoneOf(env.checks.dns, domain);
}

/** What a record's answer holds, as comparable text (MX "priority host", TXT strings joined). */
function answerTexts(answer: DnsAnswer): string[] | null {
  if (isMissing(answer)) return [];
  if (!answer.ok) return null;
  return answer.records
    .map((r) =>
      typeof r.data === 'string' ? r.data : Array.isArray(r.data) ? r.data.join('') : 'exchange' in r.data ? `${r.data.preference} ${r.data.exchange}` : '',
    )
    .sort();
}

export interface CacheView {
  readonly until: string | null;
  readonly note: string | null;
}

/**
 * Where the resolver (a cache, as every receiver's is) still gives another answer than the zone for
 * a wanted name: for how long caches may hold the old answer. A cached record lives its remaining
 * TTL; a cached "does not exist" lives the SOA's negative TTL (RFC 2308), which bounds every cache.
 */
async function cacheView(env: SetupEnvironment, zoneDns: DnsLookup, wanted: readonly WantedRecord[], zone: string): Promise<CacheView> {
  if (zoneDns === env.checks.dns) return { until: null, note: null };
  const questions = [...new Map(wanted.filter((r) => withinZone(r.name, zone)).map((r) => [`${r.name}|${r.type}`, r])).values()];
  const stale = (
    await Promise.all(
      questions.map(async (r) => {
        const type = r.type === 'CNAME' ? 'CNAME' : r.type;
        const [inZone, cached] = await Promise.all([zoneDns.lookup(r.name, type), env.checks.dns.lookup(r.name, type)]);
        const a = answerTexts(inZone);
        const b = answerTexts(cached);
        if (a === null || b === null || a.join('\n') === b.join('\n')) return null;
        const seconds = cached.ok
          ? Math.max(...cached.records.map((x) => x.ttl))
          : Math.max(cached.negativeTtl ?? 0, inZone.ok ? 0 : (inZone.negativeTtl ?? 0));
        return { name: r.name, type, seconds, negative: !cached.ok };
      }),
    )
  ).filter((x) => x !== null);
  if (stale.length === 0) return { until: null, note: null };
  const longest = Math.max(...stale.map((s) => s.seconds));
  const until = new Date(env.now().getTime() + longest * 1000).toISOString();
  const names = stale.map((s) => `${s.type} ${s.name}${s.negative ? ' (cached as missing)' : ''}`).join(', ');
  return {
    until,
    note: `The zone already serves these records, but resolvers that asked before the change may keep the old answer for ${names} until ${until} (${longest} s: the TTL the resolver still holds, or the zone's negative TTL). Mail providers see the new records by then at the latest.`,
  };
}

/**
 * The one function behind the setup API, the zone snippet, the build and monitoring (and the
 * publishers): the records the domain needs, each with its status from our own checks, read now
 * from the zone itself (its name servers, or a publish's connection), not a cache. The build state,
 * `ready` and `reason` come from this one evaluation (nextBuildState): the answer never says `live`
 * with `ready: false`, and settleBuildState stores the same state.
 */
export async function computeDomainSetup(env: SetupEnvironment, domain: SetupDomainRow): Promise<DomainSetup> {
  const [key, token, reading, certificate] = await Promise.all([
    findDkimKey(env.db, domain.id),
    verificationToken(env.db, domain.account_id),
    zoneReading(env, domain.domain),
    domain.forward_to !== null && env.config.forwardHttps === 'acme' ? findForwardingCertificateState(env.db, domain.domain) : undefined,
  ]);
  const https: HttpsFacts = { mode: env.config.forwardHttps, certificate, live: domain.build_state === 'live' };
  const wanted = wantedRecords(
    {
      domain: domain.domain,
      forwardTo: domain.forward_to,
      dkimPublicKey: key?.public_key ?? null,
      dkimSelector: key?.selector ?? GOOGLE_DKIM_SELECTOR,
      verificationToken: token,
    },
    { reportsDomain: env.config.reportsDomain, forwardTarget: env.config.forwardTarget, tlsRpt: env.config.setupTlsRpt },
  );
  const checks: CheckContext = { ...env.checks, dns: reading.dns };
  const [records, cache] = await Promise.all([
    Promise.all(wanted.map((r) => judgeWorking(r, env, checks, https))),
    cacheView(env, reading.dns, wanted, reading.zone),
  ]);
  const allVerified = key !== undefined && records.every((r) => !r.required || r.status === 'verified');
  const mailboxesCreated = domain.mailboxes_created_at !== null;
  const stored = isBuildState(domain.build_state) ? domain.build_state : 'queued';
  const buildState = nextBuildState(stored, { ready: allVerified, records }, mailboxesCreated);
  // Live is kept through a lookup that failed (nextBuildState): the domain stays ready until a
  // lookup shows otherwise. A domain that needs attention is not ready, whatever its records say.
  const ready = buildState === 'live' || (allVerified && buildState !== 'needs_attention');
  return {
    domain: domain.domain,
    buildState,
    ready,
    reason:
      buildState === 'live'
        ? null
        : awaitsRebuild(buildState, mailboxesCreated) && domain.build_reason
          ? domain.build_reason
          : !allVerified
            ? setupReason(records, key !== undefined)
            : mailboxesCreated
              ? (domain.build_reason ?? 'Every record is verified.')
              : 'Every record is verified; waiting for the mail provider to report the mailboxes created.',
    checkedAt: env.now().toISOString(),
    readFrom: reading.readFrom,
    cachesMayHoldUntil: cache.until,
    cacheNote: cache.note,
    records,
  };
}
