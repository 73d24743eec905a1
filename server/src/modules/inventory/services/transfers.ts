/**
 * Issue 54, stock transfers: stock leaves the token's store and arrives in another active store of
 * the organisation in one transaction. Each line is a `transfer_out` adjustment here and a
 * `transfer_in` one there, both moved by `changeStockLevel` (which notes the change for both
 * stores' tills); a line that would take this store below zero refuses the whole transfer.
 */
import {
  type CreateTransferInput,
  fromCount,
  type ListTransfersQuery,
  newId,
  type PageMeta,
  type StockTransfer,
  type Unit,
} from '@duka/shared';
import { countedPage } from '../../../db/page.js';
import type { StockTransferTable } from '../../../db/tables/inventory.table.js';
import { withTransaction } from '../../../db/transaction.js';
import { recordAudit } from '../../../lib/audit.js';
import { requirePower, requireStore } from '../../../lib/auth/authorize.js';
import { iso } from '../../../lib/clock.js';
import type { AuthedContext } from '../../../lib/context.js';
import { ServiceError, ValidationError } from '../../../lib/errors.js';
import { changeStockLevel, countOf, countText } from '../../stock-levels/stock-levels.exports.js';
import { insertStockAdjustment, orgProductsById } from '../inventory.queries.js';
import { insertTransfer, orgStore, storeTransfers } from '../transfers.queries.js';

interface StoredLine {
  product_id: string;
  name: string;
  unit: Unit;
  /** In counts. */
  qty: number;
}

const notFound = (field: string, what: string) =>
  new ServiceError('NOT_FOUND', `${what} not found`, { errors: [{ code: 'NOT_FOUND', field, message: `${what} not found` }] });

export async function createTransfer(ctx: AuthedContext, input: CreateTransferInput): Promise<StockTransfer> {
  const { orgId, storeId } = requireStore(ctx);
  requirePower(ctx, 'adjust_stock');
  if (input.to_store_id === storeId) throw new ValidationError('to_store_id', 'is the store the stock leaves');
  return withTransaction(ctx, async (tx) => {
    const to = await orgStore(tx.db, orgId, input.to_store_id);
    if (!to) throw notFound('to_store_id', 'store');
    if (to.is_active !== 1) throw new ValidationError('to_store_id', `${to.name} is not active`);
    const products = await orgProductsById(
      tx,
      orgId,
      input.lines.map((l) => l.product_id),
    );
    const seen = new Set<string>();
    const lines: StoredLine[] = input.lines.map((l, i) => {
      const p = products.get(l.product_id);
      if (!p) throw notFound(`lines.${i}.product_id`, 'product');
      if (seen.has(l.product_id)) throw new ValidationError(`lines.${i}.product_id`, 'is listed twice');
      seen.add(l.product_id);
      if (p.is_service === 1) throw new ValidationError(`lines.${i}.product_id`, 'is a service, which has no stock');
      // A lot's expiry and number live in one store's batch ledger; moving lots between stores is not offered yet.
      if (p.track_batches === 1)
        throw new ValidationError(`lines.${i}.product_id`, `${p.name} tracks batches: adjust its lots in each store`);
      return { product_id: p.id, name: p.name, unit: p.unit, qty: countOf(l.qty, p.unit, `lines.${i}.qty`) };
    });
    const id = newId();
    const now = tx.clock.now();
    const note = input.note ?? null;
    const from = (await orgStore(tx.db, orgId, storeId))!;
    // Stock rows are locked in one order (product id, then store id), so two transfers crossing the
    // same products or the same two stores in opposite directions wait for each other, never deadlock.
    const byProduct = [...lines.entries()].sort(([, a], [, b]) => (a.product_id < b.product_id ? -1 : 1));
    for (const [i, l] of byProduct) {
      const move = { orgId, productId: l.product_id, productName: l.name, unit: l.unit, field: `lines.${i}.qty` };
      const leave = () => changeStockLevel(tx, { ...move, storeId, delta: -l.qty });
      const arrive = () => changeStockLevel(tx, { ...move, storeId: to.id, delta: l.qty });
      let left: number;
      let arrived: number;
      if (storeId < to.id) {
        left = await leave();
        arrived = await arrive();
      } else {
        arrived = await arrive();
        left = await leave();
      }
      const adjustment = { org_id: orgId, product_id: l.product_id, adjusted_by: tx.actor.userId, created_at: now };
      await insertStockAdjustment(tx.db, {
        ...adjustment,
        store_id: storeId,
        qty_change: -l.qty,
        qty_after: left,
        reason: 'transfer_out',
        note: `to ${to.name}${note ? `: ${note}` : ''}`,
      });
      await insertStockAdjustment(tx.db, {
        ...adjustment,
        store_id: to.id,
        qty_change: l.qty,
        qty_after: arrived,
        reason: 'transfer_in',
        note: `from ${from.name}${note ? `: ${note}` : ''}`,
      });
    }
    const row: StockTransferTable = {
      org_id: orgId,
      id,
      from_store_id: storeId,
      to_store_id: to.id,
      lines: JSON.stringify(lines),
      note,
      created_by: tx.actor.userId,
      created_at: now,
    };
    await insertTransfer(tx.db, row);
    await recordAudit(tx, {
      action: 'stock.transfer',
      description: `Moved ${lines.map((l) => `${countText(l.qty, l.unit)} ${l.name}`).join(', ')} from ${from.name} to ${to.name}`,
      entity: 'stock_transfer',
      entityId: id,
    });
    return toTransfer(row, from.name, to.name);
  });
}

function toTransfer(row: StockTransferTable, fromName: string, toName: string): StockTransfer {
  const lines = JSON.parse(row.lines) as StoredLine[];
  return {
    id: row.id,
    from_store_id: row.from_store_id,
    from_store_name: fromName,
    to_store_id: row.to_store_id,
    to_store_name: toName,
    lines: lines.map((l) => ({ ...l, qty: fromCount(l.qty, l.unit) })),
    note: row.note,
    created_by: row.created_by,
    created_at: iso(Number(row.created_at)),
  };
}

/** Transfers that left or reached the active store, newest first. */
export async function listTransfers(ctx: AuthedContext, q: ListTransfersQuery): Promise<{ items: StockTransfer[]; meta: PageMeta }> {
  const { orgId, storeId } = requireStore(ctx);
  const { filtered, ordered } = storeTransfers(ctx.db, orgId, storeId, q.direction);
  const { rows, meta } = await countedPage(filtered, ordered, q);
  return { items: rows.map((r) => toTransfer(r, r.from_name, r.to_name)), meta };
}
