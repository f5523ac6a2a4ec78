import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { isOrganizationalDomain, organizationalDomain } from '../../resolvers/checks/organizational-domain.js';
import { conformanceFile } from '../support/conformance-dir.js';

// The Public Suffix List's own test file (public domain), see shared/conformance/psl-organizational-domain-tests.
const file = conformanceFile('psl-organizational-domain-tests', 'tests.txt');
const cases = readFileSync(file, 'utf8')
  .split('\n')
  .filter((line) => line.trim() !== '' && !line.startsWith('//'))
  .map((line) => {
    const [input, expected] = line.split(' ') as [string, string];
    return { input: input === 'null' ? null : input, expected: expected === 'null' ? null : expected };
  });

describe('organizationalDomain against the Public Suffix List conformance tests', () => {
  it('reads all 78 cases from the conformance file', () => {
    expect(cases).toHaveLength(78);
  });

  it.each(cases)('$input has organisational domain $expected', ({ input, expected }) => {
    expect(organizationalDomain(input)).toBe(expected);
  });
});

describe('organizationalDomain choices beyond the PSL tests', () => {
  it('treats a name under a private suffix as its own organisation', () => {
    expect(organizationalDomain('www.alice.github.io')).toBe('alice.github.io');
    expect(organizationalDomain('github.io')).toBeNull(); // a suffix itself belongs to no one
  });

  it('ignores a trailing dot', () => {
    expect(organizationalDomain('mail.example.com.')).toBe('example.com');
  });

  it('says whether a name is the apex of its organisation', () => {
    expect(isOrganizationalDomain('example.co.uk')).toBe(true);
    expect(isOrganizationalDomain('track.example.co.uk')).toBe(false);
    expect(isOrganizationalDomain('co.uk')).toBe(false);
  });
});
