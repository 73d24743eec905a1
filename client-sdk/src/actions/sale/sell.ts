/**
 * Selling on the till: the sale's stages (`pipeline.ts`) in one local transaction, so the sale,
 * its queued `sale.create` and the local stock it takes are written together or not at all. It
 * works the same with the network down; the server gives the sale its store number when the queue
 * is pushed. Every till entry that sells comes here (a mobile-money push paid in cash instead too).
 */
import { newId } from '@duka/shared';
import type { Receipt, SellInput } from '../../types.js';
import type { ActionCtx } from '../context.js';
import { saleStages as stage } from './pipeline.js';
import { policyFor } from './policy.js';
import { checkInput } from './resolve-lines.js';

/** `id`: the sale's id, new unless the sale takes over one already given (a mobile-money push paid in cash instead). */
export async function sell(ctx: ActionCtx, input: SellInput, id: string = newId()): Promise<Receipt> {
  checkInput(input);
  const { receipt, pending } = await ctx.db.transaction().execute(async (trx) => {
    const sale = await stage.resolveLines(trx, input, ctx.now());
    const policy = policyFor(sale.shop.store);
    await stage.checkRules(trx, sale, policy);
    const priced = stage.priceLines(sale);
    const tender = stage.settleTender(sale, priced);
    const taken = await stage.takeStock(trx, sale, priced, policy);
    const shiftId = stage.assignShift(sale);
    const number = stage.numberSale(sale);
    return stage.writeSale(trx, ctx, { id, sale, priced, tender, taken, shiftId, number });
  });
  ctx.queued(pending);
  return receipt;
}
