/**
 * Pricing an offline sale (design §4). Each line carries the price the till charged; the server
 * compares it with the price in force when the sale happened:
 * - the same: nothing to note;
 * - a price that was in force during the 7 days before (a stale catalogue on the till): the till's
 *   price is booked, since that is the money collected, and a `stale_price` conflict is noted;
 * - any other price: the server's price is booked and a `price_mismatch` conflict is noted.
 *
 * A pushed batch reads the price history of its products once (`priceHistory`); each sale is then
 * judged in memory.
 */
import { fromCents, toCents } from '@duka/shared';
import type { SaleConflict } from '@duka/shared';
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/database.js';
import { pricesInForce } from '../push.queries.js';

const STALE_WINDOW_MS = 7 * 86_400_000;

export interface PricedLines {
  /** Cents booked per product. */
  unitPrices: Map<string, number>;
  conflicts: SaleConflict[];
}

interface PriceRow {
  id: string;
  product_id: string;
  selling_price: number;
  wholesale_price: number | null;
  effective_from: number;
}

/** Per product, newest first: every price in force at some moment between `from` minus the stale window and `to`. */
export type PriceHistory = Map<string, PriceRow[]>;

export async function priceHistory(
  db: Kysely<Database>,
  orgId: string,
  productIds: string[],
  from: number,
  to: number,
): Promise<PriceHistory> {
  const history: PriceHistory = new Map();
  if (productIds.length === 0) return history;
  const since = from - STALE_WINDOW_MS;
  for (const row of await pricesInForce(db, orgId, productIds, since, to))
    history.set(row.product_id, [...(history.get(row.product_id) ?? []), row]);
  for (const rows of history.values()) rows.sort((a, b) => b.effective_from - a.effective_from || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
  return history;
}

export function reconcilePrices(
  lines: Array<{ product_id: string; unit_price: number }>,
  at: number,
  current: ReadonlyMap<string, { selling_price: number; wholesale_price: number | null; name: string }>,
  prices: PriceHistory,
): PricedLines {
  const unitPrices = new Map<string, number>();
  const conflicts: SaleConflict[] = [];
  for (const line of lines) {
    const product = current.get(line.product_id);
    if (!product || unitPrices.has(line.product_id)) continue;
    const charged = toCents(line.unit_price);
    const history = (prices.get(line.product_id) ?? []).filter((p) => p.effective_from <= at);
    const inForce = history[0] ?? { selling_price: product.selling_price, wholesale_price: product.wholesale_price, effective_from: 0 };
    const matches = (p: { selling_price: number; wholesale_price: number | null }) =>
      p.selling_price === charged || p.wholesale_price === charged;
    if (matches(inForce)) {
      unitPrices.set(line.product_id, charged);
      continue;
    }
    // Prices in force at some moment of the week before the sale: the rows after the one in force a week earlier.
    const recent: typeof history = [];
    for (const row of history.slice(1)) {
      recent.push(row);
      if (row.effective_from <= at - STALE_WINDOW_MS) break;
    }
    const detail = { charged: fromCents(charged), price_then: fromCents(inForce.selling_price) };
    if (recent.some(matches)) {
      unitPrices.set(line.product_id, charged);
      conflicts.push({
        kind: 'stale_price',
        product_id: line.product_id,
        message: `${product.name} sold at ${detail.charged}, an old price (now ${detail.price_then})`,
        detail,
      });
    } else {
      unitPrices.set(line.product_id, inForce.selling_price);
      conflicts.push({
        kind: 'price_mismatch',
        product_id: line.product_id,
        message: `${product.name} sold at ${detail.charged}, a price it never had; booked at ${detail.price_then}`,
        detail,
      });
    }
  }
  return { unitPrices, conflicts };
}
