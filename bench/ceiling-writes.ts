/**
 * The push rows' ceiling: raw batched inserts of sale-shaped rows, from the bench process straight
 * to the same database (SQLite through the server's own opener, its WAL synced as the server syncs it; Postgres as the
 * bench's server runs it, fsync on). One durable transaction per batch of sales: the store's receipt
 * counter taken once, every sale in one multi-row INSERT, their lines in another, and one UPDATE of
 * the stock of every product the batch sold. No reads, no rules, no change log: what the write path
 * could reach if all it did was write.
 */
import { newId } from '@duka/shared';
import { sql } from 'kysely';
import { createDb } from '../server/src/db/create-db.js';
import type { Measured } from './lib.js';
import type { BenchProduct } from './push-load.js';

export interface CeilingShop {
  orgId: string;
  cashierId: string;
  /** One writer per store, all at once (stores do not wait on one another). */
  storeIds: string[];
  products: BenchProduct[];
}

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

export async function rawSaleWrites(
  dbOpts: { url?: string; sqliteFile?: string },
  shop: CeilingShop,
  sales: number,
  batch: number,
): Promise<Measured> {
  const handle = createDb({ ...dbOpts, poolSize: shop.storeIds.length });
  const latencies: number[] = [];
  const perWriter = Math.ceil(sales / shop.storeIds.length / batch);
  const started = performance.now();
  try {
    await Promise.all(
      shop.storeIds.map(async (storeId, w) => {
        for (let b = 0; b < perWriter; b++) {
          const t0 = performance.now();
          await handle.db.transaction().execute(async (trx) => {
            const now = Date.now();
            const { last_number: last } = await trx
              .updateTable('stores')
              .set((eb) => ({ last_number: eb('last_number', '+', batch) }))
              .where('id', '=', storeId)
              .returning('last_number')
              .executeTakeFirstOrThrow();
            const sold = new Map<string, number>();
            const lines = [];
            const txs = [];
            for (let i = 0; i < batch; i++) {
              const id = newId();
              const number = last - batch + i + 1;
              let subtotal = 0;
              for (let l = 0; l < 3; l++) {
                const p = shop.products[(w * 37 + (b * batch + i) * 3 + l) % shop.products.length]!;
                const qty = 1 + (l % 2);
                subtotal += qty * p.selling_price;
                sold.set(p.id, (sold.get(p.id) ?? 0) + qty);
                lines.push({
                  id: newId(),
                  org_id: shop.orgId,
                  transaction_id: id,
                  product_id: p.id,
                  product_name: 'Bidhaa',
                  qty,
                  unit_price: p.selling_price,
                  line_total: qty * p.selling_price,
                  cost_price: 40_000,
                });
              }
              txs.push({
                id,
                org_id: shop.orgId,
                store_id: storeId,
                number,
                receipt_number: `C-${number}`,
                client_receipt_number: `C${w}-${number}`,
                status: 'paid' as const,
                payment_method: 'Cash' as const,
                source: 'offline' as const,
                subtotal,
                discount: 0,
                tax: 0,
                total: subtotal,
                cashier_id: shop.cashierId,
                client_created_at: now,
                created_at: now,
                updated_at: now,
              });
            }
            await trx.insertInto('transactions').values(txs).execute();
            await trx.insertInto('transaction_lines').values(lines).execute();
            // VALUES columns are column1, column2 on both databases; the cast types the quantity for Postgres.
            const moved = [...sold].map(([productId, qty]) => sql`(${productId}, cast(${qty} as integer))`);
            const updated = await sql`update product_stock set qty = product_stock.qty - v.column2, updated_at = ${now}
              from (values ${sql.join(moved)}) as v
              where product_stock.store_id = ${storeId} and product_stock.product_id = v.column1`.execute(trx);
            // A stock update that missed its rows would make the ceiling look higher than it is.
            if (Number(updated.numAffectedRows) !== sold.size)
              throw new Error(`stock update moved ${updated.numAffectedRows} rows, not ${sold.size}`);
          });
          // Durable as the server's are: on SQLite the WAL is synced after the commit (wal-sync.ts).
          await handle.settled();
          latencies.push(performance.now() - t0);
        }
      }),
    );
  } finally {
    await handle.close();
  }
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    rps: Math.round((perWriter * batch * shop.storeIds.length) / seconds),
    p50: Math.round(pct(latencies, 50)),
    p99: Math.round(pct(latencies, 99)),
    errors: 0,
  };
}
