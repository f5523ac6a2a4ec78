import type { CombinedError } from 'urql';

/**
 * The sentence to show for a failed call. The service words every refusal in `detail`-style
 * sentences (the GraphQL error's message); a network failure gets ours.
 */
export function errorSentence(error: CombinedError | undefined | null): string | null {
  if (!error) return null;
  const first = error.graphQLErrors[0];
  const code = first?.extensions?.code;
  // The API's sentences for these name API paths and headers, which mean nothing on a page.
  if (typeof code === 'string' && code in PEOPLE_WORDS) return PEOPLE_WORDS[code]!;
  if (first) return first.message;
  if (error.networkError) return 'The service could not be reached; check your connection and try again.';
  return error.message;
}

/** Refusals said for people where the API's sentence is written for programs. */
const PEOPLE_WORDS: Record<string, string> = {
  card_declined: 'The card on file was declined, so nothing was charged. Replace the card on the Billing page, then try again.',
  no_payment_method: 'No card is on file, so nothing was charged. Add a card on the Billing page, then try again.',
};

/** The service's error code (`extensions.code`), for pages that react to one. */
export function errorCode(error: CombinedError | undefined | null): string | null {
  const code = error?.graphQLErrors[0]?.extensions?.code;
  return typeof code === 'string' ? code : null;
}

/** True when the answer says nobody is signed in (no session, or an expired one). */
export function isSignedOut(error: CombinedError | undefined | null): boolean {
  if (!error) return false;
  const status: unknown = error.response instanceof Response ? error.response.status : undefined;
  return status === 401 || errorCode(error) === 'unauthenticated';
}

export interface AuthAnswer {
  readonly ok: boolean;
  readonly status: number;
  readonly body: Record<string, unknown>;
}

/** POSTs JSON to one of the /auth/ paths (server/auth-routes.ts); never throws. */
export async function postAuth(path: string, body: Record<string, unknown>): Promise<AuthAnswer> {
  try {
    const response = await fetch(path, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const parsed: unknown = await response.json().catch(() => ({}));
    return { ok: response.ok, status: response.status, body: isRecord(parsed) ? parsed : {} };
  } catch {
    return { ok: false, status: 0, body: { detail: 'The service could not be reached; check your connection and try again.' } };
  }
}

/** The `detail` sentence of an /auth/ answer. */
export function detailOf(answer: AuthAnswer): string {
  return typeof answer.body.detail === 'string' ? answer.body.detail : `The service answered ${answer.status}.`;
}

/** A fresh Idempotency-Key for one order attempt (the service accepts 8-64 of [A-Za-z0-9.:_-]). */
export function newIdempotencyKey(): string {
  return `portal-${crypto.randomUUID()}`;
}

/** A JSON object (not an array, not null), to read fields of an answer without `as`. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
