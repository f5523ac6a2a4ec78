import type { AcmeSettings } from '../config/settings.js';
import { createAcmeIssuer, type AcmeIssuer } from '../clients/acme/acme-issuer.js';
import {
  claimCertificateAttempts,
  deleteCertificatesNoLongerForwarded,
  deleteStaleAcmeChallenges,
  findDns01Connection,
  findForwardingCertificateState,
  isLiveForwardedDomain,
  listCertificatesDue,
} from '../db/forwarding-certificates.js';
import { obtainCertificate, type Dns01Proof } from '../resolvers/forwarding/obtain-certificate.js';
import { dns01ThroughConnection } from '../resolvers/forwarding/dns01-through-connection.js';
import { log } from '../observability/log.js';
import { accountJobContext } from './account-job-context.js';
import type { JobEnvironment, TaskFunction } from './job-types.js';

/** Names queued per sweep; the rest wait for the next one. */
const QUEUED_PER_SWEEP = 200;
/**
 * A queued name is not queued again for this long (a running order is not doubled by the next
 * sweep); a job that dies mid-way is tried again after it.
 */
const CLAIM_MS = 10 * 60_000;
/** Challenges older than this were left by a job that died. */
const CHALLENGE_KEPT_MS = 86_400_000;

/** One issuer per settings object: acme-client's shared agent is set once (clients/acme/acme-issuer.ts). */
const issuers = new WeakMap<AcmeSettings, AcmeIssuer>();
function issuerFor(settings: AcmeSettings): AcmeIssuer {
  let issuer = issuers.get(settings);
  if (!issuer) {
    issuer = createAcmeIssuer({ directoryUrl: settings.directoryUrl, caFile: settings.caFile, email: settings.email });
    issuers.set(settings, issuer);
  }
  return issuer;
}

/**
 * The sweep's part. First the certificates of names no order forwards any more (forward_to cleared,
 * the domain removed, its order cancelled) are deleted with their keys, whether or not ACME is on.
 * Then (ACME_DIRECTORY_URL set) every live forwarded domain without a certificate, or whose
 * certificate ends within ACME_RENEW_BEFORE_DAYS, and not waiting out a failure, is queued.
 */
export async function queueDueCertificates(env: JobEnvironment): Promise<number> {
  const deleted = await deleteCertificatesNoLongerForwarded(env.db);
  if (deleted.length > 0) log('info', 'forwarding certificates deleted', { domains: deleted.slice(0, 20).join(', '), count: deleted.length });
  const acme = env.config.acme;
  if (acme === null) return 0;
  const now = new Date();
  await deleteStaleAcmeChallenges(env.db, new Date(now.getTime() - CHALLENGE_KEPT_MS));
  const due = await listCertificatesDue(env.db, now, new Date(now.getTime() + acme.renewBeforeMs), QUEUED_PER_SWEEP);
  if (due.length === 0) return 0;
  await claimCertificateAttempts(env.db, due, new Date(now.getTime() + CLAIM_MS));
  // One attempt per job: a failure is recorded with its own retry time (obtain-certificate.ts), which the sweep honours.
  for (const domain of due) await env.enqueue('issue_forwarding_certificate', { domain }, { key: `certificate:${domain}`, maxAttempts: 1 });
  return due.length;
}

/**
 * How the job proves control: with ACME_DNS01=on, DNS-01 through the connection the domain's records
 * were last published through (the journal), acting for that account; otherwise (or without such a
 * connection) null, HTTP-01 on the forwarding listener.
 */
async function dns01For(env: JobEnvironment, domain: string, acme: AcmeSettings): Promise<Dns01Proof | null> {
  if (acme.dns01 === null) return null;
  const found = await findDns01Connection(env.db, domain);
  if (!found) return null;
  const ctx = accountJobContext(env.services, found.account_id, 'acme-dns01');
  return { connectionId: found.connection_id, responder: dns01ThroughConnection(ctx, found.connection_id, { waitMs: acme.dns01.waitMs }) };
}

/**
 * Obtains or renews the certificate of one forwarded domain over ACME (HTTP-01 on the forwarding
 * listener, or DNS-01 through the domain's connection: dns01For). A domain no longer live or
 * forwarded, or renewed meanwhile, is left alone.
 */
export const issueForwardingCertificate: TaskFunction = async (payload: { domain: string }, env) => {
  const acme = env.config.acme;
  if (acme === null) return;
  const { domain } = payload;
  if (!(await isLiveForwardedDomain(env.db, domain))) return;
  const state = await findForwardingCertificateState(env.db, domain);
  if (state?.not_after && new Date(state.not_after).getTime() > Date.now() + acme.renewBeforeMs) return;
  const renewal = Boolean(state?.not_after);
  try {
    const dns01 = await dns01For(env, domain, acme);
    const { notAfter } = await obtainCertificate(
      { db: env.db, secretsKey: env.services.config.secretsKey, issuer: issuerFor(acme), directoryUrl: acme.directoryUrl, now: () => new Date() },
      domain,
      dns01,
    );
    log('info', renewal ? 'forwarding certificate renewed' : 'forwarding certificate issued', {
      domain,
      not_after: notAfter.toISOString(),
      challenge: dns01 ? `dns-01 (connection ${dns01.connectionId})` : 'http-01',
    });
  } catch (error) {
    // Recorded on the row with its retry time; the setup's forwarding line shows it.
    log('warn', 'forwarding certificate not obtained', { domain, reason: error instanceof Error ? error.message : String(error) });
  }
};
