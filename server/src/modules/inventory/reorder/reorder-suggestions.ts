/**
 * GET /inventory/reorder-suggestions (issue 52): what a store should order, by supplier, each
 * suggestion with its figures. The rule is reorder-rule.ts; docs/inventory.md "Reorder suggestions".
 */
import { fromCount, type ReorderGroup, type ReorderSuggestion, type ReorderSuggestions, type ReorderSuggestionsQuery } from '@duka/shared';
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/database.js';
import type { AuthedContext } from '../../../lib/context.js';
import type { ReorderAdvice } from '../../notifications/notifications.exports.js';
import { requireOrg, requireStore } from '../../../lib/auth/authorize.js';
import { ForbiddenError, NotFoundError } from '../../../lib/errors.js';
import { findStore } from '../../tenancy/tenancy.exports.js';
import type { ProductPackRow } from '../../../db/tables/inventory.table.js';
import { type ProductWithStock, productsWithStock } from '../inventory.queries.js';
import { packsOf } from '../packs.queries.js';
import { averageDaily, DEFAULT_COVER_DAYS, DEFAULT_LEAD_TIME_DAYS, daysLeft, reorderRule, WINDOW_DAYS } from './reorder-rule.js';
import { type LastSupplier, lastSuppliers, owedOnOrders, soldInWindow } from './reorder.queries.js';

const DAY = 86_400_000;

/** The store asked for: the active one by default; an owner may ask for any of theirs, anyone else only their own. */
export async function reorderStore(ctx: AuthedContext, storeId: string | undefined): Promise<{ orgId: string; storeId: string }> {
  if (storeId === undefined) return requireStore(ctx);
  const orgId = requireOrg(ctx);
  if (!(await findStore(ctx.db, orgId, storeId))) throw new NotFoundError('store');
  if (ctx.actor.role !== 'owner' && ctx.actor.storeId !== storeId) {
    throw new ForbiddenError('you can only work in the store you are assigned to');
  }
  return { orgId, storeId };
}

type Inputs = {
  sold: Map<string, number>;
  ordered: { owed: Map<string, number>; drafted: Map<string, number> };
  packs: Map<string, ProductPackRow[]>;
  suppliers: Map<string, LastSupplier>;
  coverDays: number;
};

/** One product's suggestion with its figures in its unit, or null when it is not to be ordered. */
function suggestionFor(p: ProductWithStock, x: Inputs): ReorderSuggestion | null {
  const unit = p.unit;
  const leadDays = x.suppliers.get(p.id)?.leadTimeDays ?? DEFAULT_LEAD_TIME_DAYS;
  const largest = x.packs.get(p.id)?.at(-1) ?? null;
  const stock = Number(p.stock);
  const sold = Math.max(0, x.sold.get(p.id) ?? 0);
  const onOrderCounts = x.ordered.owed.get(p.id) ?? 0;
  const onDraftCounts = x.ordered.drafted.get(p.id) ?? 0;
  const outcome = reorderRule({
    sold,
    leadDays,
    coverDays: x.coverDays,
    stock,
    onOrder: onOrderCounts + onDraftCounts,
    reorderPoint: p.reorder_point,
    unit,
    packUnits: largest?.units ?? null,
  });
  if (!outcome) return null;
  return {
    product_id: p.id,
    name: p.name,
    unit,
    reasons: outcome.reasons,
    sold: fromCount(sold, unit),
    avg_daily_sales: averageDaily(sold, unit),
    lead_time_days: leadDays,
    cover_days: x.coverDays,
    days_left: daysLeft(stock, sold),
    needed: fromCount(outcome.needed, unit),
    reorder_point: fromCount(p.reorder_point, unit),
    stock: fromCount(stock, unit),
    on_order: fromCount(onOrderCounts, unit),
    on_draft: fromCount(onDraftCounts, unit),
    suggested: fromCount(outcome.suggested, unit),
    pack: largest && { id: largest.id, name: largest.name, units: fromCount(largest.units, unit), packs: outcome.packs ?? 0 },
  };
}

/** By supplier name, the unknown supplier last; each group's suggestions by product name. */
function grouped(items: Array<{ s: ReorderSuggestion; supplier: LastSupplier | undefined }>): ReorderGroup[] {
  const groups = new Map<string, ReorderGroup>();
  for (const { s, supplier } of items) {
    const key = supplier?.supplierId ?? '';
    const group = groups.get(key) ?? {
      supplier_id: supplier?.supplierId ?? null,
      supplier_name: supplier?.name ?? null,
      lead_time_days: s.lead_time_days,
      suggestions: [],
    };
    group.suggestions.push(s);
    groups.set(key, group);
  }
  const out = [...groups.values()].sort(
    (a, b) =>
      Number(a.supplier_id === null) - Number(b.supplier_id === null) || (a.supplier_name ?? '').localeCompare(b.supplier_name ?? ''),
  );
  for (const g of out) g.suggestions.sort((a, b) => a.name.localeCompare(b.name));
  return out;
}

type Suggested = { s: ReorderSuggestion; supplier: LastSupplier | undefined };

/** The store's suggestions (of `productIds` only, when given), each with its supplier: the one path the rule is applied by. */
async function suggestionsIn(
  db: Kysely<Database>,
  { orgId, storeId }: { orgId: string; storeId: string },
  now: number,
  coverDays: number,
  productIds?: string[],
): Promise<Suggested[]> {
  const products = await productsWithStock(db, orgId, storeId)
    .where('p.is_active', '=', 1)
    .where('p.is_service', '=', 0)
    .$if(productIds !== undefined, (qb) => qb.where('p.id', 'in', productIds!))
    .execute();
  const sold = await soldInWindow(db, { orgId, storeId, from: now - WINDOW_DAYS * DAY, to: now, productIds });
  // Only a product that sold or is at its reorder point can be suggested: the rest are not looked further into.
  const candidates = products.filter((p) => (sold.get(p.id) ?? 0) > 0 || Number(p.stock) <= p.reorder_point);
  const ids = candidates.map((p) => p.id);
  const ordered = await owedOnOrders(db, orgId, storeId, ids);
  const packs = await packsOf(db, orgId, ids);
  const suppliers = await lastSuppliers(db, orgId, ids);
  const inputs: Inputs = { sold, ordered, packs, suppliers, coverDays };
  return candidates.flatMap((p) => {
    const s = suggestionFor(p, inputs);
    return s ? [{ s, supplier: suppliers.get(p.id) }] : [];
  });
}

export async function reorderSuggestions(ctx: AuthedContext, q: ReorderSuggestionsQuery): Promise<ReorderSuggestions> {
  const key = await reorderStore(ctx, q.store_id);
  const items = await suggestionsIn(ctx.db, key, ctx.clock.now(), q.cover_days);
  return { store_id: key.storeId, window_days: WINDOW_DAYS, cover_days: q.cover_days, groups: grouped(items) };
}

/** Notifications' reorder-advice port (notifications/services/reorder-advice-port.ts): the suggestion of each product asked, by the same rule, with the query's default cover. */
export const reorderAdvice: ReorderAdvice = async (ctx, key, productIds) => {
  if (productIds.length === 0) return new Map();
  const items = await suggestionsIn(ctx.db, key, ctx.clock.now(), DEFAULT_COVER_DAYS, productIds);
  return new Map(
    items.map(({ s, supplier }) => [
      s.product_id,
      {
        suggested: s.suggested,
        unit: s.unit,
        pack: s.pack && { name: s.pack.name, packs: s.pack.packs },
        supplierName: supplier?.name ?? null,
      },
    ]),
  );
};
