/**
 * Issue 52: the assistant's tools about stock and orders, each the service behind its REST route
 * (so the same rule and the same access): what to reorder (GET /inventory/reorder-suggestions), the
 * purchase orders suppliers still owe on (GET /suppliers/purchase-orders, sent and partly received)
 * and the last stock-takes with their variance (GET /inventory/stock-takes and the newest's review).
 * A caller without the route's permission gets `allowed: false` (the route would answer 403), worded
 * as a refusal. The answers are worded in @duka/shared (stock-answers.ts), as the companion agent's.
 */
import {
  type AiLanguage,
  ListPurchaseOrdersQuery,
  OWED_STATUSES,
  purchaseOrdersAnswer,
  ReorderSuggestionsQuery,
  reorderAnswer,
  STOCK_TAKES_NAMED,
  stockTakesAnswer,
} from '@duka/shared';
import { requireStore } from '../../../lib/auth/authorize.js';
import type { AuthedContext } from '../../../lib/context.js';
import { ForbiddenError } from '../../../lib/errors.js';
import { getStockTake, listStockTakes, reorderSuggestions } from '../../inventory/inventory.exports.js';
import { listPurchaseOrders } from '../../suppliers/suppliers.exports.js';
import { orgTimezone } from '../../tenancy/tenancy.exports.js';

/** The service's answer, or `{ allowed: false }` when its own permission check refused the caller. */
async function unlessForbidden<T extends object>(run: () => Promise<T>): Promise<({ allowed: true } & T) | { allowed: false }> {
  try {
    return { allowed: true, ...(await run()) };
  } catch (err) {
    if (err instanceof ForbiddenError) return { allowed: false };
    throw err;
  }
}

const reorder = (ctx: AuthedContext) => reorderSuggestions(ctx, ReorderSuggestionsQuery.parse({}));

const openOrders = (ctx: AuthedContext) =>
  unlessForbidden(async () => {
    const pages = await Promise.all(
      OWED_STATUSES.map((status) => listPurchaseOrders(ctx, ListPurchaseOrdersQuery.parse({ status, page_size: 100 }))),
    );
    return { orders: pages.flatMap((p) => p.items) };
  });

const lastStockTakes = (ctx: AuthedContext) =>
  unlessForbidden(async () => {
    const takes = (await listStockTakes(ctx, { limit: 50 })).filter((t) => t.status !== 'cancelled').slice(0, STOCK_TAKES_NAMED);
    const review = takes[0] ? await getStockTake(ctx, takes[0].id) : null;
    // Only the lines the count found over or short go to the gateway: a whole-shop count has a line per product.
    const latest = review && { ...review, lines: review.lines.filter((l) => l.variance !== null && l.variance !== 0) };
    return { time_zone: await orgTimezone(ctx.db, requireStore(ctx).orgId), stock_takes: takes, latest };
  });

const refusal = (en: string, sw: string) => (lang: AiLanguage) => (lang === 'sw' ? sw : en);
const refusedOrders = refusal(
  'Only the shop owner or staff allowed to manage suppliers can see the purchase orders.',
  'Mmiliki wa duka au mfanyakazi mwenye ruhusa ya wasambazaji pekee ndiye anayeweza kuona oda za wasambazaji.',
);
const refusedTakes = refusal(
  'Only the shop owner or staff allowed to adjust stock can see the stock-takes.',
  'Mmiliki wa duka au mfanyakazi mwenye ruhusa ya kurekebisha stoku pekee ndiye anayeweza kuona hesabu za stoku.',
);

type Orders = Awaited<ReturnType<typeof openOrders>>;
type Takes = Awaited<ReturnType<typeof lastStockTakes>>;

export const STOCK_TOOLS = {
  get_reorder_suggestions: {
    description:
      'What the active store should order, by supplier: products at or under their reorder point or running out within the lead time, from the last 28 days of sales, each with the suggested quantity, stock and what is on order',
    run: reorder,
    text: reorderAnswer,
  },
  get_open_purchase_orders: {
    description:
      'Purchase orders of the active store still waiting for delivery (sent or partly received), with what each supplier still owes',
    run: openOrders,
    text: (d: Orders, lang: AiLanguage) => (d.allowed ? purchaseOrdersAnswer(d.orders, lang) : refusedOrders(lang)),
  },
  get_stock_takes: {
    description:
      "The active store's last stock-takes (counts) with their variance at cost, and the products the newest found over or short",
    run: lastStockTakes,
    text: (d: Takes, lang: AiLanguage) => (d.allowed ? stockTakesAnswer(d.stock_takes, d.latest, lang, d.time_zone) : refusedTakes(lang)),
  },
};
