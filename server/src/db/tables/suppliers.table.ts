import type { DeliveryStatus, SupplierStatus } from '@duka/shared';
import type { Generated, Selectable } from 'kysely';

/** Organisation-wide; `deleted_at` set by DELETE (soft delete). */
export interface SupplierTable {
  id: string;
  org_id: string;
  name: string;
  category: string | null;
  rep: string | null;
  phone: string | null;
  email: string | null;
  address: string | null;
  /** Days. */
  payment_terms: number | null;
  /** Days from order to delivery (migration 0048); null: not said (reorder suggestions take 7). */
  lead_time_days: number | null;
  status: Generated<SupplierStatus>;
  notes: string | null;
  created_at: number;
  updated_at: number;
  deleted_at: number | null;
}

/**
 * Goods from a supplier to one store. Money in cents. What it still owes is
 * `total_value - paid_amount` while it is `delivered` or `partial` and `is_paid` is 0.
 * `stock_added_at` is set once, in the transaction that adds its lines to the store's stock.
 */
export interface DeliveryTable {
  id: string;
  org_id: string;
  store_id: string;
  supplier_id: string;
  invoice_number: string | null;
  delivery_date: number;
  items_count: Generated<number>;
  total_value: Generated<number>;
  status: Generated<DeliveryStatus>;
  is_paid: Generated<number>;
  paid_amount: Generated<number>;
  notes: string | null;
  stock_added_at: number | null;
  created_by: string | null;
  created_at: number;
  updated_at: number;
  deleted_at: number | null;
}

export interface DeliveryLineTable {
  /** The organisation, as its parent's (issue 36): a row placed by tenant finds its home without a join. */
  org_id: string;
  id: string;
  delivery_id: string;
  product_id: string;
  qty: number;
  unit_cost: number;
  /** 1: the product's cost_price becomes unit_cost when the stock is added. */
  update_cost: Generated<number>;
  /** Batch-tracked products: the lot and its expiry (`YYYY-MM-DD`). */
  lot_number: string | null;
  expiry_date: string | null;
  /** In packs (issue 51): the pack, and its counts as recorded; `qty` and `unit_cost` are then per pack. Null: in the product's unit. */
  pack_id: string | null;
  pack_units: number | null;
}

export interface SupplierPaymentTable {
  id: string;
  org_id: string;
  store_id: string;
  supplier_id: string;
  /** Set for a payment against one delivery; null for one against the supplier's balance. */
  delivery_id: string | null;
  amount: number;
  payment_method: string;
  reference: string | null;
  notes: string | null;
  paid_at: number;
  created_by: string | null;
  created_at: number;
}

/** How a payment was spread over deliveries (oldest first). */
export interface SupplierPaymentAllocationTable {
  /** The organisation, as its parent's (issue 36): a row placed by tenant finds its home without a join. */
  org_id: string;
  payment_id: string;
  delivery_id: string;
  amount: number;
}

export type SupplierRow = Selectable<SupplierTable>;
export type DeliveryRow = Selectable<DeliveryTable>;
export type DeliveryLineRow = Selectable<DeliveryLineTable>;
export type SupplierPaymentRow = Selectable<SupplierPaymentTable>;
