/**
 * Every domain event the server publishes (design §3), in one map: event type → its `data`.
 * `publish` is checked against it at compile time and subscribers receive the matching data.
 * The stored and delivered JSON is `{ type, id, org_id, store_id, occurred_at, data }`; amounts in
 * `data` are in shillings (not cents), as the event contract has always carried them.
 */
import type { SaleSource, Unit } from '@duka/shared';
import type { TransactionTable } from '../db/tables/pos.table.js';

type Sale = Pick<TransactionTable, 'receipt_number' | 'customer_id'>;

/**
 * One line of a sale, with what the low-stock check needs: the level left after the whole sale.
 * Quantities in the product's `unit` (issue 51; whole for a piece product); `unit` absent on events
 * stored before it was carried: piece.
 */
export interface SaleEventLine {
  product_id: string;
  product_name: string;
  qty: number;
  unit?: Unit;
  stock_after: number | null;
  reorder_point: number | null;
  is_service: boolean;
}

export interface SaleCreated extends Sale {
  transaction_id: string;
  number: number;
  status: TransactionTable['status'];
  payment_method: TransactionTable['payment_method'];
  /** Shillings. */
  total: number;
  cashier_id: string | null;
  source: SaleSource;
  lines: SaleEventLine[];
}

/** A sale refunded or voided: which one, why, and what it was before. */
export interface SaleReversed extends Sale {
  transaction_id: string;
  /** Shillings. */
  total: number;
  reason: string;
  previous_status: TransactionTable['status'];
}

/** Part of a sale refunded, the sale still sold (issue 51); the refund that completes it is `transaction.refunded`. */
export interface SalePartlyRefunded extends Omit<SaleReversed, 'total'> {
  refund_id: string;
  /** Shillings given back by this refund. */
  amount: number;
  /** Quantities in the product's unit; amounts in shillings. */
  lines: Array<{ product_id: string; qty: number; unit: Unit; amount: number }>;
}

export interface EventDataMap {
  'transaction.created': SaleCreated;
  'transaction.refunded': SaleReversed;
  'transaction.partially_refunded': SalePartlyRefunded;
  'transaction.voided': SaleReversed;
}

export type EventType = keyof EventDataMap;

/** An event as stored and delivered; for a union of types, a union of events (narrow on `type`). */
export type DomainEvent<K extends EventType = EventType> = {
  [T in K]: { type: T; id: string; org_id: string; store_id: string | null; occurred_at: string; data: EventDataMap[T] };
}[K];

/** What a service hands to `publish`. */
export type NewEvent<K extends EventType = EventType> = {
  [T in K]: { type: T; orgId: string; storeId: string | null; data: EventDataMap[T] };
}[K];
