/**
 * Counting a stock-take at the browser till (issue 52, docs/inventory.md "Counting on the browser
 * till"), as pure functions: what a typed count is in the product's unit, and the rows the screen
 * lists (the stock-take's products matching the search, each with what this till counted of it).
 */
import type { TillStockTake } from '@duka/client-sdk';
import { isMeasured, type Product, quantityFault, type Unit } from '@duka/shared';

/** The most a store may hold of a product, in its unit (as the server caps a count's sum). */
const MOST = 1_000_000;

/**
 * A typed count (`7`, `2.375`, `2,375`) in the product's unit, or null when it is not one: 0 is a
 * count (an empty shelf), a piece product takes whole numbers, a measured one up to 3 decimals.
 */
export function countQty(typed: string, unit: Unit): number | null {
  const text = typed.trim().replace(',', '.');
  if (!/^\d+(\.\d+)?$/.test(text)) return null;
  const qty = Number(text);
  return qty <= MOST && quantityFault(qty, unit) === null ? qty : null;
}

export interface CountRow {
  id: string;
  name: string;
  unit: Unit;
  /** Typed with decimals (a measured product). */
  decimals: boolean;
  /** What this till counted of it so far, in its unit; null while it counted none. */
  here: number | null;
}

/**
 * The stock-take's products whose name or SKU contains `query` (any case), those this till
 * counted first (the shelf being worked on), then by name; at most `limit`.
 */
export function countRows(
  take: Pick<TillStockTake, 'product_ids'>,
  products: readonly (Product | null)[],
  totals: Readonly<Record<string, number>>,
  query: string,
  limit = 60,
): CountRow[] {
  const ids = new Set(take.product_ids);
  const term = query.trim().toLowerCase();
  const matches = (p: Product) => p.name.toLowerCase().includes(term) || (p.sku ?? '').toLowerCase().includes(term);
  return products
    .filter((p): p is Product => p !== null && ids.has(p.id) && matches(p))
    .map((p) => {
      const unit = p.unit ?? 'piece';
      return { id: p.id, name: p.name, unit, decimals: isMeasured(unit), here: totals[p.id] ?? null };
    })
    .sort((a, b) => Number(a.here === null) - Number(b.here === null) || a.name.localeCompare(b.name) || a.id.localeCompare(b.id))
    .slice(0, limit);
}

/** How far this till got: products it counted of the stock-take's. */
export const countedHere = (take: Pick<TillStockTake, 'product_ids'>, totals: Readonly<Record<string, number>>): number =>
  take.product_ids.filter((id) => id in totals).length;
