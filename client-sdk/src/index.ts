/**
 * @duka/client-sdk: what a till runs. A local SQLite replica of the shop, sales made and numbered
 * offline, a queue of mutations pushed in order when the network is there, and pulls of what
 * changed on the server. See client-sdk/README.md.
 *
 * This is the platform-neutral core, not an entry: it imports nothing of Node's, so the same code
 * runs in a browser. The package's entries add a `Till` on their platform: `node.ts` (better-sqlite3
 * files, `ws`) and `browser.ts` (a storage the page brings, the native WebSocket).
 */
export type { TillOptions } from './lifecycle.js';
export type { DialSocket, NetworkEvents, SocketEvents, TillPlatform, TillSocket } from './platform.js';
export type { ApiAnswer, ApiRequest, BootstrapAsk, RegisteredDevice, TillConnector } from './connector.js';
export { HttpConnector, type HttpConnectorOptions } from './http/connector.js';
export type { FetchLike } from './http/client.js';
export type { TillStorage } from './local/storage.js';
export { type LocalDb, openLocalDb } from './local/db.js';
export type { TillStatus } from './status.js';
export type {
  BootstrapProgress,
  NumberedReceipt,
  PaymentUpdate,
  RejectedMutation,
  SyncReport,
  TillConflict,
  TillEvents,
  UpdateRequired,
  HeldForServer,
} from './events.js';
export type {
  AskMobilePaymentInput,
  CreateCustomerInput,
  CreditPaymentInput,
  CreditPaymentReceipt,
  ListOptions,
  Receipt,
  RefundOptions,
  SaleLine,
  RetryMobilePaymentInput,
  SellInput,
  StockAdjustInput,
} from './types.js';
export type { HeldPayment, TillStockTake } from './local/meta.js';
export type { TillCount } from './actions/stock-take.js';
export type { ExchangeInput as TillExchangeInput, ExchangeReceipt } from './actions/exchange.js';
export { PushUnavailableError, type PushUnavailableReason } from './actions/mobile-money.js';
export type { CustomerSearch, ProductSearch, TransactionQuery } from './reads.js';
export type { QueuedMutation } from './queue.js';
export type { ExpenseReceipt } from './actions/expenses.js';
export type { TillUser } from './auth.js';
export type { BackoffOptions } from './sync/backoff.js';
export type { WhenSyncedOptions } from './sync/when-synced.js';
export { backoffDelay } from './sync/backoff.js';
export { localDate } from '@duka/shared';
export { TillError, NetworkError, type TillErrorCode } from './errors.js';
export { DukaApiError, toApiError } from './http/errors.js';
export { LOCAL_MIGRATIONS, migrateLocal } from './local/migrations.js';
