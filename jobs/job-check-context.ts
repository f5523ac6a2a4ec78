import type { Services } from '../resolvers/context.js';
import type { FullCheckContext } from '../resolvers/checks/full-check-context.js';
import { createRequestScope, type RequestScope } from '../resolvers/limits/request-scope.js';

/**
 * A job's checks run under the same machinery as a request's (budget, deadline, cancellation), with
 * a budget and deadline generous enough for one domain's full set of checks, since no caller waits.
 */
const JOB_LIMITS = { dnsBudget: 2000, deadlineMs: 120_000, maxAnswerBytes: 16 * 1024 * 1024 };

export function jobCheckContext(services: Services): { checks: FullCheckContext; scope: RequestScope } {
  const scope = createRequestScope(JOB_LIMITS);
  return { scope, checks: services.createCheckContext({ budget: scope.budget, signal: scope.signal }) };
}
