import { generateKeyPairSync } from 'node:crypto';
import nodemailer, { type Transporter } from 'nodemailer';
import { dkimSign } from 'mailauth/lib/dkim/sign.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dmarcFixture, reportMessage } from '../support/report-files.js';
import { startTestDnsServer, type TestDnsServer } from '../support/dns-server.js';
import { graphql, startTestService, type TestService } from '../support/test-service.js';

/**
 * Only a report known to be its reporter's counts: by SMTP one DKIM-signed by (and aligned with) the
 * reporting organisation's domain, by upload one sent with the domain's own account key. The others
 * are stored and listed (authenticated: false) but never reach analytics, sources or alerts. Alerts
 * come once per domain and day of receipt, and never for a report dated far from its receipt.
 * The signing keys are made here and served by the test DNS server the service asks.
 */
let service: TestService;
let dns: TestDnsServer;
let transport: Transporter;
let domains: string[];
const REPORTS_DOMAIN = 'reports.example.net';
const googleKey = generateKeyPairSync('rsa', { modulusLength: 2048 });
const evilKey = generateKeyPairSync('rsa', { modulusLength: 2048 });
const yesterday = new Date(Date.now() - 86_400_000);
yesterday.setUTCHours(0, 0, 0, 0);

function dkimRecord(key: typeof googleKey): string[] {
  const p = key.publicKey.export({ type: 'spki', format: 'der' }).toString('base64');
  return [`v=DKIM1; k=rsa; p=${p}`];
}

beforeAll(async () => {
  dns = await startTestDnsServer({
    records: [
      { name: 's1._domainkey.google.com', type: 'TXT', data: dkimRecord(googleKey) },
      { name: 's1._domainkey.evil.example', type: 'TXT', data: dkimRecord(evilKey) },
    ],
  });
  service = await startTestService({ env: { DNS_SERVERS: dns.server, DNS_TIMEOUT_MS: '1000', REPORTS_SMTP_PORT: '0', REPORTS_DOMAIN } });
  domains = (await service.services.db.selectFrom('domains').select('domain').where('account_id', '=', service.demo.accountId).orderBy('id').execute()).map(
    (d) => d.domain,
  );
  transport = nodemailer.createTransport({ host: '127.0.0.1', port: service.reportsSmtpPort ?? 0, secure: false, ignoreTLS: true });
});
afterAll(async () => {
  transport?.close();
  await service?.close();
  await dns?.close();
});

/** A failing report (Google's, with 5,000 messages from 198.51.100.99 failing DMARC) sent by SMTP, signed as `signer` (or not at all). */
async function sendReport(
  domain: string,
  reportId: string,
  signer: { domain: string; key: typeof googleKey } | null,
  from = 'noreply-dmarc-support@google.com',
) {
  const xml = dmarcFixture('google.xml', { domain, begin: yesterday, reportId }).replace(
    '</feedback>',
    '<record><row><source_ip>198.51.100.99</source_ip><count>5000</count><policy_evaluated><disposition>none</disposition><dkim>fail</dkim><spf>fail</spf></policy_evaluated></row><identifiers><header_from>x</header_from></identifiers><auth_results><spf><domain>x</domain><result>fail</result></spf></auth_results></record></feedback>',
  );
  const message = reportMessage({
    from,
    to: `dmarc@${REPORTS_DOMAIN}`,
    subject: `Report Domain: ${domain} Submitter: google.com Report-ID: <${reportId}>`,
    attachments: [{ filename: `google.com!${domain}!1!2!${reportId}.xml`, contentType: 'text/xml', data: Buffer.from(xml) }],
  });
  const raw = signer ? await sign(message, signer) : message;
  const info = await transport.sendMail({ envelope: { from, to: `dmarc@${REPORTS_DOMAIN}` }, raw });
  expect(info.accepted).toEqual([`dmarc@${REPORTS_DOMAIN}`]);
}

/** The message with a DKIM-Signature of `signer` (selector s1) in front. */
async function sign(message: Buffer, signer: { domain: string; key: typeof googleKey }): Promise<Buffer> {
  // mailauth signs with the entries of signatureData (the top-level fields alone sign nothing).
  const signature = { signingDomain: signer.domain, selector: 's1', privateKey: signer.key.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString() };
  const signed = await dkimSign(message, { ...signature, signatureData: [signature] });
  if (!signed.signatures.startsWith('DKIM-Signature:')) throw new Error(`No signature was made: ${JSON.stringify(signed.errors)}`);
  return Buffer.concat([Buffer.from(signed.signatures), message]);
}

async function reportList(domain: string) {
  const answer = await graphql(service, `query($d: String) { reports(limit: 100, domain: $d) { data { reportId authenticated } } }`, { d: domain });
  return (answer.body.data as { reports: { data: { reportId: string; authenticated: boolean }[] } }).reports.data;
}

async function sources(domain: string): Promise<string[]> {
  const response = await service.api(`/v1/portal/domains/${domain}/sources?period=7d`);
  expect(response.status).toBe(200);
  return ((await response.json()) as { sources: { source_ip: string }[] }).sources.map((s) => s.source_ip);
}

async function alerts(domain: string) {
  const response = await service.api('/v1/events?limit=100');
  const page = (await response.json()) as { data: { type: string; data: { domain: string } }[] };
  return page.data.filter((e) => e.type === 'dmarc.failures' && e.data.domain === domain);
}

describe('authenticated reports', () => {
  it('by SMTP, unsigned or signed by a domain other than the reporter: stored apart (authenticated: false), in no sources, no alert', async () => {
    const domain = domains[0] ?? '';
    await sendReport(domain, 'auth-unsigned', null, 'x@evil.example');
    await sendReport(domain, 'auth-evil', { domain: 'evil.example', key: evilKey }, 'x@evil.example');
    expect(await reportList(domain)).toEqual(
      expect.arrayContaining([
        { reportId: 'auth-unsigned', authenticated: false },
        { reportId: 'auth-evil', authenticated: false },
      ]),
    );
    expect(await sources(domain)).toEqual([]);
    expect(await alerts(domain)).toEqual([]);
  });

  it("by SMTP, DKIM-signed by the reporter's domain: authenticated, counted in sources and alerting", async () => {
    const domain = domains[0] ?? '';
    await sendReport(domain, 'auth-google', { domain: 'google.com', key: googleKey });
    expect(await reportList(domain)).toContainEqual({ reportId: 'auth-google', authenticated: true });
    expect(await sources(domain)).toContain('198.51.100.99');
    expect(await alerts(domain)).toHaveLength(1);
  });

  it('an upload with the account key is authenticated; alerts come once per domain and day of receipt, whatever day the reports claim', async () => {
    const domain = domains[1] ?? '';
    for (let back = 1; back <= 7; back++) {
      const begin = new Date(yesterday.getTime() - (back - 1) * 86_400_000);
      const xml = dmarcFixture('google.xml', { domain, begin, reportId: `auth-day-${back}` })
        .replace('<dkim>pass</dkim>', '<dkim>fail</dkim>')
        .replace('<spf>pass</spf>', '<spf>fail</spf>');
      const response = await service.api('/v1/reports', { method: 'POST', headers: { 'content-type': 'application/xml' }, body: xml });
      expect(response.status).toBe(200);
      expect((await response.json()).files[0]).toMatchObject({ status: 'stored', authenticated: true });
    }
    expect(await alerts(domain)).toHaveLength(1);
  });

  it('a report dated far in the past or the future is stored and counted where its days fall, without alerting', async () => {
    const domain = domains[2] ?? '';
    for (const [id, begin] of [
      ['auth-old', new Date(Date.now() - 90 * 86_400_000)],
      ['auth-future', new Date(Date.now() + 30 * 86_400_000)],
    ] as const) {
      const xml = dmarcFixture('google.xml', { domain, begin, reportId: id })
        .replace('<dkim>pass</dkim>', '<dkim>fail</dkim>')
        .replace('<spf>pass</spf>', '<spf>fail</spf>');
      const response = await service.api('/v1/reports', { method: 'POST', headers: { 'content-type': 'application/xml' }, body: xml });
      expect((await response.json()).files[0]).toMatchObject({ status: 'stored', authenticated: true });
    }
    expect(await alerts(domain)).toEqual([]);
  });
});
