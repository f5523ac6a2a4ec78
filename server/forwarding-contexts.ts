import { createSecureContext, type SecureContext } from 'node:tls';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { findForwardingCertificate, forwardingCertificateVersion } from '../db/forwarding-certificates.js';
import { decryptSecret } from '../resolvers/secrets/encrypt-secret.js';
import { certificateKeySealPurpose } from '../resolvers/forwarding/certificate-seals.js';

export interface ForwardingContexts {
  /** The TLS context for a handshake naming `servername`: the domain's own certificate, else the operator's, else null. */
  contextFor(servername: string): Promise<SecureContext | null>;
}

/**
 * The forwarding listener's certificates by name. Each handshake asks the database when the name's
 * certificate was issued (one indexed read), so a renewal by any instance's job is served from the
 * next handshake; the key is opened and the context built only when that changed. A certificate past
 * its end, or of a name no order forwards any more (forward_to cleared, domain removed, order
 * cancelled), is not served: the handshake gets the operator's certificate, or fails.
 */
export function forwardingContexts(
  db: Kysely<Database>,
  secretsKey: Buffer,
  operator: { readonly cert: Buffer; readonly key: Buffer } | null,
): ForwardingContexts {
  const operatorContext = operator ? createSecureContext({ cert: operator.cert, key: operator.key, minVersion: 'TLSv1.2' }) : null;
  const built = new Map<string, { readonly version: string; readonly context: SecureContext }>();
  return {
    async contextFor(servername) {
      const name = servername.toLowerCase().replace(/\.$/, '');
      const now = new Date();
      const version = await forwardingCertificateVersion(db, name, now);
      if (version === undefined) {
        built.delete(name);
        return operatorContext;
      }
      const cached = built.get(name);
      if (cached?.version === version) return cached.context;
      const stored = await findForwardingCertificate(db, name, now);
      if (!stored) return operatorContext;
      const key = decryptSecret(secretsKey, stored.private_key_sealed, certificateKeySealPurpose(name));
      const context = createSecureContext({ cert: stored.certificate_pem, key, minVersion: 'TLSv1.2' });
      built.set(name, { version, context });
      return context;
    },
  };
}
