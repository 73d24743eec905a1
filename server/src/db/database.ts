/** The whole schema as Kysely sees it, composed from each area's table file. */
import type { AiCreditUsageTable, OrganisationTable, UserTable } from '../modules/accounts/accounts.table.js';
import type { OtpTable, RefreshTokenTable } from '../modules/auth/auth.table.js';
import type { CategoryTable, ProductPriceTable, ProductStockTable, ProductTable, StockAdjustmentTable } from '../modules/inventory/inventory.table.js';
import type { TransactionLineTable, TransactionTable } from '../modules/pos/pos.table.js';
import type { StoreTable } from '../modules/stores/stores.table.js';
import type { OutboxTable } from '../messaging/outbox.table.js';
import type { AuditLogTable } from '../lib/audit.js';
import type { ChangeLogTable } from './change-log.js';

export interface Database {
  organisations: OrganisationTable;
  stores: StoreTable;
  users: UserTable;
  refresh_tokens: RefreshTokenTable;
  otps: OtpTable;
  outbox: OutboxTable;
  change_log: ChangeLogTable;
  audit_log: AuditLogTable;
  ai_credit_usage: AiCreditUsageTable;
  categories: CategoryTable;
  products: ProductTable;
  product_stock: ProductStockTable;
  product_prices: ProductPriceTable;
  stock_adjustments: StockAdjustmentTable;
  transactions: TransactionTable;
  transaction_lines: TransactionLineTable;
}
