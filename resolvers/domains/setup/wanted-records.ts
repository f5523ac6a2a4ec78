import { GOOGLE_DKIM_SELECTOR, GOOGLE_MX, GOOGLE_SPF_INCLUDE } from './google-workspace.js';
import { SETUP_TTL, type WantedRecord } from './setup-record.js';
import { verificationName, verificationValue } from '../../orders/verification-record.js';

/** What the wanted set of one domain is computed from. */
export interface SetupFacts {
  /** Lower case, no trailing dot. */
  readonly domain: string;
  /** The order's forward_to for this domain; null: no forwarding record. */
  readonly forwardTo: string | null;
  /** The DKIM public key (base64 DER) the provisioning adapter made; null until the build makes it. */
  readonly dkimPublicKey: string | null;
  readonly dkimSelector: string;
  /** The account's proof-of-control token. */
  readonly verificationToken: string;
}

export interface SetupSettings {
  /** DMARC aggregate reports go to dmarc@<reportsDomain>; TLS reports to tls-reports@<reportsDomain>. */
  readonly reportsDomain: string;
  /** The forwarding listener's IPv4 address. */
  readonly forwardTarget: string;
  readonly tlsRpt: boolean;
}

export const dmarcReportAddress = (reportsDomain: string): string => `dmarc@${reportsDomain}`;

/** The DKIM TXT text for a public key: RSA, the key in p= (RFC 6376 3.6.1). */
export const dkimRecordValue = (publicKey: string): string => `v=DKIM1; k=rsa; p=${publicKey}`;

/** A new SPF record for a domain that has none; merged into an existing one by spf-record-status.ts. */
export const freshSpfValue = `v=spf1 include:${GOOGLE_SPF_INCLUDE} ~all`;

/**
 * The records a domain of the orderable plan (Google Workspace) needs, in the order a person
 * publishes them. DMARC starts at p=none so nothing is lost while reports come in; the ramp to
 * quarantine and reject is the customer's step (docs/domain-setup.md). The forwarding record is an
 * A record at the apex (an apex cannot hold a CNAME beside its MX and TXT records) pointing at our
 * forwarding listener, which answers 301 to forward_to.
 */
export function wantedRecords(facts: SetupFacts, settings: SetupSettings): WantedRecord[] {
  const d = facts.domain;
  const records: WantedRecord[] = [
    { purpose: 'mx', type: 'MX', name: d, value: GOOGLE_MX.host, ttl: SETUP_TTL, priority: GOOGLE_MX.priority, required: true },
    { purpose: 'spf', type: 'TXT', name: d, value: freshSpfValue, ttl: SETUP_TTL, required: true },
  ];
  if (facts.dkimPublicKey !== null) {
    records.push({
      purpose: 'dkim',
      type: 'TXT',
      name: `${facts.dkimSelector || GOOGLE_DKIM_SELECTOR}._domainkey.${d}`,
      value: dkimRecordValue(facts.dkimPublicKey),
      ttl: SETUP_TTL,
      required: true,
    });
  }
  records.push({
    purpose: 'dmarc',
    type: 'TXT',
    name: `_dmarc.${d}`,
    value: `v=DMARC1; p=none; rua=mailto:${dmarcReportAddress(settings.reportsDomain)}`,
    ttl: SETUP_TTL,
    required: true,
  });
  if (facts.forwardTo !== null) {
    records.push({ purpose: 'forwarding', type: 'A', name: d, value: settings.forwardTarget, ttl: SETUP_TTL, required: true });
  }
  records.push({
    purpose: 'verification',
    type: 'TXT',
    name: verificationName(d),
    value: verificationValue(facts.verificationToken),
    ttl: SETUP_TTL,
    required: false,
  });
  if (settings.tlsRpt) {
    records.push({
      purpose: 'tls_rpt',
      type: 'TXT',
      name: `_smtp._tls.${d}`,
      value: `v=TLSRPTv1; rua=mailto:tls-reports@${settings.reportsDomain}`,
      ttl: SETUP_TTL,
      required: false,
    });
  }
  return records;
}
