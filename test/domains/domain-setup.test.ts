import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { createPublicKey } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { ZoneRecord } from '../support/dns-server.js';
import { graphql } from '../support/test-service.js';
import {
  FREE_DOMAINS,
  orderBody,
  orderingZone,
  postJson,
  saveCardThroughSandboxPage,
  startOrderingService,
  type OrderingHarness,
} from '../orders/support/ordering-fixture.js';
import { waitFor } from '../jobs/webhook-receiver.js';
import { decryptSecret } from '../../resolvers/secrets/encrypt-secret.js';
import { dkimSealPurpose } from '../../resolvers/domains/setup/dkim-keys.js';
import { serviceConfigFromEnv } from '../../config/settings.js';
import { makeRsaDkimKey } from '../../clients/mailboxes/provisioning-adapter.js';

/**
 * A domain's setup through the doors, with the jobs on: the records it needs and their statuses,
 * waiting_for_dns → live when the test publishes them, live → needs_attention → live when one breaks
 * and comes back, every record kind and status, SPF merged into an existing record and refused past
 * 10 lookups.
 */
const SVC = fileURLToPath(new URL('../../cli/svc.py', import.meta.url));
let h: OrderingHarness;
const [fresh, crafted, merged, atLimit, pastLimit] = [FREE_DOMAINS[20]!, FREE_DOMAINS[21]!, FREE_DOMAINS[22]!, FREE_DOMAINS[23]!, FREE_DOMAINS[24]!];
const ALL = [fresh, crafted, merged, atLimit, pastLimit];
let extra: ZoneRecord[] = [];
const publish = (records: ZoneRecord[]) => {
  extra = records;
  h.dns.setRecords([...orderingZone(), ...extra]);
};

/** What a person copies from the setup into their DNS host: TXT split into 255-byte strings. */
function asZone(records: readonly { type: string; name: string; value: string; priority: number | null }[]): ZoneRecord[] {
  return records.map((r): ZoneRecord => {
    if (r.type === 'MX') return { name: r.name, type: 'MX', data: { preference: r.priority ?? 10, exchange: r.value } };
    if (r.type === 'A') return { name: r.name, type: 'A', data: r.value };
    return { name: r.name, type: 'TXT', data: r.value.match(/.{1,255}/g) ?? [] };
  });
}

/** n `a:` terms on names that exist: each one DNS lookup, none void. */
function lookupTerms(domain: string, n: number): { terms: string; records: ZoneRecord[] } {
  const names = Array.from({ length: n }, (_, i) => `h${i}.${domain}`);
  return { terms: names.map((name) => `a:${name}`).join(' '), records: names.map((name): ZoneRecord => ({ name, type: 'A', data: '192.0.2.7' })) };
}

const getSetup = async (domain: string) => {
  const response = await h.service.api(`/v1/domains/${domain}/setup`);
  expect(response.status).toBe(200);
  return (await response.json()) as any;
};
const byPurpose = (setup: any, purpose: string) => setup.records.find((r: any) => r.purpose === purpose);

beforeAll(async () => {
  h = await startOrderingService({
    rateLimits: { order: 1000 },
    env: {
      JOBS: 'on',
      SANDBOX_BUILD_DELAY_MS: '50',
      JOBS_POLL_INTERVAL_MS: '50',
      JOBS_SWEEP_INTERVAL_MS: '300',
      SETUP_RECHECK_FIRST_MS: '200',
      SETUP_RECHECK_MAX_MS: '400',
      SETUP_RECHECK_LIVE_MS: '300',
      REPORTS_DOMAIN: 'reports.example.net',
      // A loaded machine answers slowly; a timeout would read as unknown, not missing.
      DNS_TIMEOUT_MS: '2000',
      DNS_TRIES: '2',
      FORWARD_TARGET: '192.0.2.80',
      ALERT_OUTBOX_DIR: `/tmp/outbox-setup-${process.pid}`,
    },
  });
  const spf = lookupTerms(atLimit, 9);
  const spf2 = lookupTerms(pastLimit, 10);
  publish([
    { name: merged, type: 'TXT', data: ['v=spf1 ip4:192.0.2.25 -all'] },
    { name: atLimit, type: 'TXT', data: [`v=spf1 ${spf.terms} -all`] },
    ...spf.records,
    { name: pastLimit, type: 'TXT', data: [`v=spf1 ${spf2.terms} ~all`] },
    ...spf2.records,
  ]);
  await saveCardThroughSandboxPage(h.service, '4242 4242 4242 4242');
  const placed = await postJson(h.service, '/v1/orders', orderBody(ALL, 1), { headers: { 'idempotency-key': 'domain-setup-0001' } });
  if (placed.status !== 200) throw new Error(`the order was refused: ${JSON.stringify(placed.body)}`);
  await waitFor('every domain built and waiting for its DNS', async () => {
    const rows = await h.service.services.db.selectFrom('domains').select('build_state').where('domain', 'in', ALL).execute();
    return rows.length === ALL.length && rows.every((r) => r.build_state === 'waiting_for_dns') ? rows : null;
  });
}, 60_000);
afterAll(async () => {
  await h?.close();
});

describe('the records a domain needs, and their status', () => {
  it('a built domain with nothing published: every record missing, waiting_for_dns, not ready, with the reason', async () => {
    const setup = await getSetup(fresh);
    expect(setup).toMatchObject({ domain: fresh, build_state: 'waiting_for_dns', ready: false });
    expect(setup.reason).toContain('MX');
    expect(setup.records.map((r: any) => [r.purpose, r.type, r.name, r.status])).toEqual([
      ['mx', 'MX', fresh, 'missing'],
      ['spf', 'TXT', fresh, 'missing'],
      ['dkim', 'TXT', `google._domainkey.${fresh}`, 'missing'],
      ['dmarc', 'TXT', `_dmarc.${fresh}`, 'missing'],
      ['forwarding', 'A', fresh, 'missing'],
      // The demo account's proof of control is in the ordering zone already.
      ['verification', 'TXT', `_inbox-verification.${fresh}`, 'verified'],
    ]);
    expect(byPurpose(setup, 'mx')).toMatchObject({ value: 'smtp.google.com', priority: 1, ttl: 3600, required: true, found: [] });
    expect(byPurpose(setup, 'spf').value).toBe('v=spf1 include:_spf.google.com ~all');
    expect(byPurpose(setup, 'dmarc').value).toBe('v=DMARC1; p=none; rua=mailto:dmarc@reports.example.net');
    expect(byPurpose(setup, 'forwarding').value).toBe('192.0.2.80');
    expect(byPurpose(setup, 'verification').required).toBe(false);
  });

  it('the DKIM key is a real 2048-bit RSA pair; its private half is sealed at rest and opens with SECRETS_KEY only', async () => {
    const setup = await getSetup(fresh);
    const p = /p=([A-Za-z0-9+/=]+)$/.exec(byPurpose(setup, 'dkim').value)![1]!;
    const publicKey = createPublicKey({ key: Buffer.from(p, 'base64'), format: 'der', type: 'spki' });
    expect(publicKey.asymmetricKeyDetails?.modulusLength).toBe(2048);
    const row = await h.service.services.db
      .selectFrom('domain_dkim_keys')
      .innerJoin('domains', 'domains.id', 'domain_dkim_keys.domain_id')
      .select(['private_key_sealed', 'public_key', 'domain_dkim_keys.domain_id'])
      .where('domains.domain', '=', fresh)
      .executeTakeFirstOrThrow();
    expect(row.private_key_sealed).not.toContain('PRIVATE KEY');
    const pem = decryptSecret(h.service.services.config.secretsKey, row.private_key_sealed, dkimSealPurpose(row.domain_id));
    expect(createPublicKey(pem).export({ type: 'spki', format: 'der' }).toString('base64')).toBe(p);
    expect(() => decryptSecret(Buffer.alloc(32, 7), row.private_key_sealed, dkimSealPurpose(row.domain_id))).toThrow();
    // Bound to its own domain: the same ciphertext does not open as another row's.
    expect(() => decryptSecret(h.service.services.config.secretsKey, row.private_key_sealed, dkimSealPurpose(row.domain_id + 1))).toThrow();
  });

  it('SPF is merged into the existing record, never a second one', async () => {
    const spf = byPurpose(await getSetup(merged), 'spf');
    expect(spf).toMatchObject({ status: 'wrong', found: ['v=spf1 ip4:192.0.2.25 -all'], value: 'v=spf1 ip4:192.0.2.25 include:_spf.google.com -all' });
  });

  it('SPF at the limit merges (10 lookups); one more and the setup says so instead of merging', async () => {
    const at = byPurpose(await getSetup(atLimit), 'spf');
    expect(at.status).toBe('wrong');
    expect(at.detail).toContain('10 of 10 DNS lookups');
    expect(at.value).toMatch(/a:h8\.\S+ include:_spf\.google\.com -all$/);
    const past = byPurpose(await getSetup(pastLimit), 'spf');
    expect(past.status).toBe('conflict');
    expect(past.detail).toContain('would make 11 DNS lookups');
  });

  it('wrong and conflict for every kind, with what was found beside what is wanted', async () => {
    const other = await makeRsaDkimKey('google');
    publish([
      ...extra,
      { name: crafted, type: 'MX', data: { preference: 1, exchange: 'smtp.google.com' } },
      { name: crafted, type: 'MX', data: { preference: 10, exchange: 'mx.other-provider.net' } },
      { name: crafted, type: 'TXT', data: ['v=spf1 include:_spf.google.com ~all'] },
      { name: crafted, type: 'TXT', data: ['v=spf1 include:mailgun.org ~all'] },
      { name: `google._domainkey.${crafted}`, type: 'TXT', data: `v=DKIM1; k=rsa; p=${other.publicKey}`.match(/.{1,255}/g)! },
      { name: `_dmarc.${crafted}`, type: 'TXT', data: ['v=DMARC1; p=reject; rua=mailto:someone@elsewhere.example'] },
      { name: crafted, type: 'A', data: '192.0.2.99' },
    ]);
    const setup = await (await h.service.api(`/v1/domains/${crafted}/setup`)).json();
    expect(byPurpose(setup, 'mx')).toMatchObject({ status: 'conflict', found: expect.arrayContaining(['10 mx.other-provider.net', '1 smtp.google.com']) });
    expect(byPurpose(setup, 'mx').detail).toContain('mx.other-provider.net');
    expect(byPurpose(setup, 'spf')).toMatchObject({ status: 'conflict' });
    expect(byPurpose(setup, 'spf').found).toHaveLength(2);
    expect(byPurpose(setup, 'dkim')).toMatchObject({ status: 'wrong', found: [`v=DKIM1; k=rsa; p=${other.publicKey}`] });
    expect(byPurpose(setup, 'dmarc')).toMatchObject({ status: 'wrong', found: ['v=DMARC1; p=reject; rua=mailto:someone@elsewhere.example'] });
    expect(byPurpose(setup, 'forwarding')).toMatchObject({ status: 'wrong', found: ['192.0.2.99'], value: '192.0.2.80' });
    expect(setup.ready).toBe(false);
  });

  it("Google's legacy five MX hosts are accepted as verified", async () => {
    publish([
      ...extra.filter((r) => !(r.name === crafted && r.type === 'MX')),
      ...['aspmx.l.google.com', 'alt1.aspmx.l.google.com', 'alt2.aspmx.l.google.com', 'alt3.aspmx.l.google.com', 'alt4.aspmx.l.google.com'].map(
        (exchange, i): ZoneRecord => ({ name: crafted, type: 'MX', data: { preference: [1, 5, 5, 10, 10][i]!, exchange } }),
      ),
    ]);
    const mx = byPurpose(await getSetup(crafted), 'mx');
    expect(mx.status).toBe('verified');
    expect(mx.detail).toContain('legacy');
  });

  it('the zone snippet is text/dns, absolute names, the DKIM text split into 255-byte strings', async () => {
    const response = await h.service.api(`/v1/domains/${fresh}/setup/zone`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/dns/);
    const zone = await response.text();
    expect(zone).toContain(`${fresh}.\t3600\tIN\tMX\t1 smtp.google.com.`);
    expect(zone).toContain(`_dmarc.${fresh}.\t3600\tIN\tTXT\t"v=DMARC1; p=none; rua=mailto:dmarc@reports.example.net"`);
    expect(zone).toMatch(
      new RegExp(`google\\._domainkey\\.${fresh.replace(/\./g, '\\.')}\\.\\t3600\\tIN\\tTXT\\t\\( "v=DKIM1; k=rsa; p=[^"]{230,237}" "[^"]+" \\)`),
    );
  });

  it('a domain not on your orders is a 404 that says so; a malformed one a 400; the same in GraphQL', async () => {
    const foreign = await h.service.api('/v1/domains/not-ours.example/setup');
    expect(foreign.status).toBe(404);
    expect((await foreign.json()).detail).toContain('There is no domain "not-ours.example" on your orders');
    const other = await h.service.seedAccount();
    const theirs = await h.service.api(`/v1/domains/${fresh}/setup/zone`, { key: other.key });
    expect(theirs.status).toBe(404);
    const bad = await postJson(h.service, '/v1/domains/not a domain/setup/check', undefined);
    expect(bad.status).toBe(400);
    expect(bad.body.detail).toContain('not a valid domain name');
    const gql = await graphql(h.service, 'query($d: String!) { domainSetup(domain: $d) { domain } }', { d: 'not-ours.example' });
    expect(gql.body.errors?.[0]?.extensions).toMatchObject({ code: 'domain_not_found' });
  });
});

describe('build states that tell the truth', () => {
  it('waiting_for_dns → live by itself once the test publishes the records (the jobs re-check on the backoff)', async () => {
    const setup = await getSetup(fresh);
    publish([...extra, ...asZone(setup.records)]);
    const live = await waitFor('the domain live by itself', async () => {
      const result = await graphql(h.service, 'query($d: String!) { domainSetup(domain: $d) { buildState ready reason records { purpose status } } }', {
        d: fresh,
      });
      return result.body.data.domainSetup.buildState === 'live' ? result.body.data.domainSetup : null;
    });
    expect(live.ready).toBe(true);
    expect(live.reason).toBeNull();
    expect(new Set(live.records.map((r: any) => r.status))).toEqual(new Set(['verified']));
    const events = await h.service.services.db.selectFrom('events').select('data').where('type', '=', 'domain.live').execute();
    expect(events.filter((e) => JSON.parse(e.data).domain === fresh)).toHaveLength(1);
  });

  it('live → needs_attention with a reason, the failing record and an event when DKIM breaks; live again when it is back', async () => {
    const published = extra;
    publish(published.filter((r) => r.name !== `google._domainkey.${fresh}`));
    const broken = await waitFor('needs_attention by the jobs', async () => {
      const s = await getSetup(fresh);
      return s.build_state === 'needs_attention' ? s : null;
    });
    expect(broken.reason).toContain('DKIM');
    expect(byPurpose(broken, 'dkim').status).toBe('missing');
    const attention = await h.service.services.db.selectFrom('events').select('data').where('type', '=', 'domain.needs_attention').execute();
    const mine = attention.map((e) => JSON.parse(e.data)).filter((d) => d.domain === fresh);
    expect(mine).toHaveLength(1);
    expect(mine[0].failing_records).toEqual([expect.objectContaining({ purpose: 'dkim', status: 'missing', name: `google._domainkey.${fresh}` })]);
    publish(published);
    await waitFor('live again', async () => ((await getSetup(fresh)).build_state === 'live' ? true : null));
  });

  it('check now through MCP and the REST check: the state moves at once, and the answer is the setup', async () => {
    const published = extra;
    const client = new Client({ name: 'setup-test', version: '1' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${h.service.apiUrl}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${h.service.demo.key}` } } }),
    );
    const text = (r: Awaited<ReturnType<Client['callTool']>>) => {
      const first: unknown = Array.isArray(r.content) ? r.content[0] : undefined;
      return JSON.parse(first && typeof first === 'object' && 'text' in first && typeof first.text === 'string' ? first.text : 'null');
    };
    try {
      publish(published.filter((r) => !(r.name === fresh && r.type === 'MX')));
      const broken = text(await client.callTool({ name: 'check_domain_setup', arguments: { domain: fresh } }));
      expect(broken).toMatchObject({ domain: fresh, build_state: 'needs_attention', ready: false });
      expect(byPurpose(broken, 'mx').status).toBe('missing');
      publish(published);
      const fixed = await postJson(h.service, `/v1/domains/${fresh}/setup/check`, undefined);
      expect(fixed.status).toBe(200);
      expect(fixed.body).toMatchObject({ domain: fresh, build_state: 'live', ready: true, reason: null });
      const read = text(await client.callTool({ name: 'get_domain_setup', arguments: { domain: fresh } }));
      expect(read.build_state).toBe('live');
    } finally {
      await client.close();
    }
  });

  it('svc setup DOMAIN prints the setup; --zone the snippet', async () => {
    const run = (args: string[]) =>
      new Promise<{ code: number | null; stdout: string }>((resolve, reject) => {
        const child = spawn('python3', [SVC, ...args], {
          env: { PATH: process.env.PATH ?? '/usr/bin:/bin', SERVICE_API_URL: h.service.apiUrl, SERVICE_API_KEY: h.service.demo.key },
        });
        let stdout = '';
        child.stdout.on('data', (d) => {
          stdout += d;
        });
        child.on('error', reject);
        child.on('close', (code) => resolve({ code, stdout }));
      });
    const shown = await run(['setup', fresh]);
    expect(shown.code).toBe(0);
    expect(JSON.parse(shown.stdout)).toMatchObject({ domain: fresh, build_state: 'live' });
    const zone = await run(['setup', fresh, '--zone']);
    expect(zone.stdout).toContain(`${fresh}.\t3600\tIN\tMX\t1 smtp.google.com.`);
  });
});

describe('settings', () => {
  it('production refuses to start without SECRETS_KEY, and takes a 32-byte key', () => {
    expect(() => serviceConfigFromEnv({ NODE_ENV: 'production' })).toThrow(/SECRETS_KEY must be set when NODE_ENV=production/);
    expect(() => serviceConfigFromEnv({ NODE_ENV: 'production', SECRETS_KEY: 'abc' })).toThrow(/32 bytes/);
    const config = serviceConfigFromEnv({
      NODE_ENV: 'production',
      SECRETS_KEY: 'ab'.repeat(32),
      REPORTS_DOMAIN: 'reports.example.com',
      FORWARD_TARGET: '192.0.2.80',
    });
    expect(config.secretsKey).toEqual(Buffer.alloc(32, 0xab));
    expect(config.secretsKeyIsDefault).toBe(false);
    expect(() => serviceConfigFromEnv({ FORWARD_TARGET: 'forward.example.com' })).toThrow(/FORWARD_TARGET must be an IPv4 address/);
  });
});
