import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createGoogleAdapter, type GoogleAdapter } from '../../clients/mailboxes/google-workspace-adapter.js';
import { readSettings } from '../../config/settings.js';
import { startFakeGoogleDirectory, type FakeGoogleDirectory } from '../support/fake-google-directory.js';

/**
 * The Google Workspace adapter through Google's own client (@googleapis/admin) against a local fake
 * of the token exchange and the Directory API: users created with their passwords, their status
 * read, suspended, given new passwords; a refusal from Google becomes a sentence for needs_attention.
 */
const DOMAIN = 'northwind-mail.test';
const SUBJECT = 'admin@workspace-owner.test';
let fake: FakeGoogleDirectory;
let dir: string;
let adapter: GoogleAdapter;
const mailboxes = [
  { email: `ada@${DOMAIN}`, firstName: 'Ada', lastName: 'Lovelace', password: 'Xy7pQ2mN8rT4vW6zK3bH' },
  { email: `alan@${DOMAIN}`, firstName: 'Alan', lastName: 'Turing', password: 'Hb5nM9qR2tY6uP3wZ8cD' },
];

beforeAll(async () => {
  fake = await startFakeGoogleDirectory();
  dir = mkdtempSync(join(tmpdir(), 'google-adapter-'));
  writeFileSync(join(dir, 'key.json'), fake.serviceAccountKey);
  writeFileSync(join(dir, `${DOMAIN}.txt`), '"v=DKIM1; k=rsa; p=MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAtest+key/value=="\n');
  adapter = createGoogleAdapter(
    { serviceAccountFile: join(dir, 'key.json'), adminSubject: SUBJECT, dkimDir: dir, apiBase: fake.apiBase, tokenUrl: fake.tokenUrl },
    0,
  );
});
afterAll(async () => {
  await fake?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('Google Workspace adapter', () => {
  it('creates the users with their names and passwords, acting as the admin through domain-wide delegation', async () => {
    expect(await adapter.provision({ domain: DOMAIN, forwardTo: null, mailboxes })).toEqual({ ok: true, mailboxesCreated: true });
    expect(fake.users.get(`ada@${DOMAIN}`)).toEqual({
      primaryEmail: `ada@${DOMAIN}`,
      name: { givenName: 'Ada', familyName: 'Lovelace' },
      password: mailboxes[0]!.password,
      suspended: false,
    });
    expect(fake.calls.filter((c) => c.method === 'POST').map((c) => [c.path, c.subject])).toEqual([
      ['/admin/directory/v1/users', SUBJECT],
      ['/admin/directory/v1/users', SUBJECT],
    ]);
    // A retried build: the users exist (409), so they are given the passwords we hold.
    fake.users.get(`ada@${DOMAIN}`)!.password = 'changed-elsewhere';
    expect(await adapter.provision({ domain: DOMAIN, forwardTo: null, mailboxes })).toEqual({ ok: true, mailboxesCreated: true });
    expect(fake.users.get(`ada@${DOMAIN}`)!.password).toBe(mailboxes[0]!.password);
  });

  it('reads each user’s status, suspends one, sets a new password and reactivates it', async () => {
    expect(await adapter.mailboxStatuses(DOMAIN, [`ada@${DOMAIN}`, `alan@${DOMAIN}`])).toEqual(
      new Map([
        [`ada@${DOMAIN}`, 'active'],
        [`alan@${DOMAIN}`, 'active'],
      ]),
    );
    expect(await adapter.suspend(`alan@${DOMAIN}`)).toEqual({ ok: true });
    expect(fake.users.get(`alan@${DOMAIN}`)!.suspended).toBe(true);
    fake.users.delete(`ada@${DOMAIN}`);
    expect(await adapter.mailboxStatuses(DOMAIN, [`ada@${DOMAIN}`, `alan@${DOMAIN}`])).toEqual(
      new Map([
        [`ada@${DOMAIN}`, 'pending'],
        [`alan@${DOMAIN}`, 'suspended'],
      ]),
    );
    expect(await adapter.setPassword(`alan@${DOMAIN}`, 'Nw4pR8sT2vX6yZ3bC7dF')).toEqual({ ok: true });
    expect(fake.users.get(`alan@${DOMAIN}`)!.password).toBe('Nw4pR8sT2vX6yZ3bC7dF');
    // Reinstated: the user is taken up again (users.update suspended: false), its password untouched.
    expect(await adapter.reactivate(`alan@${DOMAIN}`)).toEqual({ ok: true });
    expect(fake.users.get(`alan@${DOMAIN}`)).toMatchObject({ suspended: false, password: 'Nw4pR8sT2vX6yZ3bC7dF' });
    expect(fake.calls.at(-1)).toMatchObject({ method: 'PUT', suspended: false });
    expect((await adapter.mailboxStatuses(DOMAIN, [`alan@${DOMAIN}`])).get(`alan@${DOMAIN}`)).toBe('active');
    expect(await adapter.reactivate(`nobody@${DOMAIN}`)).toEqual({
      ok: false,
      reason: expect.stringMatching(/^Google refused to reactivate nobody@northwind-mail\.test: .*\(HTTP 404\)\.$/),
    });
    const missing = await adapter.setPassword(`nobody@${DOMAIN}`, 'Nw4pR8sT2vX6yZ3bC7dF');
    expect(missing).toEqual({
      ok: false,
      reason: expect.stringMatching(/^Google refused to set the password of nobody@northwind-mail\.test: .*\(HTTP 404\)\.$/),
    });
  });

  it('an error from Google is a clear reason for needs_attention, without the password; a missing DKIM value says where to put it', async () => {
    const other = 'contoso-reach.test';
    writeFileSync(join(dir, `${other}.txt`), 'v=DKIM1; k=rsa; p=MIIBtest');
    fake.refuseDomains.add(other);
    const refused = await adapter.provision({ domain: other, forwardTo: null, mailboxes: [{ ...mailboxes[0]!, email: `ada@${other}` }] });
    expect(refused).toEqual({
      ok: false,
      reason: expect.stringMatching(
        /^Google Workspace refused to create ada@contoso-reach\.test: .*Domain not found.*\(HTTP 412\)\. Check that contoso-reach\.test is a domain of the Workspace account/,
      ),
    });
    expect(JSON.stringify(refused)).not.toContain(mailboxes[0]!.password);
    const noDkim = await adapter.provision({ domain: 'tailspin-inbox.test', forwardTo: null, mailboxes: [] });
    expect(noDkim).toEqual({ ok: false, reason: expect.stringContaining(`place its TXT value in ${join(dir, 'tailspin-inbox.test.txt')}`) });
    expect(await adapter.makeDkimKey(DOMAIN)).toEqual({
      selector: 'google',
      publicKey: 'MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAtest+key/value==',
      privateKeyPem: '',
    });
  });

  it('PROVISIONING=google without its key file or admin is refused at start with the variables to set', () => {
    expect(() => readSettings({ PROVISIONING: 'google', DNS_SERVERS: '127.0.0.1' })).toThrow(/GOOGLE_SERVICE_ACCOUNT_FILE .* GOOGLE_ADMIN_SUBJECT/);
    expect(
      readSettings({ PROVISIONING: 'google', DNS_SERVERS: '127.0.0.1', GOOGLE_SERVICE_ACCOUNT_FILE: '/k.json', GOOGLE_ADMIN_SUBJECT: SUBJECT }).jobs.google,
    ).toEqual({
      serviceAccountFile: '/k.json',
      adminSubject: SUBJECT,
      dkimDir: null,
      apiBase: null,
      tokenUrl: null,
    });
  });
});
