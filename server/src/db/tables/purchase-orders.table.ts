/** Purchase orders (issue 52, migration 0047): docs/back-office.md "Purchase orders". Quantities in counts (shared units.ts). */
import type { Selectable } from 'kysely';

export type PurchaseOrderStatus = 'draft' | 'sent' | 'partly_received' | 'received' | 'cancelled';

export interface PurchaseOrderTable {
  org_id: string;
  id: string;
  /** The store it is ordered for (the creator's active store): its deliveries are received there. */
  store_id: string;
  supplier_id: string;
  status: PurchaseOrderStatus;
  note: string | null;
  /** Cents: the lines' expected cost, as ordered. */
  total_value: number;
  /** The SMS to the supplier in the outbox, and the number it went to; null until sent. */
  outbox_id: string | null;
  sent_to: string | null;
  sent_at: number | null;
  cancelled_at: number | null;
  created_by: string | null;
  created_at: number;
  updated_at: number;
}

/** `qty` and `received` in counts of the product (a pack's counts included); `unit_cost` in cents, per pack for a line by the pack. */
export interface PurchaseOrderLineTable {
  org_id: string;
  id: string;
  purchase_order_id: string;
  /** The line's place in the order, as given. */
  position: number;
  product_id: string;
  pack_id: string | null;
  /** Counts in one pack, as it was when ordered. */
  pack_units: number | null;
  qty: number;
  unit_cost: number;
  received: number;
}

/** A delivery that received (part of) an order. */
export interface PurchaseOrderDeliveryTable {
  org_id: string;
  purchase_order_id: string;
  delivery_id: string;
  received_at: number;
}

export type PurchaseOrderRow = Selectable<PurchaseOrderTable>;
export type PurchaseOrderLineRow = Selectable<PurchaseOrderLineTable>;
