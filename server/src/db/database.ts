/** The whole schema as Kysely sees it, composed from each area's table file. */
import type { AiCreditUsageTable, OrganisationTable, UserTable } from '../modules/accounts/accounts.table.js';
import type { OtpTable, RefreshTokenTable } from '../modules/auth/auth.table.js';
import type { CategoryTable, ProductPriceTable, ProductStockTable, ProductTable, StockAdjustmentTable } from '../modules/inventory/inventory.table.js';
import type { IdempotencyKeyTable, StockQuarantineTable, TransactionLineTable, TransactionTable } from '../modules/pos/pos.table.js';
import type { CustomerTable } from '../modules/customers/customers.table.js';
import type { CreditAllocationTable, CreditMessageTable, CreditNoteTable, CreditPaymentTable, CreditTabTable } from '../modules/credits/credits.table.js';
import type { NotificationTable } from '../modules/notifications/notifications.table.js';
import type { EventDeliveryTable, EventTable } from '../modules/events/events.table.js';
import type { DeviceTable, SyncConflictTable, SyncMutationTable } from '../sync/sync.table.js';
import type { ChangeLogFloorTable } from '../sync/pull/pull.table.js';
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
  customers: CustomerTable;
  credit_tabs: CreditTabTable;
  credit_payments: CreditPaymentTable;
  credit_allocations: CreditAllocationTable;
  credit_messages: CreditMessageTable;
  credit_notes: CreditNoteTable;
  notifications: NotificationTable;
  idempotency_keys: IdempotencyKeyTable;
  events: EventTable;
  event_deliveries: EventDeliveryTable;
  stock_quarantine: StockQuarantineTable;
  devices: DeviceTable;
  sync_mutations: SyncMutationTable;
  sync_conflicts: SyncConflictTable;
  change_log_floor: ChangeLogFloorTable;
}
