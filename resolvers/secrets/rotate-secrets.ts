import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { findSecretsCanary, setSecretsCanary } from '../../db/secrets-canary.js';
import { decryptSecret, encryptSecret } from './encrypt-secret.js';
import { listSealedSecrets, type SealedSecret } from './sealed-secrets.js';
import { CANARY_PURPOSE, sealCanary } from './secrets-canary.js';

export interface RotationResult {
  /** Secrets opened with the old key and sealed again with the new one. */
  readonly resealed: number;
  /** Secrets already under the new key (a rotation run again, or one stored since), left as they are. */
  readonly alreadyCurrent: number;
}

/** A secret that opens with neither key: the rotation stops and changes nothing. */
export class RotationRefusal extends Error {}

/**
 * Re-seals every sealed secret (sealed-secrets.ts) and the canary from `from` to `to`, in one
 * transaction: all of them move or none does. A secret already under `to` is left alone, so a
 * rotation may be run again; one that opens with neither key stops it with a sentence naming where.
 */
export async function rotateSecrets(db: Kysely<Database>, from: Buffer, to: Buffer): Promise<RotationResult> {
  return db.transaction().execute(async (trx) => {
    let resealed = 0;
    let alreadyCurrent = 0;
    const canary = await findSecretsCanary(trx);
    const canaryEntry: SealedSecret[] =
      canary === undefined ? [] : [{ where: 'secrets_canary', purpose: CANARY_PURPOSE, sealed: canary, write: (d, sealed) => setSecretsCanary(d, sealed) }];
    for (const secret of [...(await listSealedSecrets(trx)), ...canaryEntry]) {
      const plain = open(from, secret);
      if (plain === null) {
        if (open(to, secret) !== null) {
          alreadyCurrent += 1;
          continue;
        }
        throw new RotationRefusal(
          `The sealed secret in ${secret.where} opens with neither --from nor SECRETS_KEY; nothing was changed. Check --from is the key the service ran with before.`,
        );
      }
      await secret.write(trx, encryptSecret(to, plain, secret.purpose));
      resealed += 1;
    }
    if (canary === undefined) await setSecretsCanary(trx, sealCanary(to));
    return { resealed, alreadyCurrent };
  });
}

function open(key: Buffer, secret: SealedSecret): string | null {
  try {
    return decryptSecret(key, secret.sealed, secret.purpose);
  } catch {
    return null;
  }
}
