/**
 * Stock-takes (issue 52): open a count of the active store, add counters' counts (summed per
 * product, each recorded once by the id the till made), review, list, cancel. Apply is apply.ts.
 * docs/inventory.md "Stock-takes".
 */
import { type AddStockTakeCountsInput, newId, type OpenStockTakeInput, type StockTake, type StockTakeSummary } from '@duka/shared';
import { withTransaction } from '../../../db/transaction.js';
import { recordAudit } from '../../../lib/audit.js';
import type { AuthedContext } from '../../../lib/context.js';
import { requirePower, requireStore } from '../../../lib/auth/authorize.js';
import { InvalidStateError, NotFoundError, ValidationError } from '../../../lib/errors.js';
import { countOf, MAX_STOCK } from '../../stock-levels/stock-levels.exports.js';
import { findCategory } from '../inventory.queries.js';
import { linesAtCount } from './expected.js';
import { toStockTake, toSummary } from './review.js';
import * as q from './stock-takes.queries.js';

/**
 * The count of the active store with its lines, or 404 (another organisation's or store's id). The
 * permission is checked first, so a staff member without it learns nothing of which ids exist.
 */
export async function loadStockTake(ctx: AuthedContext, id: string) {
  const { key, take } = await findTake(ctx, id);
  return { key, take, lines: await linesAtCount(ctx.db, key, [take]) };
}

async function findTake(ctx: AuthedContext, id: string) {
  const key = requireStore(ctx);
  requirePower(ctx, 'adjust_stock');
  const take = await q.findStockTake(ctx.db, key, id);
  if (!take) throw new NotFoundError('stock take');
  return { key, take };
}

export async function getStockTake(ctx: AuthedContext, id: string): Promise<StockTake> {
  const { take, lines } = await loadStockTake(ctx, id);
  return toStockTake(take, lines);
}

async function scopeProducts(ctx: AuthedContext, orgId: string, input: OpenStockTakeInput): Promise<string[]> {
  const only = (field: 'category_id' | 'product_ids', scope: string) => {
    if (input[field] !== undefined && input.scope !== scope) throw new ValidationError(field, `is only taken with scope ${scope}`);
    if (input[field] === undefined && input.scope === scope) throw new ValidationError(field, `is required with scope ${scope}`);
  };
  only('category_id', 'category');
  only('product_ids', 'products');
  if (input.category_id && !(await findCategory(ctx.db, orgId, input.category_id))) throw new NotFoundError('category');
  const ids = input.product_ids ? [...new Set(input.product_ids)] : undefined;
  const rows = await q.countableProducts(ctx.db, orgId, { categoryId: input.category_id, ids });
  if (ids) {
    const found = new Map(rows.map((r) => [r.id, r]));
    ids.forEach((id, i) => {
      const p = found.get(id);
      const why = !p ? 'is not a product of this organisation' : p.is_service ? 'is a service: it has no stock' : null;
      if (why) throw new ValidationError(`product_ids.${i}`, why);
      if (p!.track_batches) throw new ValidationError(`product_ids.${i}`, 'is batch-tracked: count its lots in pharmacy');
    });
  }
  if (rows.length === 0) throw new ValidationError('scope', 'has no stocked products to count');
  return rows.map((r) => r.id);
}

export async function openStockTake(ctx: AuthedContext, input: OpenStockTakeInput): Promise<StockTake> {
  const { orgId, storeId } = requireStore(ctx);
  requirePower(ctx, 'adjust_stock');
  return withTransaction(ctx, async (tx) => {
    const productIds = await scopeProducts(tx, orgId, input);
    const id = newId();
    await q.insertStockTake(
      tx.db,
      {
        org_id: orgId,
        id,
        store_id: storeId,
        scope: input.scope,
        category_id: input.category_id ?? null,
        status: 'open',
        uncounted: null,
        note: input.note ?? null,
        opened_by: ctx.actor.userId,
        opened_at: ctx.clock.now(),
        closed_by: null,
        closed_at: null,
      },
      productIds,
    );
    await recordAudit(tx, {
      action: 'stock_take.open',
      description: `Opened a stock-take of ${productIds.length} products (${input.scope})`,
      entity: 'stock_take',
      entityId: id,
    });
    return getStockTake(tx, id);
  });
}

/**
 * Adds counts to an open count, in one transaction. A product's first count to arrive takes the
 * store's level then (expected.ts places it at the moment of the count); a count whose id is
 * recorded already (a replay) is skipped.
 */
export async function addStockTakeCounts(ctx: AuthedContext, id: string, input: AddStockTakeCountsInput): Promise<StockTake> {
  return withTransaction(ctx, async (tx) => {
    await recordStockTakeCounts(tx, id, input);
    return getStockTake(tx, id);
  });
}

/**
 * The counts written, without the review as an answer: a till's pushed count (one per mutation)
 * needs none, and the review's expected reads the store's sales. Lines as stored: a count needs
 * only what was counted so far.
 */
export async function recordStockTakeCounts(ctx: AuthedContext, id: string, input: AddStockTakeCountsInput): Promise<void> {
  await withTransaction(ctx, async (tx) => {
    const { key, take } = await findTake(tx, id);
    const lines = await q.linesOf(tx.db, key, [take.id]);
    if (take.status !== 'open') throw new InvalidStateError(`this stock take is ${take.status}: counts are no longer taken`);
    const byProduct = new Map(lines.map((l) => [l.product_id, l]));
    // Counts summed past any store's stock would not fit PostgreSQL's int4: refused, naming the count.
    const totals = new Map(lines.map((l) => [l.product_id, l.counted]));
    const counts = input.counts.map((c, i) => {
      const line = byProduct.get(c.product_id);
      if (!line) throw new ValidationError(`counts.${i}.product_id`, 'is not in this stock take');
      const count = countOf(c.qty, line.unit, `counts.${i}.qty`);
      const total = totals.get(c.product_id)! + count;
      if (total > MAX_STOCK) throw new ValidationError(`counts.${i}.qty`, `takes ${line.name}'s count past the most a store may hold`);
      totals.set(c.product_id, total);
      return { ...c, count };
    });
    const recorded = await q.recordedCountIds(tx.db, key.orgId, [...new Set(counts.map((c) => c.id))]);
    const now = tx.clock.now();
    let added = 0;
    for (const c of counts) {
      if (recorded.has(c.id)) continue;
      recorded.add(c.id);
      const row = {
        org_id: key.orgId,
        id: c.id,
        stock_take_id: id,
        product_id: c.product_id,
        qty: c.count,
        counted_at: c.counted_at ? Date.parse(c.counted_at) : now,
        device_id: c.device_id ?? null,
        counted_by: tx.actor.userId,
        received_at: now,
      };
      if (!(await q.insertCount(tx.db, row))) continue;
      const stock = await q.stockNow(tx.db, key, c.product_id);
      await q.addToLine(tx.db, { orgId: key.orgId, takeId: id, productId: c.product_id }, c.count, stock, now);
      added++;
    }
    if (added > 0)
      await recordAudit(tx, { action: 'stock_take.count', description: `Recorded ${added} counts`, entity: 'stock_take', entityId: id });
  });
}

export async function listStockTakes(
  ctx: AuthedContext,
  query: { status?: StockTakeSummary['status']; limit: number },
): Promise<StockTakeSummary[]> {
  const key = requireStore(ctx);
  requirePower(ctx, 'adjust_stock');
  const takes = await q.listStockTakeRows(ctx.db, key, query);
  const lines = await linesAtCount(ctx.db, key, takes);
  return takes.map((t) =>
    toSummary(
      t,
      lines.filter((l) => l.stock_take_id === t.id),
    ),
  );
}

/** Cancels an open count (nothing moves); cancelling again answers the same; an applied one is 409. */
export async function cancelStockTake(ctx: AuthedContext, id: string): Promise<StockTake> {
  return withTransaction(ctx, async (tx) => {
    const { key, take } = await loadStockTake(tx, id);
    if (take.status === 'applied') throw new InvalidStateError('this stock take is applied: it can no longer be cancelled');
    const closed = await q.closeStockTake(
      tx.db,
      { ...key, id },
      { status: 'cancelled', uncounted: null, by: tx.actor.userId, at: tx.clock.now() },
    );
    if (closed)
      await recordAudit(tx, { action: 'stock_take.cancel', description: 'Cancelled a stock-take', entity: 'stock_take', entityId: id });
    return getStockTake(tx, id);
  });
}
