import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';

/** The trust anchors a mark certificate (VMC or CMC) must chain to. */
export interface MarkRoots {
  readonly certificates: readonly X509Certificate[];
}

/** The Mark Verifying Authority roots shipped with the service, beside this file. */
export const BUNDLED_MARK_ROOTS_FILE = new URL('./mark-verifying-authority-roots.pem', import.meta.url);

const PEM_BLOCK = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

/**
 * Every certificate of a PEM text, each required to be a CA certificate; `what` names the file in
 * the sentence thrown when one is not. Text around the blocks (comment lines) is ignored.
 */
export function parseRootBundle(pem: string, what: string): X509Certificate[] {
  const blocks = pem.match(PEM_BLOCK) ?? [];
  if (blocks.length === 0) throw new Error(`${what} holds no PEM certificate (-----BEGIN CERTIFICATE-----).`);
  return blocks.map((block, i) => {
    let certificate: X509Certificate;
    try {
      certificate = new X509Certificate(block);
    } catch {
      throw new Error(`Certificate ${i + 1} in ${what} cannot be parsed; keep only PEM certificates in it.`);
    }
    if (!certificate.ca)
      throw new Error(`Certificate ${i + 1} in ${what} (${certificate.subject.split('\n').join(', ')}) is not a CA certificate, so it cannot be a root.`);
    return certificate;
  });
}

let bundled: MarkRoots | undefined;

/** The shipped roots, read once per process. */
export function bundledMarkRoots(): MarkRoots {
  bundled ??= { certificates: parseRootBundle(readFileSync(BUNDLED_MARK_ROOTS_FILE, 'latin1'), 'the bundled mark roots file') };
  return bundled;
}

/**
 * The shipped roots plus an operator's own (BIMI_EXTRA_ROOTS_FILE, a PEM file): a private test
 * authority, or a new Mark Verifying Authority before the bundle carries it. Read at start; a path
 * that cannot be read or a file that is not CA certificates stops the start with a sentence.
 */
export function loadMarkRoots(path: string | null): MarkRoots {
  if (path === null) return bundledMarkRoots();
  let text: string;
  try {
    text = readFileSync(path, 'latin1');
  } catch (error) {
    const code = error instanceof Error && 'code' in error && typeof error.code === 'string' ? error.code : undefined;
    throw new Error(`BIMI_EXTRA_ROOTS_FILE "${path}" cannot be read (${code ?? 'error'}); point it at a PEM file of root certificates or unset it.`);
  }
  const extra = parseRootBundle(text, `BIMI_EXTRA_ROOTS_FILE "${path}"`);
  return { certificates: [...bundledMarkRoots().certificates, ...extra] };
}
