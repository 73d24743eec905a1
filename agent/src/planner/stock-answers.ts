/**
 * Issue 52: the agent's answers to what to order, the purchase orders still owed and the last
 * stock-takes, with the same tools a model would call (the REST routes), worded by @duka/shared's
 * stock-answers.ts exactly as the server's assistant words them.
 */
import { OWED_STATUSES, purchaseOrdersAnswer, reorderAnswer, STOCK_TAKES_NAMED, stockTakesAnswer } from '@duka/shared';
import { type AnswerContext, data } from './answer-context.js';

export async function reorder(ctx: AnswerContext) {
  return reorderAnswer(await data(ctx, 'listReorderSuggestions'), ctx.lang);
}

/** Sent and partly received orders: the two statuses a supplier still owes on, one call each. */
export async function purchaseOrders(ctx: AnswerContext) {
  const orders = [];
  for (const status of OWED_STATUSES) orders.push(...(await data(ctx, 'listPurchaseOrders', { status, page_size: 100 })));
  return purchaseOrdersAnswer(orders, ctx.lang);
}

/** The last counts, and the newest one's review for the products it found over or short. */
export async function stockTakes(ctx: AnswerContext) {
  const takes: any[] = (await data(ctx, 'listStockTakes', { limit: 50 })).filter((t: any) => t.status !== 'cancelled');
  const latest = takes[0] ? await data(ctx, 'getStockTake', { id: takes[0].id }) : null;
  return stockTakesAnswer(takes.slice(0, STOCK_TAKES_NAMED), latest, ctx.lang, ctx.timeZone);
}
