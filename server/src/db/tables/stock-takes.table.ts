/** Stock-takes (issue 52, migration 0046): docs/inventory.md "Stock-takes". Quantities in counts (shared units.ts). */
import type { Selectable } from 'kysely';

export type StockTakeScope = 'all' | 'category' | 'products';
export type StockTakeStatus = 'open' | 'applied' | 'cancelled';

export interface StockTakeTable {
  org_id: string;
  id: string;
  store_id: string;
  scope: StockTakeScope;
  category_id: string | null;
  status: StockTakeStatus;
  /** What apply did with products nobody counted: `leave` or `zero`; null until applied. */
  uncounted: 'leave' | 'zero' | null;
  note: string | null;
  opened_by: string | null;
  opened_at: number;
  /** Who applied or cancelled it, and when. */
  closed_by: string | null;
  closed_at: number | null;
}

/** A product in a count's scope: `expected` the store's level when its first count arrived, `counted` the counts summed. */
export interface StockTakeLineTable {
  org_id: string;
  stock_take_id: string;
  product_id: string;
  expected: number | null;
  counted: number;
  first_counted_at: number | null;
  /** The adjustment apply posted (0 when none was needed); null before apply or when left alone. */
  change: number | null;
  /** Cents per unit the variance was valued at, frozen at apply. */
  cost_price: number | null;
}

/** One count a counter sent: `id` made by the till, so a replay is recognised and not added twice. */
export interface StockTakeCountTable {
  org_id: string;
  id: string;
  stock_take_id: string;
  product_id: string;
  qty: number;
  counted_at: number;
  device_id: string | null;
  counted_by: string | null;
  received_at: number;
}

export type StockTakeRow = Selectable<StockTakeTable>;
export type StockTakeLineRow = Selectable<StockTakeLineTable>;
