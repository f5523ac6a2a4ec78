import { decodeOid, decodeString, derChildren, readDer, TAG, type DerNode } from './der.js';

export interface CertificateFields {
  /** Subject attributes in order, as dotted OIDs and their text. */
  readonly subject: readonly { readonly oid: string; readonly value: string }[];
  /** Extension values (the DER inside extnValue), by dotted OID. */
  readonly extensions: ReadonlyMap<string, Buffer>;
  /** Extended key usage OIDs (2.5.29.37). */
  readonly extendedKeyUsage: readonly string[];
  /** Certificate policy OIDs (2.5.29.32). */
  readonly policies: readonly string[];
}

/**
 * Reads from a DER certificate (RFC 5280 section 4.1) the subject attributes, the extensions, the
 * extended key usages and the certificate policies. node:crypto validates the certificate itself;
 * this only reaches fields it does not expose.
 */
export function readCertificateFields(der: Buffer): CertificateFields {
  const certificate = readDer(der).node;
  const tbs = derChildren(certificate)[0];
  if (!tbs || tbs.tag !== TAG.SEQUENCE) throw new Error('not an X.509 certificate');
  const parts = derChildren(tbs);
  // tbsCertificate: [0] version (optional), serial, signature, issuer, validity, subject, spki, ...
  const base = parts[0]?.tag === 0xa0 ? 1 : 0;
  const subjectNode = parts[base + 4];
  const subject = subjectNode ? readName(subjectNode) : [];
  const extensions = new Map<string, Buffer>();
  const wrapper = parts.find((p) => p.tag === 0xa3);
  if (wrapper) {
    const list = derChildren(wrapper)[0];
    for (const extension of list ? derChildren(list) : []) {
      const fields = derChildren(extension);
      const id = fields[0];
      const value = fields.at(-1);
      if (id?.tag === TAG.OID && value?.tag === TAG.OCTET_STRING) extensions.set(decodeOid(id.value), value.value);
    }
  }
  const eku = extensions.get('2.5.29.37');
  const policies = extensions.get('2.5.29.32');
  return {
    subject,
    extensions,
    extendedKeyUsage: eku
      ? derChildren(readDer(eku).node)
          .filter((n) => n.tag === TAG.OID)
          .map((n) => decodeOid(n.value))
      : [],
    policies: policies
      ? derChildren(readDer(policies).node)
          .map((info) => derChildren(info)[0])
          .filter((n): n is DerNode => n?.tag === TAG.OID)
          .map((n) => decodeOid(n.value))
      : [],
  };
}

function readName(name: DerNode): { oid: string; value: string }[] {
  const attributes: { oid: string; value: string }[] = [];
  for (const rdn of derChildren(name)) {
    for (const attribute of derChildren(rdn)) {
      const [type, value] = derChildren(attribute);
      if (type?.tag === TAG.OID && value) attributes.push({ oid: decodeOid(type.value), value: decodeString(value) });
    }
  }
  return attributes;
}
