import { describe, expect, it } from 'vitest';
import { isBimiRecord, parseBimiRecord } from '../../resolvers/checks/bimi/parse-bimi-record.js';
import { bimiDmarcRequirement } from '../../resolvers/checks/bimi/bimi-dmarc-requirement.js';
import type { DnsAnswer } from '../../clients/dns/dns-types.js';

describe('the BIMI assertion record', () => {
  it('reads the logo and evidence URLs', () => {
    expect(parseBimiRecord('v=BIMI1; l=https://brand.test/logo.svg; a=https://brand.test/vmc.pem')).toEqual({
      logoUrl: 'https://brand.test/logo.svg',
      authorityUrl: 'https://brand.test/vmc.pem',
      declined: false,
      avp: null,
      lps: false,
      errors: [],
      warnings: [],
    });
  });

  it('allows spaces around "=" and a trailing separator, and ignores unknown tags', () => {
    const record = parseBimiRecord('v = BIMI1 ;l= https://brand.test/logo.svg ; x=1;');
    expect(record.errors).toEqual([]);
    expect(record.logoUrl).toBe('https://brand.test/logo.svg');
  });

  it('treats empty l= and a= as a declination', () => {
    expect(parseBimiRecord('v=BIMI1; l=; a=;')).toMatchObject({ declined: true, errors: [], logoUrl: null });
  });

  it('reads avp and lps', () => {
    expect(parseBimiRecord('v=BIMI1; l=https://b.test/l.svg; avp=personal; lps=true')).toMatchObject({ avp: 'personal', lps: true, errors: [] });
  });

  it.each([
    ['v=BIMI1; a=https://brand.test/vmc.pem', /no l= tag/],
    ['v=BIMI1; l=http://brand.test/logo.svg', /not an HTTPS URL/],
    ['v=BIMI1; l=https://brand.test/logo.png', /must be an SVG/],
    ['v=BIMI1; l=https://a.test/1.svg,https://b.test/2.svg', /more than one URI/],
    ['v=BIMI1; l=https://192.0.2.1/logo.svg', /fully qualified host/],
    ['v=BIMI1; l=https://brand.test/logo.svg; a=ftp://brand.test/vmc.pem', /a=: .*not an HTTPS URL/],
    ['v=BIMI1; l=; a=https://brand.test/vmc.pem', /l= is empty/],
    ['v=BIMI1; l=https://b.test/a.svg; l=https://b.test/b.svg', /more than once/],
    ['l=https://b.test/a.svg; v=BIMI1', /must start with v=BIMI1/],
    ['v=BIMI1; nonsense', /not a tag=value/],
  ])('refuses "%s"', (text, error) => {
    expect(parseBimiRecord(text).errors.join('; ')).toMatch(error);
  });

  it('warns about an unknown avp value without refusing the record', () => {
    const record = parseBimiRecord('v=BIMI1; l=https://b.test/a.svg; avp=both');
    expect(record.errors).toEqual([]);
    expect(record.warnings[0]).toMatch(/avp=both/);
  });

  it('recognises only records whose version is exactly BIMI1', () => {
    expect(isBimiRecord('v=BIMI1; l=')).toBe(true);
    expect(isBimiRecord('v=bimi1; l=')).toBe(false);
    expect(isBimiRecord('v=BIMI10; l=')).toBe(false);
    expect(isBimiRecord('v=spf1 -all')).toBe(false);
  });
});

const txt = (name: string, ...texts: string[]): DnsAnswer<'TXT'> => ({ ok: true, name, type: 'TXT', records: texts.map((t) => ({ data: [t], ttl: 300 })) });
const missing = (name: string): DnsAnswer<'TXT'> => ({ ok: false, name, type: 'TXT', failure: 'nxdomain', detail: 'no such name' });
const timeout = (name: string): DnsAnswer<'TXT'> => ({ ok: false, name, type: 'TXT', failure: 'timeout', detail: 'no answer' });

describe('the DMARC requirement for BIMI', () => {
  it('is met by p=reject at an apex domain', () => {
    const result = bimiDmarcRequirement(
      'brand.test',
      'brand.test',
      txt('_dmarc.brand.test', 'v=DMARC1; p=reject'),
      txt('_dmarc.brand.test', 'v=DMARC1; p=reject'),
    );
    expect(result).toMatchObject({ enforced: true, failed: [], detail: { policy: 'reject', subdomainPolicy: 'reject', pct: 100, changes: [] } });
  });

  it('is met by p=quarantine at 100%', () => {
    const answer = txt('_dmarc.brand.test', 'v=DMARC1; p=quarantine; pct=100');
    expect(bimiDmarcRequirement('brand.test', 'brand.test', answer, answer).enforced).toBe(true);
  });

  it.each([
    ['v=DMARC1; p=none', /p=none/],
    ['v=DMARC1; p=quarantine; pct=50', /50%/],
    ['v=DMARC1; p=reject; sp=none', /sp=none/],
    ['v=DMARC1; p=quarantine; t=y', /t=y/],
    ['v=DMARC1; p=bogus; rua=mailto:d@brand.test', /p=none/],
  ])('is not met by "%s" and says what to change', (record, change) => {
    const answer = txt('_dmarc.brand.test', record);
    const result = bimiDmarcRequirement('brand.test', 'brand.test', answer, answer);
    expect(result.enforced).toBe(false);
    expect(result.detail.changes.join(' ')).toMatch(change);
  });

  it('is not met without any DMARC record', () => {
    const result = bimiDmarcRequirement('brand.test', 'brand.test', missing('_dmarc.brand.test'), missing('_dmarc.brand.test'));
    expect(result.enforced).toBe(false);
    expect(result.detail.changes[0]).toMatch(/Publish a DMARC record at _dmarc.brand.test/);
  });

  it('applies the organisational subdomain policy to a subdomain without its own record', () => {
    const result = bimiDmarcRequirement(
      'mail.brand.test',
      'brand.test',
      missing('_dmarc.mail.brand.test'),
      txt('_dmarc.brand.test', 'v=DMARC1; p=reject; sp=quarantine'),
    );
    expect(result).toMatchObject({ enforced: true, detail: { domainRecord: null, policy: 'quarantine', subdomainPolicy: 'quarantine' } });
  });

  it('requires the organisational domain to be enforced even when the subdomain is', () => {
    const result = bimiDmarcRequirement(
      'mail.brand.test',
      'brand.test',
      txt('_dmarc.mail.brand.test', 'v=DMARC1; p=reject'),
      txt('_dmarc.brand.test', 'v=DMARC1; p=none'),
    );
    expect(result.enforced).toBe(false);
    expect(result.detail.policy).toBe('reject');
    expect(result.detail.changes).toEqual([expect.stringMatching(/^At _dmarc\.brand\.test: .*p=none/)]);
  });

  it('requires a record at the organisational domain', () => {
    const result = bimiDmarcRequirement('mail.brand.test', 'brand.test', txt('_dmarc.mail.brand.test', 'v=DMARC1; p=reject'), missing('_dmarc.brand.test'));
    expect(result.enforced).toBe(false);
    expect(result.detail.changes[0]).toMatch(/_dmarc\.brand\.test/);
  });

  it('refuses two DMARC records at one name', () => {
    const answer = txt('_dmarc.brand.test', 'v=DMARC1; p=reject', 'v=DMARC1; p=quarantine');
    expect(bimiDmarcRequirement('brand.test', 'brand.test', answer, answer).detail.changes[0]).toMatch(/2 DMARC records/);
  });

  it('answers null, not "not enforced", when a lookup fails', () => {
    const result = bimiDmarcRequirement('mail.brand.test', 'brand.test', missing('_dmarc.mail.brand.test'), timeout('_dmarc.brand.test'));
    expect(result).toMatchObject({ enforced: null, failed: ['_dmarc.brand.test'], detail: { changes: [] } });
  });
});
