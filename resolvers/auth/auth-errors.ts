import { DomainError } from '../domain-error.js';
import type { Scope } from './scopes.js';

/** The one 401 of every door: the same words for an unknown, revoked or expired key (never which). */
export function unauthenticatedError(sentKey: boolean): DomainError {
  return new DomainError(
    'unauthenticated',
    sentKey
      ? 'The API key is not recognised, was revoked or has expired; send a valid key as "Authorization: Bearer <key>" (the portal\'s settings list your keys and make new ones).'
      : 'This call needs an API key: send "Authorization: Bearer <key>" with a key from the portal\'s settings.',
  );
}

/** The one 403 of every door, naming the scope the call needs (and, for an assistant's access token, how to get it). */
export function missingScopeError(scope: Scope | string, holder: 'key' | 'token' = 'key'): DomainError {
  return new DomainError(
    'missing_scope',
    holder === 'token'
      ? `This access token lacks the "${scope}" scope this call needs; connect the assistant again and tick "${scope}" on the consent page (within your role).`
      : `This API key lacks the "${scope}" scope this call needs; create a key with "${scope}" in the portal's settings and use it instead.`,
    { required_scope: scope },
  );
}

/** The 403 when an API key asks for what only a signed-in person may do (SPEC 5.4). */
export function sessionRequiredError(): DomainError {
  return new DomainError(
    'session_required',
    'API keys cannot manage keys or users; sign in to the portal and do this there (or through /graphql with the session cookie).',
  );
}
