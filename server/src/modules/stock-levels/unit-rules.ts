/**
 * What a stored count means, for queries that read quantities in bulk (issue 51): a product's
 * unit, how many items a line is, and what a sold line cost. Each rule is written here once, in
 * integer SQL (no binary floating point, no division of counts but the one rounding of money; the
 * items rule also in JS for lines already in memory), so the analytics, the summaries, the sync
 * pull, deliveries and receipts cannot come to differ.
 */
import type { Unit } from '@duka/shared';
import { type RawBuilder, sql } from 'kysely';

/**
 * The unit of the product `productId` of organisation `orgId` (column references of the outer
 * row), `piece` should the product be gone. A scalar subquery by the product's key, so the outer
 * rows are still read by their own index. A product's unit is fixed once it has a stock move or a
 * sale line (inventory's product-units.ts), so its unit now is the unit its stored counts are in.
 */
export const productUnit = (orgId: string, productId: string): RawBuilder<Unit> =>
  sql<Unit>`coalesce((select ${sql.ref('unit_of.unit')} from ${sql.table('products')} as ${sql.raw('unit_of')} where ${sql.ref('unit_of.org_id')} = ${sql.ref(orgId)} and ${sql.ref('unit_of.id')} = ${sql.ref(productId)}), ${sql.lit('piece')})`;

/** A counts column, or an expression of counts (a line's kept counts: kept-lines.ts). */
const counts = (qty: string | RawBuilder<number>) => (typeof qty === 'string' ? sql.ref(qty) : qty);

const isPiece = (unit: RawBuilder<Unit>) => sql`${unit} = ${sql.lit('piece')}`;

/**
 * How many items a line is (docs/inventory.md, "Items sold"): its pieces for a piece product (a
 * carton of 24 is 24), one for a measured line (0.5 kg of sugar is one item), so a total across
 * products never adds grams to pieces. `pieces`: the line's counts (a piece product's counts are
 * its pieces). For lines in memory: a delivery's `items_count`, the SMS receipt's item count.
 */
export const itemsOf = (pieces: number, unit: Unit | undefined): number => (unit === undefined || unit === 'piece' ? pieces : 1);

/** `itemsOf` in SQL, over a stored line's counts column `qty` and its product's unit. */
export const lineItems = (qty: string | RawBuilder<number>, unit: RawBuilder<Unit>): RawBuilder<number> =>
  // A measured line refunded to its last gram (its sale still sold for other lines) is no item any more.
  sql<number>`case when ${isPiece(unit)} then ${counts(qty)} when ${counts(qty)} > 0 then 1 else 0 end`;

/**
 * A sold line's cost in cents: `costPrice` (cents per piece, or per kg, l…) × its counts. A piece
 * line is exact; a measured line (counts are thousandths) is rounded half up to the whole shilling,
 * once per line: shared `lineAmount`'s rule for the line's price, so cost and revenue round alike
 * (0.5 kg at 2,800/kg costs 1,400; 0.333 kg at 1,500/kg, 499.50, costs 500).
 */
export const lineCost = (qty: string | RawBuilder<number>, costPrice: string, unit: RawBuilder<Unit>): RawBuilder<number> => {
  const exact = sql`${counts(qty)} * ${sql.ref(costPrice)}`;
  // cents × thousandths / 1000 = cents; to the shilling (100 cents) half up: ⌊(x + 50,000) / 100,000⌋ × 100.
  return sql<number>`case when ${isPiece(unit)} then ${exact} else (${exact} + 50000) / 100000 * 100 end`;
};
