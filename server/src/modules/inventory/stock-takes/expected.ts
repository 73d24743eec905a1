/**
 * A stock-take line's expected: the store's level at the moment the product was counted, the one
 * figure review, CSV, list and apply read (docs/inventory.md "Expected"). Stored is the level when
 * its first count arrived (A); sales are moved from when they reached the server to when they were
 * made, against t0, the earliest till time of its counts:
 *   expected = level at A + kept units of sales made after t0 that had arrived by A
 *                         − kept units of sales made at or before t0 that arrived after A.
 * A line apply settled (`change` set) keeps the expected it was applied at.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/database.js';
import type { StockTakeRow } from '../../../db/tables/stock-takes.table.js';
import { keptCounts, soldSalesOfStore } from '../../stock-levels/stock-levels.exports.js';
import { countStarts } from './expected.queries.js';
import { type LineWithProduct, linesOf, type TakeKey } from './stock-takes.queries.js';

type Db = Kysely<Database>;
type Sale = { product_id: string; made: number; arrived: number; kept: number };

/**
 * How long before its count a sale may have been made and still arrive after it: a bound, so each
 * count's push reads at most this much of the store's history (by its (store, created_at) index)
 * rather than all of it. A till offline for longer than this is not a till counting the shelf.
 */
export const LATE_SALE_MS = 30 * 24 * 3_600_000;

/** The lines of these counts, each open counted line's expected placed at the moment it was counted. */
export async function linesAtCount(db: Db, key: TakeKey, takes: Pick<StockTakeRow, 'id' | 'opened_at'>[]): Promise<LineWithProduct[]> {
  const lines = await linesOf(
    db,
    key,
    takes.map((t) => t.id),
  );
  const open = lines.filter((l) => l.first_counted_at !== null && l.change === null);
  if (open.length === 0) return lines;
  const opened = new Map(takes.map((t) => [t.id, Number(t.opened_at)]));
  const starts = await countStarts(db, key.orgId, [...new Set(open.map((l) => l.stock_take_id))]);
  const at = new Map(
    open.map((l) => {
      // A till's clock: never before the count was opened (it could not count what it did not know of).
      const t0 = Math.max(opened.get(l.stock_take_id)!, starts.get(`${l.stock_take_id}:${l.product_id}`)!);
      return [l, { t0, a: Number(l.first_counted_at) }];
    }),
  );
  const sales = await salesAround(db, key, [...new Set(open.map((l) => l.product_id))], [...at.values()]);
  return lines.map((l) => {
    const w = at.get(l);
    if (!w) return l;
    let moved = 0;
    for (const s of sales.get(l.product_id) ?? []) {
      if (s.made > w.t0 && s.arrived <= w.a) moved += s.kept;
      else if (s.made <= w.t0 && s.arrived > w.a) moved -= s.kept;
    }
    return { ...l, expected: l.expected! + moved };
  });
}

/**
 * The store's sold sale lines of these products that may move an expected: made after the earliest
 * t0 and arrived by the latest A, or made by the latest t0 and arrived after the earliest A. Kept
 * units: a part refunded or a sale voided or refunded whole is as if never sold.
 */
async function salesAround(db: Db, key: TakeKey, productIds: string[], windows: Array<{ t0: number; a: number }>) {
  const t0s = windows.map((w) => w.t0);
  const as = windows.map((w) => w.a);
  const out = new Map<string, Sale[]>();
  // Slices: SQLite binds at most 32,766 parameters per statement.
  for (let i = 0; i < productIds.length; i += 1000) {
    const rows = await soldSalesOfStore(db, key)
      .innerJoin('transaction_lines as l', (j) => j.onRef('l.org_id', '=', 't.org_id').onRef('l.transaction_id', '=', 't.id'))
      .where('l.product_id', 'in', productIds.slice(i, i + 1000))
      .where('t.created_at', '>', Math.min(...t0s) - LATE_SALE_MS)
      .where((eb) => {
        const arrived = eb.fn.coalesce('t.received_at', 't.created_at');
        return eb.or([
          eb.and([eb('t.created_at', '>', Math.min(...t0s)), eb(arrived, '<=', Math.max(...as))]),
          eb.and([eb('t.created_at', '<=', Math.max(...t0s)), eb(arrived, '>', Math.min(...as))]),
        ]);
      })
      .select((eb) => [
        'l.product_id',
        't.created_at as made',
        eb.fn.coalesce('t.received_at', 't.created_at').as('arrived'),
        keptCounts('l', 't').as('kept'),
      ])
      .execute();
    for (const r of rows) {
      const sale = { product_id: r.product_id, made: Number(r.made), arrived: Number(r.arrived), kept: Number(r.kept) };
      const of = out.get(r.product_id);
      if (of) of.push(sale);
      else out.set(r.product_id, [sale]);
    }
  }
  return out;
}
