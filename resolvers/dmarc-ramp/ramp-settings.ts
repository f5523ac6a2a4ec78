import type { Context } from '../context.js';
import { requireAccountId } from '../auth/require-account.js';
import { findDmarcRampAuto, setDmarcRampAuto } from '../../db/dmarc-ramp-steps.js';

export interface DmarcRampSettings {
  /** The ramp advances (and undoes an advance that hurts mail) on its own, once a day, for every proved domain with a DNS connection. */
  readonly autoAdvance: boolean;
}

export async function getDmarcRampSettings(ctx: Context): Promise<DmarcRampSettings> {
  return { autoAdvance: await findDmarcRampAuto(ctx.services.db, await requireAccountId(ctx)) };
}

/** Turns the account's automatic ramp on or off; it runs at the next daily sweep. */
export async function setDmarcRampSettings(autoAdvance: boolean, ctx: Context): Promise<DmarcRampSettings> {
  await setDmarcRampAuto(ctx.services.db, await requireAccountId(ctx), autoAdvance);
  return { autoAdvance };
}
