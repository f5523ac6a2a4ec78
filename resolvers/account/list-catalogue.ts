import { listPlans } from '../../db/plans.js';
import type { Context } from '../context.js';
import { requireAccountId } from '../auth/require-account.js';

export interface CatalogueEntry {
  readonly sku: string;
  readonly product: string;
  readonly description: string;
  readonly unitAmount: number;
  readonly currency: string;
  readonly interval: string;
  readonly mailboxesPerUnit: number;
  readonly orderable: boolean;
  /** Why the plan cannot be ordered through the API; null when it can. */
  readonly whyNot: string | null;
}

/** Only the plans the caller is already on (SPEC 4.2), at the caller's own prices. */
export async function listCatalogue(ctx: Context): Promise<readonly CatalogueEntry[]> {
  const accountId = await requireAccountId(ctx);
  const rows = await listPlans(ctx.services.db, accountId);
  return rows.map((p) => ({
    sku: p.sku,
    product: p.product,
    description: p.description,
    unitAmount: p.unit_amount,
    currency: p.currency,
    interval: p.interval,
    mailboxesPerUnit: p.mailboxes_per_unit,
    orderable: p.orderable,
    whyNot: p.orderable ? null : p.why_not,
  }));
}
