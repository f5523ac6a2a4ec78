import { findPlanBySku } from '../../db/plans.js';
import { DomainError, operation, sentence } from '../domain-error.js';
import type { Context } from '../context.js';
import type { Plan } from '../../db/schema.js';

/**
 * The caller's plan for a sku: a sku not in the caller's catalogue is a 404 (SPEC 4.2 rule 5), one in
 * it that the API cannot order is a 409 whose detail is the plan's why_not.
 */
export async function findOrderablePlan(ctx: Context, accountId: number, sku: string): Promise<Plan> {
  const plan = await findPlanBySku(ctx.services.db, accountId, sku);
  if (!plan)
    throw new DomainError(
      'sku_not_found',
      sentence`There is no sku "${sku.slice(0, 80)}" in your catalogue; ${operation('list_catalogue')} lists what you can order.`,
    );
  if (!plan.orderable) {
    throw new DomainError('sku_not_orderable', `"${plan.sku}" cannot be ordered through the API: ${plan.why_not ?? 'it is ordered in the portal.'}`, {
      why_not: plan.why_not,
    });
  }
  return plan;
}
