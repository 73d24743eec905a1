/** The whole schema as Kysely sees it, composed from the table files in ./tables (one per area). */
import type { Kysely } from 'kysely';
import type { AiCreditUsageTable, OrganisationTable, UserTable } from './tables/accounts.table.js';
import type { AuthCounterTable, OtpTable, RefreshTokenTable } from './tables/auth.table.js';
import type {
  CategoryTable,
  ProductPackTable,
  ProductPriceTable,
  ProductStockTable,
  ProductTable,
  StockAdjustmentTable,
  StockTransferTable,
} from './tables/inventory.table.js';
import type {
  IdempotencyKeyTable,
  RefundLineTable,
  RefundPartTable,
  RefundTable,
  StockQuarantineTable,
  TransactionLineTable,
  TransactionPaymentTable,
  TransactionTable,
} from './tables/pos.table.js';
import type { StockTakeCountTable, StockTakeLineTable, StockTakeTable } from './tables/stock-takes.table.js';
import type { PurchaseOrderDeliveryTable, PurchaseOrderLineTable, PurchaseOrderTable } from './tables/purchase-orders.table.js';
import type { CustomerTable } from './tables/customers.table.js';
import type {
  CreditAllocationTable,
  CreditMessageTable,
  CreditNoteTable,
  CreditPaymentTable,
  CreditTabTable,
} from './tables/credits.table.js';
import type { NotificationTable } from './tables/notifications.table.js';
import type {
  DeliveryLineTable,
  DeliveryTable,
  SupplierPaymentAllocationTable,
  SupplierPaymentTable,
  SupplierTable,
} from './tables/suppliers.table.js';
import type { ExpenseTable } from './tables/expenses.table.js';
import type { NoteTable, NoteTagTable } from './tables/notebook.table.js';
import type { UploadTable } from './tables/uploads.table.js';
import type { ReviewTable } from './tables/reviews.table.js';
import type { EventDeliveryTable, EventTable } from './tables/events.table.js';
import type { DeviceTable, SyncConflictTable, SyncMutationTable } from './tables/sync.table.js';
import type { ChangeLogFloorTable } from './tables/pull.table.js';
import type { StoreTable } from './tables/stores.table.js';
import type { OutboxTable } from './tables/outbox.table.js';
import type { ReportExportTable, ScheduledReportTable } from './tables/reports.table.js';
import type { AuditLogTable } from './tables/audit.table.js';
import type { AnalyticsRollupStateTable, SalesDailyProductTable, SalesDailyTable } from './tables/analytics.table.js';
import type { AgentActionTable, AgentConversationTable, AgentTurnTable, AiConversationTable, AiMessageTable } from './tables/ai.table.js';
import type { ChangeLogTable } from './tables/change-log.table.js';
import type { AddoListChangeTable, AddoListStateTable, AddoMedicineTable } from './tables/pharmacy.table.js';
import type { BatchMovementTable, BatchTable, RecallTable } from './tables/batches.table.js';
import type { PrescriptionItemTable, PrescriptionTable } from './tables/prescriptions.table.js';
import type { FiscalDeviceTable, FiscalReceiptTable, FiscalZReportTable } from './tables/fiscal.table.js';
import type { JobLeaseTable } from './tables/leases.table.js';
import type { PlatformSettingTable } from './tables/platform.table.js';
import type { ShiftCountTable, ShiftTable } from './tables/shifts.table.js';
import type { CollectionAccountTable, PaymentRequestTable, ReceivedPaymentTable } from './tables/collection.table.js';
import type { InvoiceTable, PaymentTable, PlanTable, SubscriptionEventTable, SubscriptionTable } from './tables/billing.table.js';

export interface Database {
  organisations: OrganisationTable;
  stores: StoreTable;
  users: UserTable;
  refresh_tokens: RefreshTokenTable;
  otps: OtpTable;
  auth_counters: AuthCounterTable;
  job_leases: JobLeaseTable;
  platform_settings: PlatformSettingTable;
  outbox: OutboxTable;
  change_log: ChangeLogTable;
  audit_log: AuditLogTable;
  plans: PlanTable;
  subscriptions: SubscriptionTable;
  invoices: InvoiceTable;
  payments: PaymentTable;
  subscription_events: SubscriptionEventTable;
  ai_credit_usage: AiCreditUsageTable;
  categories: CategoryTable;
  products: ProductTable;
  product_stock: ProductStockTable;
  product_prices: ProductPriceTable;
  product_packs: ProductPackTable;
  stock_adjustments: StockAdjustmentTable;
  stock_transfers: StockTransferTable;
  transactions: TransactionTable;
  transaction_lines: TransactionLineTable;
  transaction_payments: TransactionPaymentTable;
  refunds: RefundTable;
  refund_lines: RefundLineTable;
  refund_parts: RefundPartTable;
  stock_takes: StockTakeTable;
  stock_take_lines: StockTakeLineTable;
  stock_take_counts: StockTakeCountTable;
  purchase_orders: PurchaseOrderTable;
  purchase_order_lines: PurchaseOrderLineTable;
  purchase_order_deliveries: PurchaseOrderDeliveryTable;
  shifts: ShiftTable;
  shift_counts: ShiftCountTable;
  collection_accounts: CollectionAccountTable;
  received_payments: ReceivedPaymentTable;
  payment_requests: PaymentRequestTable;
  fiscal_devices: FiscalDeviceTable;
  fiscal_receipts: FiscalReceiptTable;
  fiscal_z_reports: FiscalZReportTable;
  customers: CustomerTable;
  credit_tabs: CreditTabTable;
  credit_payments: CreditPaymentTable;
  credit_allocations: CreditAllocationTable;
  credit_messages: CreditMessageTable;
  credit_notes: CreditNoteTable;
  notifications: NotificationTable;
  suppliers: SupplierTable;
  deliveries: DeliveryTable;
  delivery_lines: DeliveryLineTable;
  supplier_payments: SupplierPaymentTable;
  supplier_payment_allocations: SupplierPaymentAllocationTable;
  expenses: ExpenseTable;
  notes: NoteTable;
  note_tags: NoteTagTable;
  uploads: UploadTable;
  reviews: ReviewTable;
  idempotency_keys: IdempotencyKeyTable;
  events: EventTable;
  event_deliveries: EventDeliveryTable;
  stock_quarantine: StockQuarantineTable;
  devices: DeviceTable;
  sync_mutations: SyncMutationTable;
  sync_conflicts: SyncConflictTable;
  change_log_floor: ChangeLogFloorTable;
  report_exports: ReportExportTable;
  scheduled_reports: ScheduledReportTable;
  sales_daily: SalesDailyTable;
  sales_daily_products: SalesDailyProductTable;
  analytics_rollup_state: AnalyticsRollupStateTable;
  ai_conversations: AiConversationTable;
  ai_messages: AiMessageTable;
  agent_conversations: AgentConversationTable;
  agent_turns: AgentTurnTable;
  agent_actions: AgentActionTable;
  addo_medicines: AddoMedicineTable;
  addo_list_changes: AddoListChangeTable;
  addo_list_state: AddoListStateTable;
  batches: BatchTable;
  batch_movements: BatchMovementTable;
  recalls: RecallTable;
  prescriptions: PrescriptionTable;
  prescription_items: PrescriptionItemTable;
}

/** Run `fn` in a transaction and commit it durably before resolving. */
export type Transact = <T>(fn: (trx: Kysely<Database>) => Promise<T>) => Promise<T>;
