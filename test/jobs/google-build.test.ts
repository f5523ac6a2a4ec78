import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFakeStripe, type FakeStripe } from '../support/fake-stripe.js';
import { startFakeGoogleDirectory, type FakeGoogleDirectory } from '../support/fake-google-directory.js';
import { graphql } from '../support/test-service.js';
import { FREE_DOMAINS, orderBody, orderingZone, postJson, startOrderingService, type OrderingHarness } from '../orders/support/ordering-fixture.js';
import { cancelAtFakeStripe, saveCardAtFakeStripe } from '../orders/support/stripe-webhooks.js';
import { FAST_SETUP_RECHECK, publishedSetup } from './jobs-zone.js';
import { waitForJobsFinished } from './finished-jobs.js';
import { waitFor } from './webhook-receiver.js';
import { decryptSecret } from '../../resolvers/secrets/encrypt-secret.js';
import { mailboxSealPurpose } from '../../resolvers/mailboxes/mailbox-passwords.js';
import type { ZoneRecord } from '../support/dns-server.js';

/**
 * A whole build with PROVISIONING=google through the jobs: an order placed through the API (Stripe
 * through the local fake), the build job creating the mailboxes at Google (the local fake of the
 * token exchange and the Directory API, spoken to by @googleapis/admin), the build state truthful
 * (waiting_for_dns until every record is verified, live only then; Google's refusal and a missing
 * DKIM value are needs_attention with a reason saying what to do), the order's cancellation
 * suspending the users at Google, and its reinstatement taking them up again.
 */
const SECRET = 'whsec_google_build_test_0123456789';
const ADMIN = 'admin@workspace-owner.test';
const [good, refused, noDkim] = [FREE_DOMAINS[13]!, FREE_DOMAINS[14]!, FREE_DOMAINS[15]!];
let google: FakeGoogleDirectory;
let stripe: FakeStripe;
let dir: string;
let h: OrderingHarness;
let placed: { order_id: number; subscription_id: string };
/** The DKIM key "generated in the Admin console": a real RSA public key, as Google shows it. */
const dkimPublicKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey.export({ type: 'spki', format: 'der' }).toString('base64');

const db = () => h.service.services.db;
const domainRow = (domain: string) =>
  db().selectFrom('domains').select(['id', 'build_state', 'build_reason', 'mailboxes_created_at']).where('domain', '=', domain).executeTakeFirstOrThrow();
const mailboxRows = (domain: string) =>
  db()
    .selectFrom('mailboxes')
    .innerJoin('domains', 'domains.id', 'mailboxes.domain_id')
    .select(['mailboxes.id', 'mailboxes.local_part', 'mailboxes.status', 'mailboxes.password_sealed'])
    .where('domains.domain', '=', domain)
    .orderBy('mailboxes.id')
    .execute();
const passwordOf = (m: { id: number; password_sealed: string | null }) =>
  decryptSecret(h.service.services.secretsKey, m.password_sealed!, mailboxSealPurpose(m.id));

beforeAll(async () => {
  google = await startFakeGoogleDirectory();
  google.refuseDomains.add(refused);
  stripe = await startFakeStripe();
  stripe.addPrice({ id: 'price_demo_google_unwarmed', unit_amount: 350 });
  dir = mkdtempSync(join(tmpdir(), 'google-build-'));
  writeFileSync(join(dir, 'key.json'), google.serviceAccountKey);
  // The operator placed the Admin console's DKIM value for two of the three domains.
  writeFileSync(join(dir, `${good}.txt`), `v=DKIM1; k=rsa; p=${dkimPublicKey}\n`);
  writeFileSync(join(dir, `${refused}.txt`), `v=DKIM1; k=rsa; p=${dkimPublicKey}\n`);
  h = await startOrderingService({
    rateLimits: { order: 1000 },
    env: {
      PROVISIONING: 'google',
      GOOGLE_SERVICE_ACCOUNT_FILE: join(dir, 'key.json'),
      GOOGLE_ADMIN_SUBJECT: ADMIN,
      GOOGLE_DKIM_DIR: dir,
      GOOGLE_API_BASE: google.apiBase,
      GOOGLE_TOKEN_URL: google.tokenUrl,
      STRIPE_SECRET_KEY: stripe.secretKey,
      STRIPE_API_BASE: stripe.url,
      STRIPE_WEBHOOK_SECRET: SECRET,
      JOBS: 'on',
      // The placement's preview looks the domains up; on a loaded machine the fixture's 400 ms, one try, can time out.
      DNS_TIMEOUT_MS: '2000',
      DNS_TRIES: '2',
      SANDBOX_BUILD_DELAY_MS: '50',
      JOBS_POLL_INTERVAL_MS: '50',
      JOBS_SWEEP_INTERVAL_MS: '300',
      ...FAST_SETUP_RECHECK,
    },
  });
  await saveCardAtFakeStripe(h.service, stripe, SECRET, '4242424242424242');
}, 90_000);
afterAll(async () => {
  await h?.close();
  await google?.close();
  await stripe?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('a build with PROVISIONING=google, through the jobs', () => {
  it('an order placed: the build creates the mailboxes at Google with the sealed passwords; the domain waits for its DNS, not live', async () => {
    expect(h.service.jobs.environment.adapter.kind).toBe('google');
    const order = await postJson(h.service, '/v1/orders', orderBody([good, refused, noDkim], 2), { headers: { 'idempotency-key': 'google-build-0001' } });
    expect(order.status).toBe(200);
    placed = order.body;
    await waitFor('the three builds to end', async () => {
      const states = await Promise.all([good, refused, noDkim].map(async (d) => (await domainRow(d)).build_state));
      return states[0] === 'waiting_for_dns' && states[1] === 'needs_attention' && states[2] === 'needs_attention';
    });
    const mailboxes = await mailboxRows(good);
    expect(mailboxes.map((m) => `${m.local_part} ${m.status}`)).toEqual(['alex active', 'sam active']);
    // At Google: the users, with their names and the very passwords sealed here, made by the delegated admin.
    expect(google.users.get(`alex@${good}`)).toEqual({
      primaryEmail: `alex@${good}`,
      name: { givenName: 'Alex', familyName: 'Morgan' },
      password: passwordOf(mailboxes[0]!),
      suspended: false,
    });
    expect(google.users.get(`sam@${good}`)?.password).toBe(passwordOf(mailboxes[1]!));
    expect(google.calls.filter((c) => c.method === 'POST' && c.path === '/admin/directory/v1/users').every((c) => c.subject === ADMIN)).toBe(true);
    const row = await domainRow(good);
    expect(row.mailboxes_created_at).not.toBeNull();
    // Nothing is published yet: the records are missing, so the domain is not live, and says why.
    const setup = await (await h.service.api(`/v1/domains/${good}/setup`)).json();
    expect(setup.build_state).toBe('waiting_for_dns');
    const dkim = setup.records.find((r: { type: string; name: string }) => r.type === 'TXT' && r.name === `google._domainkey.${good}`);
    expect(dkim.value).toBe(`v=DKIM1; k=rsa; p=${dkimPublicKey}`);
    expect(dkim.status).toBe('missing');
    expect(await db().selectFrom('events').select('id').where('type', '=', 'domain.live').execute()).toEqual([]);
  }, 60_000);

  it('Google’s refusal is needs_attention with a reason saying what to do (no password); a missing DKIM value says where to put it', async () => {
    const refusedRow = await domainRow(refused);
    expect(refusedRow.build_reason).toMatch(
      new RegExp(
        `^Google Workspace refused to create alex@${refused.replaceAll('.', '\\.')}: .*Domain not found.*\\(HTTP 412\\)\\. Check that .* then queue the domain again\\.$`,
      ),
    );
    const refusedMailboxes = await mailboxRows(refused);
    expect(refusedMailboxes.map((m) => m.status)).toEqual(['pending', 'pending']);
    for (const m of refusedMailboxes) expect(refusedRow.build_reason).not.toContain(passwordOf(m));
    const noDkimRow = await domainRow(noDkim);
    expect(noDkimRow.build_reason).toContain(`place its TXT value in ${join(dir, `${noDkim}.txt`)}`);
    // No user was made for it: the DKIM value is asked for before anything is created at Google.
    expect([...google.users.keys()].filter((e) => e.endsWith(`@${noDkim}`) || e.endsWith(`@${refused}`))).toEqual([]);

    // Every door shows the state and the reason: REST's setup, the dashboard on GraphQL, the events.
    const setup = await (await h.service.api(`/v1/domains/${refused}/setup`)).json();
    expect(setup).toMatchObject({ build_state: 'needs_attention', reason: refusedRow.build_reason });
    const dashboard = await graphql(h.service, '{ dashboard { orders { domains { domain buildState buildReason } } } }');
    const shown = dashboard.body.data.dashboard.orders.flatMap((o: { domains: unknown[] }) => o.domains);
    expect(shown.find((d: { domain: string }) => d.domain === refused)).toEqual({
      domain: refused,
      buildState: 'needs_attention',
      buildReason: refusedRow.build_reason,
    });
    const events = await db().selectFrom('events').select('data').where('type', '=', 'domain.needs_attention').execute();
    expect(events.map((e) => JSON.parse(e.data).domain).sort()).toEqual([refused, noDkim].sort());

    // Sweeps and setup checks pass (every 300 ms) and leave both as the build left them: the reason
    // stays Google's, no mailbox is taken for made, and the reconnection monitor reports nothing.
    // Three sweeps finished (each queues the checks the one before may not have seen run).
    await waitForJobsFinished('sweep', 3);
    expect(await domainRow(refused)).toMatchObject({ build_state: 'needs_attention', build_reason: refusedRow.build_reason, mailboxes_created_at: null });
    expect(await domainRow(noDkim)).toMatchObject({ build_state: 'needs_attention', build_reason: noDkimRow.build_reason, mailboxes_created_at: null });
    const checkedNow = await postJson(h.service, `/v1/domains/${refused}/setup/check`, {});
    expect(checkedNow.body).toMatchObject({ build_state: 'needs_attention', reason: refusedRow.build_reason });
    expect((await domainRow(refused)).build_reason).toBe(refusedRow.build_reason);
    expect((await mailboxRows(noDkim)).map((m) => m.status)).toEqual(['pending', 'pending']);
    expect(await db().selectFrom('events').select('id').where('type', '=', 'mailbox.disconnected').execute()).toEqual([]);
  });

  it('live only once every record is published and verified; the refused domain stays needs_attention', async () => {
    const published: ZoneRecord[] = [];
    for (const domain of [good, refused]) {
      const setup = await (await h.service.api(`/v1/domains/${domain}/setup`)).json();
      published.push(...publishedSetup(setup.records));
    }
    h.dns.setRecords([...orderingZone(), ...published]);
    await waitFor('the domain live', async () => (await domainRow(good)).build_state === 'live');
    const setup = await (await h.service.api(`/v1/domains/${good}/setup`)).json();
    expect(setup.records.filter((r: { required: boolean }) => r.required).every((r: { status: string }) => r.status === 'verified')).toBe(true);
    const live = await db().selectFrom('events').select('data').where('type', '=', 'domain.live').execute();
    expect(live.map((e) => JSON.parse(e.data).domain)).toEqual([good]);
    // Its records published do not make a domain Google refused live: its mailboxes do not exist.
    // The good domain went live on these records; three sweeps more have had the refused one checked too.
    await waitForJobsFinished('sweep', 3);
    expect((await domainRow(refused)).build_state).toBe('needs_attention');
  }, 60_000);

  it('cancelling the order suspends its users at Google; only the mailboxes Google holds are suspended', async () => {
    const hooked = await cancelAtFakeStripe(h.service, stripe, SECRET, placed.subscription_id);
    expect(hooked.status).toBe(200);
    await waitFor('the users suspended at Google', async () => google.users.get(`alex@${good}`)?.suspended && google.users.get(`sam@${good}`)?.suspended);
    await waitFor('the mailboxes suspended here', async () => (await mailboxRows(good)).every((m) => m.status === 'suspended'));
    const updates = google.calls.filter((c) => c.method === 'PUT' || c.method === 'PATCH');
    expect(updates.every((c) => c.subject === ADMIN)).toBe(true);
    expect((await mailboxRows(refused)).map((m) => m.status)).toEqual(['pending', 'pending']);
    const events = await waitFor('the mailbox.suspended event', async () => {
      const rows = await db().selectFrom('events').select('data').where('type', '=', 'mailbox.suspended').execute();
      return rows.length === 1 ? rows : null;
    });
    expect(JSON.parse(events[0]!.data)).toMatchObject({ domain: good, mailboxes: [`alex@${good}`, `sam@${good}`], cause: 'order_cancelled' });
    const listed = await (await h.service.api(`/v1/portal/domains/${good}/mailboxes`)).json();
    expect(listed.mailboxes.map((m: { status: string }) => m.status)).toEqual(['suspended', 'suspended']);
  }, 60_000);

  it('reinstating the order within its grace period takes the users up again at Google (suspended: false), with mailbox.reactivated', async () => {
    const charges = stripe.charges.length;
    const response = await h.service.api(`/v1/orders/${placed.order_id}/reinstate`, {
      method: 'POST',
      headers: { 'idempotency-key': 'google-reinstate-0001' },
    });
    expect(response.status).toBe(200);
    // The good domain's two users are taken up; the refused domains' pending mailboxes were never suspended.
    expect(await response.json()).toMatchObject({ order_id: placed.order_id, status: 'active', mailboxes_to_reactivate: 2, replayed: false });
    expect(stripe.charges.length).toBe(charges + 1);
    await waitFor(
      'the users active at Google',
      async () => google.users.get(`alex@${good}`)?.suspended === false && google.users.get(`sam@${good}`)?.suspended === false,
    );
    await waitFor('the mailboxes active here', async () => (await mailboxRows(good)).every((m) => m.status === 'active'));
    const unsuspended = google.calls.filter((c) => c.method === 'PUT' && c.suspended === false);
    expect(unsuspended.map((c) => decodeURIComponent(c.path.split('/').pop()!)).sort()).toEqual([`alex@${good}`, `sam@${good}`]);
    expect(unsuspended.every((c) => c.subject === ADMIN)).toBe(true);
    // Their passwords are the ones sealed here, unchanged.
    const mailboxes = await mailboxRows(good);
    expect(google.users.get(`alex@${good}`)?.password).toBe(passwordOf(mailboxes[0]!));
    expect((await mailboxRows(refused)).map((m) => m.status)).toEqual(['pending', 'pending']);
    const events = await waitFor('the mailbox.reactivated event', async () => {
      const rows = await db().selectFrom('events').select('data').where('type', '=', 'mailbox.reactivated').execute();
      return rows.length === 1 ? rows : null;
    });
    expect(JSON.parse(events[0]!.data)).toMatchObject({
      domain: good,
      mailboxes: [`alex@${good}`, `sam@${good}`],
      status: 'active',
      cause: 'order_reinstated',
    });
    const listed = await (await h.service.api(`/v1/portal/domains/${good}/mailboxes`)).json();
    expect(listed.mailboxes.map((m: { status: string }) => m.status)).toEqual(['active', 'active']);
  }, 60_000);
});
