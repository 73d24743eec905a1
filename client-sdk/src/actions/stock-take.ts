/**
 * Counting a stock-take on the till (issue 52: docs/inventory.md "Counting on the till"). The store's
 * open counts are fetched while online and kept in the replica's meta, so the till counts through
 * an outage. Each count is queued as a `stock_take.count` mutation with an id of its own, in the
 * same queue as sales: it is pushed with them, retried with them, and the server records each
 * count id once, so a push sent again after a lost answer adds nothing twice.
 */
import { fromCount, newId, quantityFault, type StockTakeCountPayload, toCount, type Unit } from '@duka/shared';
import type { AuthSession } from '../auth.js';
import { NetworkError, TillError } from '../errors.js';
import type { LocalExec } from '../local/db.js';
import { getMeta, setMeta, type TillStockTake } from '../local/meta.js';
import { enqueue } from '../queue.js';
import * as reads from '../reads.js';
import { requireServerProtocol } from '../sync/protocol.js';
import { type ActionCtx, requirePower } from './context.js';

/** A count the till recorded (and queued), with what this till has counted of the product so far. */
export interface TillCount {
  id: string;
  stock_take_id: string;
  product_id: string;
  name: string;
  unit: Unit;
  /** What this count added, in the product's unit (a pack's barcode adds the pack's units). */
  qty: number;
  counted_at: string;
  /** This till's counts of the product in this stock-take, summed (the other tills' are added on the server). */
  till_total: number;
}

/**
 * The store's open stock-takes: asked of the server when it answers (and kept), else the ones kept
 * from the last time it did. Only a missing network falls back; a refusal (no `stock` permission) is thrown.
 */
export async function openStockTakes(db: LocalExec, auth: AuthSession): Promise<TillStockTake[]> {
  try {
    const takes = await auth.authed(async ({ api }, token, signal) => {
      const open = await api.stockTakes(token, { status: 'open' }, signal);
      return Promise.all(open.map((t) => api.stockTake(token, t.id, signal)));
    });
    const kept: Record<string, TillStockTake> = {};
    for (const t of takes)
      kept[t.id] = {
        id: t.id,
        scope: t.scope,
        category_id: t.category_id,
        note: t.note,
        opened_at: t.opened_at,
        product_ids: t.lines.map((l) => l.product_id),
      };
    await setMeta(db, 'stock_takes', kept);
  } catch (err) {
    if (!(err instanceof NetworkError) && !(err instanceof TillError && err.code === 'AUTH_REQUIRED')) throw err;
  }
  return Object.values((await getMeta(db, 'stock_takes')) ?? {}).sort((a, b) => a.opened_at.localeCompare(b.opened_at));
}

/**
 * Count `qty` (default 1: a scan) of a product, found by id, barcode, SKU, a pack's barcode (the
 * pack's units each) or a scale label (its weight, when no `qty` is given). Offline too.
 */
export async function countStock(ctx: ActionCtx, stockTakeId: string, productIdOrCode: string, qty?: number): Promise<TillCount> {
  if (qty !== undefined && (typeof qty !== 'number' || !Number.isFinite(qty) || qty < 0))
    throw new TillError('VALIDATION_ERROR', 'qty must be a number, 0 or more', 'qty');
  const counted = await ctx.db.transaction().execute(async (trx) => {
    await requirePower(trx, 'adjust_stock');
    await requireServerProtocol(trx, 3, 'counting a stock take on the till');
    const take = ((await getMeta(trx, 'stock_takes')) ?? {})[stockTakeId];
    if (!take)
      throw new TillError(
        'NOT_FOUND',
        'stock take not found among the open ones this till knows: fetch them (openStockTakes) online',
        'stock_take_id',
      );
    const byId = await reads.productById(trx, productIdOrCode);
    const scanned = byId ? null : await reads.productByCode(trx, productIdOrCode);
    const product = byId ?? scanned;
    if (!product) throw new TillError('NOT_FOUND', 'product not found', 'product');
    if (!take.product_ids.includes(product.id))
      throw new TillError('VALIDATION_ERROR', `${product.name} is not in this stock take`, 'product');
    const unit = product.unit ?? 'piece';
    const each = scanned?.scanned_pack?.units ?? 1;
    const amount = qty ?? scanned?.scale_label?.qty ?? 1;
    // Counts, never floats: 2.375 kg is 2,375 g; 3 packs of 0.5 kg are 1,500 g.
    const fault = quantityFault(amount, unit);
    if (fault) throw new TillError('VALIDATION_ERROR', `qty ${fault}`, 'qty');
    const count = each === 1 ? toCount(amount, unit) : Math.round(toCount(each, unit) * amount);
    const now = ctx.now();
    const payload: StockTakeCountPayload = {
      stock_take_id: take.id,
      id: newId(),
      product_id: product.id,
      qty: fromCount(count, unit),
      counted_at: new Date(now).toISOString(),
    };
    await enqueue(trx, 'stock_take.count', payload, now);
    const total = (await tillCounts(trx, take.id, product.id)).get(product.id) ?? 0;
    return { ...payload, counted_at: payload.counted_at!, name: product.name, unit, till_total: fromCount(total, unit) };
  });
  ctx.queued();
  return counted;
}

/**
 * What this till has counted in a stock-take, per product id, in each product's unit (its queued
 * and sent counts, not refused ones): the running counts a counting screen shows, offline too and
 * after a reload. The other tills' counts are summed on the server.
 */
export async function tillStockTakeTotals(db: LocalExec, takeId: string): Promise<Record<string, number>> {
  const totals: Record<string, number> = {};
  for (const [productId, count] of await tillCounts(db, takeId)) {
    const unit = (await reads.productById(db, productId))?.unit ?? 'piece';
    totals[productId] = fromCount(count, unit);
  }
  return totals;
}

/** This till's counts in a stock-take (its queued and sent ones, not refused ones), per product id, in counts. */
async function tillCounts(db: LocalExec, takeId: string, productId?: string): Promise<Map<string, number>> {
  const rows = await db
    .selectFrom('queue')
    .select('payload')
    .where('type', '=', 'stock_take.count')
    .where('state', '!=', 'rejected')
    .execute();
  const units = new Map<string, Unit>();
  const totals = new Map<string, number>();
  for (const r of rows) {
    const p = JSON.parse(r.payload) as StockTakeCountPayload;
    if (p.stock_take_id !== takeId || (productId !== undefined && p.product_id !== productId)) continue;
    if (!units.has(p.product_id)) units.set(p.product_id, (await reads.productById(db, p.product_id))?.unit ?? 'piece');
    totals.set(p.product_id, (totals.get(p.product_id) ?? 0) + toCount(p.qty, units.get(p.product_id)!));
  }
  return totals;
}
