import type { Finding } from '../check-result.js';
import { parseDkimKeyRecord } from './dkim-key-record.js';
import type { DkimKeyType } from './dkim-public-key.js';

/** One key found under a selector, as the DKIM check answers it. */
export interface DkimKey {
  readonly selector: string;
  /** The TXT text as published (character-strings joined without separator, RFC 6376 section 3.6.2.2). */
  readonly record: string;
  /** True when a verifier following RFC 6376, RFC 8301 and RFC 8463 would use this key for email. */
  readonly valid: boolean;
  readonly keyType: DkimKeyType | null;
  readonly keyBits: number | null;
  readonly testing: boolean;
  /** h=; empty means every hash algorithm is allowed. */
  readonly hashAlgorithms: readonly string[];
  readonly serviceTypes: readonly string[];
  readonly findings: readonly Finding[];
}

/**
 * Judges one key record. What makes a key unusable (`valid: false`, an error finding):
 * a syntax error, a revoked key (empty p=, RFC 6376 section 3.6.1), an RSA key under 1024 bits
 * (RFC 8301 section 3.2: verifiers MUST NOT accept them), an h= list without sha256 (the only hash
 * left since RFC 8301 section 3.1 retired sha1), and an s= list without "email" or "*".
 * Warnings: a 1024-bit RSA key (RFC 8301 says signers SHOULD use 2048), and testing mode (t=y).
 */
export function assessDkimKey(selector: string, text: string): DkimKey {
  const parsed = parseDkimKeyRecord(text);
  const at = `${selector}._domainkey`;
  if (!parsed.ok) {
    return {
      selector,
      record: text,
      valid: false,
      keyType: null,
      keyBits: null,
      testing: false,
      hashAlgorithms: [],
      serviceTypes: [],
      findings: [{ severity: 'error', code: 'dkim_record_invalid', message: `The key record at ${at} cannot be used: ${parsed.message}` }],
    };
  }
  const { record } = parsed;
  const findings: Finding[] = [];
  if (record.p === '') {
    findings.push({
      severity: 'error',
      code: 'dkim_key_revoked',
      message: `The key at ${at} is revoked (empty p=): signatures made with this selector fail. Publish the current public key or stop signing with "${selector}".`,
    });
  } else if (record.k === 'rsa' && record.bits !== null && record.bits < 1024) {
    findings.push({
      severity: 'error',
      code: 'dkim_key_too_weak',
      message: `The RSA key at ${at} has ${record.bits} bits; receivers reject keys under 1024 bits (RFC 8301). Generate a 2048-bit key and publish it under a new selector.`,
    });
  } else if (record.k === 'rsa' && record.bits !== null && record.bits < 2048) {
    findings.push({
      severity: 'warning',
      code: 'dkim_key_1024',
      message: `The RSA key at ${at} has ${record.bits} bits; 2048 bits is the recommended size (RFC 8301). Rotate to a 2048-bit key when your provider allows it.`,
    });
  }
  const hashes = record.h.map((h) => h.toLowerCase());
  if (hashes.length > 0 && !hashes.includes('sha256')) {
    findings.push({
      severity: 'error',
      code: 'dkim_hash_restricted',
      message: `The key at ${at} allows only h=${record.h.join(':')}, without sha256, so no current signature can use it; remove the h= tag or add sha256.`,
    });
  }
  const services = record.s.map((s) => s.toLowerCase());
  if (!services.includes('*') && !services.includes('email')) {
    findings.push({
      severity: 'error',
      code: 'dkim_service_excludes_email',
      message: `The key at ${at} is limited to s=${record.s.join(':')}, which does not include email; remove the s= tag or set s=email.`,
    });
  }
  const flags = record.t.map((t) => t.toLowerCase());
  const testing = flags.includes('y');
  if (testing) {
    findings.push({
      severity: 'warning',
      code: 'dkim_testing_mode',
      message: `The key at ${at} is in testing mode (t=y): receivers may treat its signatures as unsigned. Remove t=y once signing works.`,
    });
  }
  if (flags.includes('s')) {
    findings.push({
      severity: 'info',
      code: 'dkim_strict_subdomains',
      message: `The key at ${at} has t=s: signatures whose i= is a subdomain of d= are not accepted with it.`,
    });
  }
  return {
    selector,
    record: text,
    valid: !findings.some((f) => f.severity === 'error'),
    keyType: record.k,
    keyBits: record.bits,
    testing,
    hashAlgorithms: record.h,
    serviceTypes: record.s,
    findings,
  };
}
