import { gunzipSync } from 'node:zlib';
import { decodeOid, derChildren, readDer, TAG, type DerNode } from './der.js';

export interface LogotypeImage {
  readonly media_type: string;
  readonly uris: readonly string[];
  readonly hashes: readonly { readonly algorithm: string; readonly value: Buffer }[];
}

const HASHES: Readonly<Record<string, string>> = {
  '1.3.14.3.2.26': 'sha1',
  '2.16.840.1.101.3.4.2.1': 'sha256',
  '2.16.840.1.101.3.4.2.2': 'sha384',
  '2.16.840.1.101.3.4.2.3': 'sha512',
};

/**
 * The images described by a logotype extension (RFC 3709 section 4.1). Mark certificates put the
 * brand logo under subjectLogo ([2]) as LogotypeDetails { mediaType, logotypeHash, logotypeURI }; we
 * look for that shape anywhere under subjectLogo (or the whole extension when it has none), which
 * tolerates the direct/indirect and tagging variants seen in issued certificates.
 */
export function readLogotypeImages(extensionDer: Buffer): LogotypeImage[] {
  const root = readDer(extensionDer).node;
  const subjectLogo = derChildren(root).find((n) => n.tag === 0xa2) ?? root;
  const images: LogotypeImage[] = [];
  const visit = (node: DerNode) => {
    if (!node.constructed) return;
    const children = derChildren(node);
    const [mediaType, hashList, uriList] = children;
    if (
      node.tag === TAG.SEQUENCE &&
      children.length === 3 &&
      mediaType?.tag === TAG.IA5_STRING &&
      hashList?.tag === TAG.SEQUENCE &&
      uriList?.tag === TAG.SEQUENCE
    ) {
      images.push({
        media_type: mediaType.value.toString('latin1'),
        uris: derChildren(uriList)
          .filter((u) => u.tag === TAG.IA5_STRING)
          .map((u) => u.value.toString('latin1')),
        hashes: derChildren(hashList).flatMap((pair) => {
          const [algorithm, value] = derChildren(pair);
          const oid = algorithm ? derChildren(algorithm)[0] : undefined;
          if (oid?.tag !== TAG.OID || value?.tag !== TAG.OCTET_STRING) return [];
          const id = decodeOid(oid.value);
          return [{ algorithm: HASHES[id] ?? id, value: value.value }];
        }),
      });
      return;
    }
    children.forEach(visit);
  };
  visit(subjectLogo);
  return images;
}

/**
 * The bytes of a data: URI (RFC 2397) and, when they are gzip (the usual form in mark certificates),
 * the unpacked content. Null for anything that is not a data: URI.
 */
export function decodeDataUri(uri: string): { raw: Buffer; content: Buffer } | null {
  const match = /^data:([^,]*?)(;base64)?,(.*)$/is.exec(uri.trim());
  if (!match) return null;
  const raw = match[2] ? Buffer.from(match[3]!.replace(/\s+/g, ''), 'base64') : Buffer.from(decodeURIComponent(match[3]!), 'utf8');
  if (raw[0] === 0x1f && raw[1] === 0x8b) {
    try {
      return { raw, content: gunzipSync(raw, { maxOutputLength: 1024 * 1024 }) };
    } catch {
      return null;
    }
  }
  return { raw, content: raw };
}
