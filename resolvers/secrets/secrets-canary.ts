import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { findSecretsCanary, insertSecretsCanaryIfAbsent } from '../../db/secrets-canary.js';
import { decryptSecret, encryptSecret } from './encrypt-secret.js';
import { listSealedSecrets } from './sealed-secrets.js';

/** What the canary is sealed for, and what it holds: nothing secret, only proof of the key. */
export const CANARY_PURPOSE = 'secrets-canary';
const CANARY_TEXT = 'SECRETS_KEY canary';

/** The start's refusal when SECRETS_KEY does not open what the database holds. */
export class SecretsKeyMismatchError extends Error {}

/**
 * Checks at start that SECRETS_KEY is the key this database's secrets were sealed with: it must
 * open the sealed canary. A database without a canary yet (new, or from before the check) is
 * checked against one secret it already holds, if any, and then given one under this key. Another
 * key stops the start with a sentence naming SECRETS_KEY and how to rotate, instead of 500s on every
 * sealed secret later (applies, credential reveals, the MCP sign-in's keys).
 */
export async function checkSecretsKey(db: Kysely<Database>, key: Buffer, keyIsDefault: boolean): Promise<void> {
  const refuse = (what: string) =>
    new SecretsKeyMismatchError(
      `SECRETS_KEY ${keyIsDefault ? 'is unset, so the public development key is in use, which ' : ''}is not the key this database's secrets were sealed with (${what} does not open). ` +
        'Start with the SECRETS_KEY used before; to change keys, stop the service, set SECRETS_KEY to the new key and run ' +
        '`npm run --silent admin -- rotate-secrets --from OLD_KEY` (docs/operations.md, "Rotating SECRETS_KEY").',
    );
  const opens = (sealed: string, purpose: string) => {
    try {
      decryptSecret(key, sealed, purpose);
      return true;
    } catch {
      return false;
    }
  };
  let canary = await findSecretsCanary(db);
  if (canary === undefined) {
    const [held] = await listSealedSecrets(db);
    if (held !== undefined && !opens(held.sealed, held.purpose)) throw refuse(`the sealed secret in ${held.where}`);
    await insertSecretsCanaryIfAbsent(db, sealCanary(key));
    // Another instance may have written its own first: read back what is stored.
    canary = await findSecretsCanary(db);
  }
  if (canary === undefined || !opens(canary, CANARY_PURPOSE)) throw refuse('the sealed canary in secrets_canary');
}

/** A canary sealed under `key` (a rotation writes one under the new key). */
export function sealCanary(key: Buffer): string {
  return encryptSecret(key, CANARY_TEXT, CANARY_PURPOSE);
}
