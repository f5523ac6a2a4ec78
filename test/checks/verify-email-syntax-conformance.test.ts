import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { XMLParser } from 'fast-xml-parser';
import { checkEmailSyntax } from '../../resolvers/checks/verify-email/email-syntax.js';
import { conformanceFile } from '../support/conformance-dir.js';

/**
 * How the is_email categories map to "can a sender send to this" (syntax_valid):
 * - valid: ISEMAIL_VALID_CATEGORY, ISEMAIL_DNSWARN (syntax is fine; DNS is a separate question);
 * - invalid: ISEMAIL_ERR, ISEMAIL_CFWS (comments and folding white space are header syntax, never an
 *   envelope address), ISEMAIL_DEPREC (obsolete forms), ISEMAIL_RFC5322 (only valid under RFC 5322's
 *   broad grammar: domain literals, over-long parts), ISEMAIL_RFC5321 quoted strings, address
 *   literals and numeric TLDs (legal in SMTP, refused by mailbox providers and senders);
 * - ISEMAIL_RFC5321_TLD (user@tld): is_email raises it only when its DNS check found nothing for the
 *   TLD (the same corpus has test@io as VALID because io had an MX), so it is a DNS verdict: our
 *   syntax accepts it and the MX lookup decides. hapi's port, which has no DNS, calls both valid.
 */

function expectedFromCategory(category: string, diagnosis: string): boolean {
  if (diagnosis === 'ISEMAIL_RFC5321_TLD') return true;
  return category === 'ISEMAIL_VALID_CATEGORY' || category === 'ISEMAIL_DNSWARN';
}

// The XML writes control characters as Unicode "control pictures" (U+2400 + code); map them back.
function fromControlPictures(text: string): string {
  return text.replace(/[\u2400-\u241f]/g, (c) => String.fromCharCode(c.charCodeAt(0) - 0x2400));
}

describe('email syntax against the is_email corpora', () => {
  it("classifies all 164 of Dominic Sayers' tests.xml cases as their category says", () => {
    const xml = readFileSync(conformanceFile('email-isemail-dominicsayers', 'tests.xml'), 'utf8');
    const parsed = new XMLParser({ parseTagValue: false, trimValues: false, processEntities: true, htmlEntities: true }).parse(xml) as {
      tests: { test: { address?: string | number; category: string; diagnosis: string }[] };
    };
    const cases = parsed.tests.test.map((t) => ({ address: fromControlPictures(String(t.address ?? '')), category: t.category, diagnosis: t.diagnosis }));
    expect(cases).toHaveLength(164);
    const wrong = cases.filter((c) => checkEmailSyntax(c.address).valid !== expectedFromCategory(c.category, c.diagnosis));
    expect(wrong).toEqual([]);
  });

  it('classifies 209 of the 210 hapi isemail tests.json cases as their diagnosis says, and refuses the one unassigned code point on purpose', () => {
    const cases = JSON.parse(readFileSync(conformanceFile('email-isemail-hapi-json', 'tests.json'), 'utf8')) as [string, string][];
    expect(cases).toHaveLength(210);
    const wrong = cases.filter(([address, diagnosis]) => checkEmailSyntax(address).valid !== (diagnosis === 'valid'));
    // hapi punycodes any code point; its one "valid" domain that starts with U+103FF (unassigned in
    // Unicode) cannot be registered under IDNA 2008 (RFC 5892: unassigned code points are
    // UNASSIGNED, never PVALID), so no mail can reach it. We refuse it and say so here.
    expect(wrong.map(([address]) => address.codePointAt(5))).toEqual([0x103ff]);
    expect(checkEmailSyntax(wrong[0]?.[0] ?? '')).toMatchObject({ valid: false, reason: 'invalid_domain' });
  });
});
