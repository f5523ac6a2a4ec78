import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../support/wait-for.js';
import { googleAttachedDemoDomain, orderableDemoDomains } from '../support/fixture-zone.js';
import { repoRoot } from '../support/spawn-server.js';
import { startTestService, TEST_ADMIN_SETTINGS, type TestService } from '../support/test-service.js';
import { runAdminCommand } from '../../admin/run-admin-command.js';
import { postJson, saveCardThroughSandboxPage } from '../orders/support/ordering-fixture.js';

// A newcomer's first ten minutes, offline: `npm run dev-dns` beside the service, then the README's
// own commands (read from the README, so the text and the demo zone cannot drift apart).
const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');
const tryingIt = readme.slice(readme.indexOf('## Trying it'), readme.indexOf('\n## ', readme.indexOf('## Trying it') + 1));
const packageJson: { scripts: Record<string, string> } = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8'));

let devDns: ChildProcess;
let devDnsOut = '';
let devDnsAddress = '';
let service: TestService;

beforeAll(async () => {
  // The script as `npm run dev-dns` runs it, on a free port (5300 may be taken on a shared machine).
  devDns = spawn(process.execPath, ['--import', 'tsx', 'scripts/dev-dns.ts'], {
    cwd: repoRoot,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp', DEV_DNS_PORT: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const address = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`dev-dns printed no address within 30 s: ${devDnsOut}`)), 30_000);
    devDns.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      devDnsOut += chunk;
      const found = /Demo DNS on (\S+)/.exec(devDnsOut)?.[1];
      if (found) {
        devDnsAddress = found;
        clearTimeout(timer);
        resolve(found);
      }
    });
    devDns.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`dev-dns exited with ${code}: ${devDnsOut}`));
    });
  });
  service = await startTestService({
    // Offline, Google's sign-in discovery gives no answer; RDAP and WHOIS fail at once on port 9.
    googleTenancy: { probe: async () => 'unknown' },
    env: {
      DNS_SERVERS: address,
      DNS_TIMEOUT_MS: '1000',
      RDAP_BOOTSTRAP_URL: 'http://127.0.0.1:9/none',
      WHOIS_SERVER: '127.0.0.1:9',
      REGISTRATION_TIMEOUT_MS: '300',
      // As the README starts it (step 6 publishes through the demo DNS on 127.0.0.1), with the jobs building quickly.
      DNS_CONNECTIONS_ALLOW_PRIVATE_ADDRESSES: '1',
      JOBS: 'on',
      SANDBOX_BUILD_DELAY_MS: '50',
      JOBS_POLL_INTERVAL_MS: '50',
    },
  });
}, 60_000);

afterAll(async () => {
  await service?.close();
  if (devDns && devDns.exitCode === null) {
    const exited = new Promise((resolve) => devDns.once('exit', resolve));
    devDns.kill('SIGTERM');
    await exited;
  }
});

describe('README "Trying it", offline against npm run dev-dns', () => {
  it('names the npm script and the port dev-dns listens on by default', () => {
    expect(packageJson.scripts['dev-dns']).toBe('tsx scripts/dev-dns.ts');
    const defaultPort = /const DEFAULT_PORT = (\d+);/.exec(readFileSync(join(repoRoot, 'scripts/dev-dns.ts'), 'utf8'))?.[1];
    expect(tryingIt).toContain('npm run dev-dns');
    expect(tryingIt).toContain(`DNS_SERVERS=127.0.0.1:${defaultPort} npm start`);
    expect(devDnsOut).toContain('DNS_SERVERS=');
    for (const domain of orderableDemoDomains) expect(devDnsOut).toContain(domain);
  });

  it('answers each check the README runs, with the outcome its comment promises and no lookup errors', async () => {
    const examples = [...tryingIt.matchAll(/curl "http:\/\/127\.0\.0\.1:8080(\/\.platform\/functions\/[^"]+)"(?:\s+# (\w+))?/g)];
    expect(examples.length).toBeGreaterThanOrEqual(4);
    for (const [, path, promised] of examples) {
      const response = await service.pub(path!);
      const body = await response.json();
      expect(response.status, path).toBe(200);
      expect(body.status, `${path}: ${body.summary}`).not.toBe('error');
      // A "# pass" or "# fail" comment promises that outcome; other comments promise only no error.
      const promises = promised === 'pass' || promised === 'fail';
      expect(body.status, path).toBe(promises ? promised : body.status);
    }
  });

  it("verifies the README's addresses from the demo zone: none unknown", async () => {
    const emails = /-d '(\{"emails":[^']+\})'/.exec(tryingIt)?.[1];
    expect(emails).toBeDefined();
    const response = await service.pub('/.platform/functions/verify-email', { method: 'POST', headers: { 'content-type': 'application/json' }, body: emails });
    const body = await response.json();
    expect(response.status).toBe(200);
    expect(body.summary).toMatch(/, 0 unknown/);
    expect(body.results.map((r: { reason: string }) => r.reason)).toEqual(['deliverable', 'deliverable', 'domain_not_found']);
  });

  it("previews and places the README's order for a demo domain, then refuses it on a second order", async () => {
    const orderJson = /cat > order\.json <<'JSON'\n([\s\S]*?)\nJSON/.exec(tryingIt)?.[1];
    expect(orderJson).toBeDefined();
    const order = JSON.parse(orderJson!);
    for (const d of order.domains) expect(orderableDemoDomains).toContain(d.domain);

    const preview = await postJson(service, '/v1/orders/preview', order);
    expect(preview.status, JSON.stringify(preview.body)).toBe(200);
    expect(preview.body.problems).toEqual([]);

    await saveCardThroughSandboxPage(service, '4242 4242 4242 4242');
    const placed = await postJson(service, '/v1/orders', order, { headers: { 'idempotency-key': 'first-order-0001' } });
    expect(placed.status, JSON.stringify(placed.body)).toBe(200);
    expect(placed.body.domains).toBe(order.domains.length);

    const again = await postJson(service, '/v1/orders/preview', order);
    expect(again.status).toBe(400);
    expect(again.body.problems[0].issues[0].code).toBe('domain_on_your_order');
  });

  it("step 6: the README's DNS connection to the demo DNS publishes the ordered domain's setup, which goes live; twice changes nothing", async () => {
    expect(devDnsOut).toMatch(/key_name dev-update-key, algorithm hmac-sha256, secret \S+/);
    const domain = 'northwind-mail.test';
    const state = async () => (await (await service.api(`/v1/domains/${domain}/setup`)).json()).build_state;
    await waitFor('the ordered domain built', async () => (await state()) === 'waiting_for_dns', 20_000, 100);
    const connectionJson = /-d '(\{"kind":"rfc2136"[^']+\})'/.exec(tryingIt)?.[1];
    expect(connectionJson).toBeDefined();
    const connection = JSON.parse(connectionJson!);
    // The README's port is dev-dns's default; this run's dev-dns listens on a free port.
    const created = await postJson(service, '/v1/dns-connections', { ...connection, port: Number(devDnsAddress.split(':')[1]) });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const applies = [...tryingIt.matchAll(/-d '(\{"connection_id":1,"dry_run":(?:true|false)\})' \$API\/v1\/domains\/([\w.-]+)\/setup\/apply/g)];
    expect(applies.map((m) => [JSON.parse(m[1]!).dry_run, m[2]])).toEqual([
      [true, domain],
      [false, domain],
    ]);
    const body = (m: RegExpExecArray | RegExpMatchArray) => ({ ...JSON.parse(m[1]!), connection_id: created.body.connection_id });
    const dry = await postJson(service, `/v1/domains/${domain}/setup/apply`, body(applies[0]!));
    expect(dry.status, JSON.stringify(dry.body)).toBe(200);
    expect(dry.body.changes.map((c: { action: string; record: { type: string } }) => `${c.action} ${c.record.type}`)).toEqual([
      'add MX',
      'add TXT',
      'add TXT',
      'add TXT',
      'add A',
    ]);
    // A connection with another secret is refused by the demo DNS (BADSIG), and changes nothing.
    const wrong = await postJson(service, '/v1/dns-connections', {
      ...connection,
      port: Number(devDnsAddress.split(':')[1]),
      secret: Buffer.from('not-the-dev-key-not-the-dev-key!').toString('base64'),
    });
    const refused = await postJson(service, `/v1/domains/${domain}/setup/apply`, { connection_id: wrong.body.connection_id, dry_run: true });
    expect(refused.status).toBe(422);
    expect(refused.body.code).toBe('tsig_key_refused');
    expect(await state()).toBe('waiting_for_dns');
    const applied = await postJson(service, `/v1/domains/${domain}/setup/apply`, body(applies[1]!));
    expect(applied.body).toMatchObject({ dry_run: false, build_state: 'live', ready: true });
    expect(applied.body.changes).toEqual(dry.body.changes);
    const again = await postJson(service, `/v1/domains/${domain}/setup/apply`, body(applies[1]!));
    expect(again.body.changes).toEqual([]);
    // The dashboard row is green, with no problems left.
    const dashboard = await (await service.api('/v1/portal/dashboard')).json();
    const row = dashboard.orders.flatMap((o: { domains: unknown[] }) => o.domains).find((d: { domain: string }) => d.domain === domain);
    expect(row).toMatchObject({ build_state: 'live', build_problems: [] });
    // The grade the README promises for it on the checks page: its records work (Google's SPF chain
    // and MX host are in the demo DNS); DMARC p=none, the setup's first step, caps it at B.
    const promised = /check-deliverability\?domain=([a-z.-]+)"\s+# ([A-F]) (\d+)/.exec(tryingIt);
    expect(promised?.[1]).toBe(domain);
    const grade = await (await service.pub(`/.platform/functions/check-deliverability?domain=${domain}`)).json();
    expect([grade.grade, grade.score], JSON.stringify(grade.findings)).toEqual([promised?.[2], Number(promised?.[3])]);

    // The journal and its undo, as the README shows them: the revert removes the five records from
    // the demo DNS (the setup, read again, finds them missing) and is not taken twice.
    expect(tryingIt).toContain(`$API/v1/domains/${domain}/setup/applies`);
    expect(applied.body.apply_id).toEqual(expect.any(Number));
    const journal = await (await service.api(`/v1/domains/${domain}/setup/applies`)).json();
    expect(journal.data.map((a: { apply_id: number }) => a.apply_id)).toEqual([applied.body.apply_id]);
    const undo = await postJson(service, `/v1/domains/${domain}/setup/applies/${applied.body.apply_id}/revert`, { dry_run: false });
    expect(undo.status, JSON.stringify(undo.body)).toBe(200);
    expect(undo.body).toMatchObject({ ready: false, build_state: 'needs_attention' });
    const setup = await (await service.api(`/v1/domains/${domain}/setup`)).json();
    expect(setup.records.filter((r: { required: boolean }) => r.required).map((r: { status: string }) => r.status)).not.toContain('verified');
    const twice = await postJson(service, `/v1/domains/${domain}/setup/applies/${applied.body.apply_id}/revert`, { dry_run: false });
    expect(twice.body.code).toBe('already_reverted');
  });

  it("a new account proves a demo domain through the README's DNS connection to the demo DNS: its development key works for every account", async () => {
    const made = await runAdminCommand(service.services.db, ['create-account', '--name', 'README newcomer'], TEST_ADMIN_SETTINGS);
    if (!made.ok) throw new Error(made.error);
    const keyMade = await runAdminCommand(
      service.services.db,
      ['create-key', '--account', String(made.result.account_id), '--scopes', 'read,write'],
      TEST_ADMIN_SETTINGS,
    );
    if (!keyMade.ok) throw new Error(keyMade.error);
    const key = String(keyMade.result.key);
    const proof = /-d '(\{"connection_id":\d+\})' \$API\/v1\/domains\/([\w.-]+)\/verify/.exec(tryingIt);
    expect(proof).not.toBeNull();
    const domain = proof![2]!;
    expect(orderableDemoDomains).toContain(domain);
    const before = await postJson(service, `/v1/domains/${domain}/verify`, undefined, { key });
    expect(before.body.verified, JSON.stringify(before.body)).toBe(false);
    const connection = JSON.parse(/-d '(\{"kind":"rfc2136"[^']+\})'/.exec(tryingIt)![1]!);
    const created = await postJson(service, '/v1/dns-connections', { ...connection, port: Number(devDnsAddress.split(':')[1]) }, { key });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const proved = await postJson(service, `/v1/domains/${domain}/verify`, { ...JSON.parse(proof![1]!), connection_id: created.body.connection_id }, { key });
    expect(proved.status, JSON.stringify(proved.body)).toBe(200);
    expect(proved.body).toMatchObject({ domain, verified: true });
    const preview = await postJson(
      service,
      '/v1/orders/preview',
      { sku: 'google-inbox-unwarmed', domains: [{ domain, mailboxes: [{ first_name: 'Ada', last_name: 'Lovelace', local_part: 'ada' }] }] },
      { key },
    );
    expect(preview.body.problems ?? [], JSON.stringify(preview.body)).not.toContainEqual(
      expect.objectContaining({ issues: expect.arrayContaining([expect.objectContaining({ code: 'domain_not_verified' })]) }),
    );
  });

  it('lets every other demo domain be ordered, and refuses the Google-attached one', async () => {
    const mailbox = { first_name: 'Ada', last_name: 'Lovelace', local_part: 'ada' };
    const others = orderableDemoDomains.filter((d) => !tryingIt.includes(`"domain": "${d}"`));
    const clean = await postJson(service, '/v1/orders/preview', {
      sku: 'google-inbox-unwarmed',
      domains: others.map((domain) => ({ domain, mailboxes: [mailbox] })),
    });
    expect(clean.status, JSON.stringify(clean.body)).toBe(200);
    expect(clean.body.problems).toEqual([]);

    const taken = await postJson(service, '/v1/orders/preview', {
      sku: 'google-inbox-unwarmed',
      domains: [{ domain: googleAttachedDemoDomain, mailboxes: [mailbox] }],
    });
    expect(taken.status).toBe(400);
    expect(taken.body.problems[0].issues.map((i: { code: string }) => i.code)).toEqual(['attached_to_google_tenant']);
  });

  it('says plainly what still needs the internet', () => {
    expect(tryingIt).toMatch(/What still needs the internet/);
    expect(tryingIt).toMatch(/RDAP/);
    expect(tryingIt).toMatch(/Live DNS/);
  });
});
