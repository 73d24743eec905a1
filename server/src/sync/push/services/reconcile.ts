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
import { fromCents, lineAmount, toCents, type Unit } from '@duka/shared';
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

type Current = ReadonlyMap<string, { selling_price: number; wholesale_price: number | null; name: string; unit: Unit }>;

export function reconcilePrices(
  lines: Array<{ product_id: string; unit_price: number }>,
  at: number,
  current: Current,
  prices: PriceHistory,
): PricedLines {
  const unitPrices = new Map<string, number>();
  const conflicts: SaleConflict[] = [];
  for (const line of lines) {
    const product = current.get(line.product_id);
    if (!product || unitPrices.has(line.product_id)) continue;
    const { inForce, recent } = pricesAround(line.product_id, product, at, prices);
    const tiers = (p: PriceRow | typeof inForce) => [p.selling_price, p.wholesale_price];
    const judged = judgePrice({ name: product.name, productId: line.product_id }, toCents(line.unit_price), {
      inForce: tiers(inForce),
      before: recent.flatMap(tiers),
      book: inForce.selling_price,
    });
    unitPrices.set(line.product_id, judged.booked);
    if (judged.conflict) conflicts.push(judged.conflict);
  }
  return { unitPrices, conflicts };
}

/** A pack as its pushed price is judged (issue 51): `units` in counts, prices in cents, `updated_at` its last change. */
export interface PackInForce {
  product_id: string;
  name: string;
  units: number;
  selling_price: number | null;
  created_at: number;
  updated_at: number;
}

/**
 * Pack lines' prices (one pack's, as the till charged it), by the same rule as loose lines. A pack
 * with no price of its own is its units × the unit price, so its prices in force are those of the
 * product's history. A pack's own price keeps no history: it is the price in force now, and when
 * the pack was changed (after it was made) during the 7 days before the sale or since, the till's
 * price may be the one it had then, so it is booked as a stale price rather than overruled. Packs the sale's rules will
 * refuse (another product's, unknown) are left to them.
 */
export function reconcilePackPrices(
  lines: Array<{ product_id: string; pack_id: string; unit_price: number }>,
  at: number,
  current: Current,
  packs: ReadonlyMap<string, PackInForce>,
  prices: PriceHistory,
): { packPrices: Map<string, number>; conflicts: SaleConflict[] } {
  const packPrices = new Map<string, number>();
  const conflicts: SaleConflict[] = [];
  for (const line of lines) {
    const product = current.get(line.product_id);
    const pack = packs.get(line.pack_id);
    if (!product || !pack || pack.product_id !== line.product_id || packPrices.has(line.pack_id)) continue;
    const { inForce, recent } = pricesAround(line.product_id, product, at, prices);
    const tiers = (p: PriceRow | typeof inForce) =>
      pack.selling_price === null ? [p.selling_price, p.wholesale_price].map((c) => c && lineAmount(c, pack.units, product.unit)) : [];
    const own = pack.selling_price === null ? [] : [pack.selling_price];
    const judged = judgePrice({ name: `${product.name} (${pack.name})`, productId: line.product_id }, toCents(line.unit_price), {
      inForce: [...own, ...tiers(inForce)],
      before: recent.flatMap(tiers),
      book: pack.selling_price ?? lineAmount(inForce.selling_price, pack.units, product.unit),
      // Changed since it was made (a new pack had no older price), in the week before the sale or since.
      changed: pack.updated_at > pack.created_at && pack.updated_at > at - STALE_WINDOW_MS,
    });
    packPrices.set(line.pack_id, judged.booked);
    if (judged.conflict) conflicts.push(judged.conflict);
  }
  return { packPrices, conflicts };
}

/** The price row in force at `at`, and the rows in force at some moment of the week before it. */
function pricesAround(
  productId: string,
  product: { selling_price: number; wholesale_price: number | null },
  at: number,
  prices: PriceHistory,
) {
  const history = (prices.get(productId) ?? []).filter((p) => p.effective_from <= at);
  const inForce = history[0] ?? { selling_price: product.selling_price, wholesale_price: product.wholesale_price, effective_from: 0 };
  // The rows after the one in force a week earlier.
  const recent: PriceRow[] = [];
  for (const row of history.slice(1)) {
    recent.push(row);
    if (row.effective_from <= at - STALE_WINDOW_MS) break;
  }
  return { inForce, recent };
}

/**
 * The one rule (design §4): a price in force then is booked; one in force during the week before
 * (or possibly so: `changed`) is booked as charged with `stale_price`; any other, `book` with
 * `price_mismatch`.
 */
function judgePrice(
  what: { name: string; productId: string },
  charged: number,
  known: { inForce: Array<number | null>; before: Array<number | null>; book: number; changed?: boolean },
): { booked: number; conflict?: SaleConflict } {
  if (known.inForce.includes(charged)) return { booked: charged };
  const detail = { charged: fromCents(charged), price_then: fromCents(known.book) };
  if (known.changed || known.before.includes(charged)) {
    const message = `${what.name} sold at ${detail.charged}, an old price (now ${detail.price_then})`;
    return { booked: charged, conflict: { kind: 'stale_price', product_id: what.productId, message, detail } };
  }
  const message = `${what.name} sold at ${detail.charged}, a price it never had; booked at ${detail.price_then}`;
  return { booked: known.book, conflict: { kind: 'price_mismatch', product_id: what.productId, message, detail } };
}
