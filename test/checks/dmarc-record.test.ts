import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { parseDmarcRecord } from '../../resolvers/checks/dmarc/dmarc-record.js';
import { conformanceDir } from '../support/conformance-dir.js';

const conformance = conformanceDir;

interface MoxVectors {
  invalid: { record: string; note: string }[];
  valid: { record: string; note?: string; expect: Record<string, unknown> }[];
}
const mox = parseYaml(readFileSync(`${conformance}/dmarc-mox-parse-vectors/mox-dmarc-parse-vectors.yml`, 'utf8')) as MoxVectors;

describe('DMARC parser against the mox vectors (strict RFC 7489)', () => {
  it('reads 35 invalid and 6 valid vectors', () => {
    expect(mox.invalid).toHaveLength(35);
    expect(mox.valid).toHaveLength(6);
  });

  it.each(mox.invalid)('rejects $record ($note)', ({ record }) => {
    const result = parseDmarcRecord(record);
    expect(result).toMatchObject({ ok: false, errors: expect.arrayContaining([expect.anything()]) });
  });

  it.each(mox.valid)('parses $record', ({ record, expect: expected }) => {
    const result = parseDmarcRecord(record);
    expect(result.ok, result.ok ? '' : JSON.stringify(result.errors)).toBe(true);
    if (!result.ok) return;
    const { v, p, sp, adkim, aspf, rua, ruf, ri, fo, rf, pct } = result.record;
    expect({ v, p, sp, adkim, aspf, rua, ruf, ri, fo, rf, pct }).toEqual(expected);
  });
});

interface OpenDmarcVectors {
  parse: { n: number; record: string; expect: string }[];
}
const opendmarc = parseYaml(readFileSync(`${conformance}/dmarc-opendmarc-parse-vectors/opendmarc-vectors.yml`, 'utf8')) as OpenDmarcVectors;

// Where OpenDMARC (lenient) and mox (strict) disagree, we choose, and say why:
// - #5 "p=n": OpenDMARC prefix-matches keywords; RFC 7489's ABNF spells out "none", and mox rejects
//   "p=badvalue". We follow the RFC: "n" is not a policy (and without rua there is no p=none fallback).
// - #12 "rf=bob", #19 "rf=000...": OpenDMARC refuses unknown report formats; mox accepts any
//   well-formed keyword ("rf=afrf:other"). We follow mox: RFC 7489 section 6.3 says a receiver SHOULD
//   ignore an unknown format, and RFC 9989 removed rf= altogether, so the record stays valid and we
//   report the format as ignored.
const disagreements: Record<number, { ok: boolean; why: string }> = {
  5: { ok: false, why: '"n" is not a policy keyword (RFC 7489 ABNF); OpenDMARC prefix-matches' },
  12: { ok: true, why: 'unknown rf format is ignored (RFC 7489 6.3 SHOULD, removed in RFC 9989), as mox does' },
  19: { ok: true, why: 'a digit-only rf keyword is well-formed; ignored as unknown, as mox does' },
};

describe('DMARC parser against the OpenDMARC vectors', () => {
  it('reads 19 parse vectors', () => expect(opendmarc.parse).toHaveLength(19));

  it.each(opendmarc.parse)('#$n $record -> $expect', ({ n, record, expect: status }) => {
    const result = parseDmarcRecord(record);
    const disagreement = disagreements[n];
    const wantOk = disagreement ? disagreement.ok : status === 'DMARC_PARSE_OKAY';
    expect(result.ok, result.ok ? '' : JSON.stringify(result.errors)).toBe(wantOk);
    if (result.ok || disagreement) return;
    // EMPTY and BAD_VERSION: not a DMARC record at all; NO_REQUIRED_P: p is the one error; BAD_VALUE:
    // the error names the tag whose value is wrong.
    const notDmarc = status === 'DMARC_PARSE_ERROR_EMPTY' || status === 'DMARC_PARSE_ERROR_BAD_VERSION';
    const noP = status === 'DMARC_PARSE_ERROR_NO_REQUIRED_P';
    const badTag = notDmarc || noP ? undefined : /;\s*(\w+)=bob|(pct)=500|(rf)=/.exec(record)!.slice(1).find(Boolean);
    const tags = result.errors.map((e) => e.tag);
    const wanted = notDmarc ? { isDmarc: false } : noP ? { tags: ['p'] } : { badTagNamed: true };
    expect({ isDmarc: result.isDmarc, tags, badTagNamed: badTag !== undefined && tags.includes(badTag) }).toMatchObject(wanted);
  });

  it('reports an unregistered rf= format as a note, not an error', () => {
    const result = parseDmarcRecord('v=DMARC1; p=none; rf=bob;');
    expect(result.ok && result.notes.map((n) => n.tag)).toEqual(['rf']);
  });
});

describe('DMARC parser details', () => {
  it('names every bad tag, not just the first', () => {
    const result = parseDmarcRecord('v=DMARC1; p=reject; adkim=x; pct=200; rua=bogus');
    expect(result.ok ? 'parsed' : result.errors.map((e) => e.tag)).toEqual(['adkim', 'pct', 'rua']);
  });

  it('explains a lower-case version and a missing semicolon', () => {
    const lower = parseDmarcRecord('v=dmarc1; p=none');
    expect(!lower.ok && lower.isDmarc && lower.errors[0]!.message).toMatch(/upper case/);
    const glued = parseDmarcRecord('v=DMARC1 p=none');
    expect(!glued.ok && glued.errors[0]!.message).toMatch(/";" is missing/);
  });

  it('refuses p= that does not directly follow v=', () => {
    const result = parseDmarcRecord('v=DMARC1; rua=mailto:a@example.com; p=reject');
    expect(!result.ok && result.errors.map((e) => e.tag)).toEqual(['p']);
  });

  it('reads the DMARCbis tags np, t and psd', () => {
    const result = parseDmarcRecord('v=DMARC1; p=reject; np=quarantine; t=y; psd=n');
    expect(result.ok && result.record).toMatchObject({ np: 'quarantine', t: 'y', psd: 'n' });
    expect(parseDmarcRecord('v=DMARC1; p=reject; t=maybe').ok).toBe(false);
  });

  it('records which tag triggered the p=none fallback', () => {
    const result = parseDmarcRecord('v=DMARC1; rua=mailto:mjl@mox.example');
    expect(result.ok && result.fallback.map((f) => f.tag)).toEqual(['p']);
  });

  it('keeps the tags as written, names lower-cased', () => {
    const result = parseDmarcRecord('v=DMARC1; P=Reject; Foo=bar');
    expect(result.ok && result.record.tags).toEqual([
      { tag: 'v', value: 'DMARC1' },
      { tag: 'p', value: 'Reject' },
      { tag: 'foo', value: 'bar' },
    ]);
    expect(result.ok && result.record.p).toBe('reject');
  });
});
