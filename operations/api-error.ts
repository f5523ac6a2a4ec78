/**
 * A refusal as a door answers it: what the doors refuse themselves (a body that is not JSON, a
 * method a path does not take), and what a rule's DomainError becomes at the door that caught it
 * (operations/refusal-answer.ts). Resolvers never make one (scripts/lint-domain-errors.ts).
 *
 * `status` is the HTTP status the REST door answers, `code` a stable machine-readable name, and
 * `detail` a sentence that tells the caller what to change. `extras` are merged into the REST body
 * (for example `problems` grouped by domain, or `retry_after`).
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly detail: string,
    readonly extras: Readonly<Record<string, unknown>> = {},
  ) {
    super(detail);
    this.name = 'ApiError';
  }
}

/** A 400 for a refused, well-formed request. */
export function badRequest(code: string, detail: string, extras?: Record<string, unknown>): ApiError {
  return new ApiError(400, code, detail, extras);
}
