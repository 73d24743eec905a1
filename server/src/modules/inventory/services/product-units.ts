/**
 * A product's quantities in its unit (issue 51): `stock`, `reorder_point` and `wholesale_min_qty`
 * come in the product's unit (whole for a piece product, up to 3 decimals for a measured one) and
 * are stored as integer counts (shared/src/inventory/units.ts). The unit itself is fixed once the
 * product has any history: every stored count of it means thousandths of a kg or pieces, and a sale
 * line's quantity is read in its product's unit, so a later change would rewrite what was sold.
 */
import { fromCount, isMeasured, quantityFault, toCount, type Unit, type UpdateProductInput } from '@duka/shared';
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/database.js';
import type { ProductRow } from '../../../db/tables/inventory.table.js';
import { BusinessRuleError, ValidationError } from '../../../lib/errors.js';
import { productHasHistory } from '../product-history.queries.js';
import { countOf } from '../../stock-levels/stock-levels.exports.js';

/** The reorder point a new product gets when none is given (the column's default, in pieces), in its own unit. */
const DEFAULT_REORDER_POINT = 5;

const QUANTITY_FIELDS = ['stock', 'reorder_point', 'wholesale_min_qty'] as const;

export interface ProductCounts {
  unit?: Unit;
  stock?: number;
  reorder_point?: number;
  wholesale_min_qty?: number | null;
}

/**
 * The input's quantities as counts of the unit the product will have. When the unit changes (a
 * product with no history), a quantity not given keeps its value in units (a reorder point of 5
 * stays 5, now kg), or is refused when the new unit cannot hold it (0.5 kg to pieces).
 */
export function productCounts(input: UpdateProductInput, before: ProductRow | null): ProductCounts {
  const unit = input.unit ?? before?.unit ?? 'piece';
  const out: ProductCounts = {};
  if (input.unit !== undefined && input.unit !== before?.unit) out.unit = input.unit;
  for (const field of QUANTITY_FIELDS) {
    const given = input[field];
    if (given === null) out[field as 'wholesale_min_qty'] = null;
    else if (given !== undefined) out[field] = countOf(given, unit, field);
  }
  // The table's default reorder point is 5 counts: 5 pieces, but 5 g of a kg product; so 5 of the unit.
  if (!before && input.reorder_point === undefined && isMeasured(unit)) out.reorder_point = toCount(DEFAULT_REORDER_POINT, unit);
  if (before && out.unit) {
    for (const field of ['reorder_point', 'wholesale_min_qty'] as const) {
      const kept = before[field];
      if (input[field] !== undefined || kept == null || kept === 0) continue;
      const qty = fromCount(kept, before.unit);
      if (quantityFault(qty, unit))
        throw new ValidationError(field, `${qty} ${before.unit} is not a quantity of ${unit}: give ${field} with the new unit`);
      out[field] = toCount(qty, unit);
    }
  }
  return out;
}

/**
 * A unit may change only while the product has no history: no sale line, stock adjustment,
 * delivery line or lot movement, and no stock in any store. 409: the counts already kept of it
 * are in its present unit. Checked inside the write's transaction, so a sale committing meanwhile is seen.
 */
export async function assertUnitMayChange(db: Kysely<Database>, orgId: string, product: ProductRow, unit: Unit | undefined) {
  if (unit === undefined || unit === product.unit) return;
  if (await productHasHistory(db, orgId, product.id))
    throw new BusinessRuleError(
      `unit cannot change from ${product.unit} to ${unit}: ${product.name} already has sales or stock movements kept in ${product.unit}; create a new product for the new unit`,
      'CONFLICT',
      'unit',
    );
}
