import type { DosageForm, DrugSchedule, TaxCode, Unit } from '@duka/shared';
import type { Generated, Selectable } from 'kysely';

export interface CategoryTable {
  id: string;
  org_id: string;
  name: string;
  description: string | null;
  sort_order: Generated<number>;
  is_active: Generated<number>;
  created_at: number;
  updated_at: number;
}

/** Prices in cents; tax_rate in basis points (1800 = 18 %). */
export interface ProductTable {
  id: string;
  org_id: string;
  category_id: string | null;
  name: string;
  sku: string | null;
  barcode: string | null;
  cost_price: Generated<number>;
  selling_price: Generated<number>;
  wholesale_price: number | null;
  wholesale_min_qty: number | null;
  tax_rate: Generated<number>;
  /** TRA tax code; null: from the store's VAT and tax_rate (taxCodeOf). */
  tax_code: TaxCode | null;
  reorder_point: Generated<number>;
  /** `piece` or a measure (issue 51): every quantity of the product is in its counts (shared `unitScale`). */
  unit: Generated<Unit>;
  /** A URL elsewhere on the web; null when the image is an upload (image_key) or none. */
  /** The item code a shop scale prints in its labels (migration 0042; digits, unique in the organisation). */
  scale_code: string | null;
  image: string | null;
  /** The storage key of the organisation's uploaded image (migration 0038): its address is built when answering. */
  image_key: string | null;
  description: string | null;
  is_service: Generated<number>;
  is_active: Generated<number>;
  /** Medicine fields: a product with a schedule is a medicine. */
  generic_name: string | null;
  strength: string | null;
  dosage_form: DosageForm | null;
  schedule: DrugSchedule | null;
  track_batches: Generated<number>;
  /** Null: the organisation's default. */
  expiry_alert_days: number | null;
  created_at: number;
  updated_at: number;
}

export interface ProductStockTable {
  /** The organisation, as its parent's (issue 36): a row placed by tenant finds its home without a join. */
  org_id: string;
  store_id: string;
  product_id: string;
  qty: Generated<number>;
  updated_at: number;
}

/** One row per price change; the row in force at time T has the largest effective_from <= T. */
export interface ProductPriceTable {
  id: string;
  org_id: string;
  product_id: string;
  selling_price: number;
  wholesale_price: number | null;
  cost_price: number;
  tax_rate: number;
  effective_from: number;
  changed_by: string | null;
}

/** A pack of a product (issue 51): `units` in the product's counts, `selling_price` in cents (null: units × the unit price). */
export interface ProductPackTable {
  org_id: string;
  id: string;
  product_id: string;
  name: string;
  units: number;
  barcode: string | null;
  selling_price: number | null;
  created_at: number;
  updated_at: number;
}

export interface StockAdjustmentTable {
  id: string;
  org_id: string;
  store_id: string;
  product_id: string;
  qty_change: number;
  qty_after: number;
  reason: string;
  note: string | null;
  adjusted_by: string | null;
  created_at: number;
}

export type CategoryRow = Selectable<CategoryTable>;
export type ProductRow = Selectable<ProductTable>;
export type ProductPackRow = Selectable<ProductPackTable>;
export type StockAdjustmentRow = Selectable<StockAdjustmentTable>;

/**
 * A transfer between two stores of the organisation (issue 54, migration 0052): `lines` is JSON,
 * `[{ product_id, name, unit, qty }]` with `qty` in counts (shared units.ts); each line is also a
 * `transfer_out` adjustment in the store it left and a `transfer_in` one in the store it reached.
 */
export interface StockTransferTable {
  org_id: string;
  id: string;
  from_store_id: string;
  to_store_id: string;
  lines: string;
  note: string | null;
  created_by: string | null;
  created_at: number;
}
