/**
 * Daily rollups of the sales ledger for owner analytics (migration 0011), refreshed at read time
 * from the change log (services/rollups.ts). `day` is the local date `YYYY-MM-DD` in the time zone
 * recorded in `analytics_rollup_state`; money in cents.
 */

/** Per store, local day, payment method and cashier (`''` = no recorded cashier). */
export interface SalesDailyTable {
  org_id: string;
  store_id: string;
  day: string;
  payment_method: string;
  cashier_id: string;
  /** `paid` and `credit` sales: count, Σ total, Σ tax (VAT), Σ discount. */
  sales_count: number;
  revenue: number;
  vat: number;
  discount: number;
  /** Over the lines of those sales: items (pieces, one per measured line), Σ (line total − line discount − line tax), Σ line cost (stock-levels/unit-rules.ts). */
  items: number;
  net: number;
  cost: number;
  /** Sales made that day that are now refunded / voided: count and Σ total. */
  refund_count: number;
  refund_total: number;
  void_count: number;
  void_total: number;
}

/** Lines of `paid` and `credit` sales per store, local day and product. */
export interface SalesDailyProductTable {
  org_id: string;
  store_id: string;
  day: string;
  product_id: string;
  qty: number;
  /** Σ line total − line discount (VAT included). */
  revenue: number;
  /** revenue − Σ line tax. */
  net: number;
  cost: number;
}

/** Per organisation: the change-log version already folded into the rollups and the time zone the days were cut in (null = never built). */
export interface AnalyticsRollupStateTable {
  org_id: string;
  version: number;
  time_zone: string | null;
}
