/**
 * The till: one object over the local replica, the queue and the sync loop. Everything a cashier
 * does works with the network down; the server is only needed to sign in, to fetch the catalogue
 * the first time, and to sync. This file is the selling API (local reads and queued actions);
 * status, sign-in, syncing and closing live in `lifecycle.ts`. Each entry (`node.ts`, `browser.ts`)
 * exports a subclass whose `open` brings its platform: where the replica lives and how to dial.
 */
import type {
  AddoMedicine,
  Batch,
  Category,
  CreateExpenseInput,
  CreateNoteInput,
  CreditTab,
  Customer,
  Note,
  Notification,
  Organisation,
  Product,
  ScannedProduct,
  Store,
  UpdateNoteInput,
  OpenShiftInput,
  CloseShiftInput,
  ShiftReport,
  TillShiftWithReport,
  PaymentRequest,
} from '@duka/shared';
import { reverseSale } from './actions/reverse.js';
import { type ExchangeInput, type ExchangeReceipt, exchangeOnTill } from './actions/exchange.js';
import { createCustomer, recordCreditPayment } from './actions/customers.js';
import type { ActionCtx } from './actions/context.js';
import { type ExpenseReceipt, recordExpense } from './actions/expenses.js';
import * as mobile from './actions/mobile-money.js';
import * as notes from './actions/notes.js';
import * as shifts from './actions/shifts.js';
import { markNotificationRead } from './actions/notifications.js';
import { sell } from './actions/sale/sell.js';
import { adjustStock } from './actions/stock.js';
import { countStock, openStockTakes, type TillCount, tillStockTakeTotals } from './actions/stock-take.js';
import type { TillUser } from './auth.js';
import type { PaymentUpdate, SyncReport, TillConflict, TillEvents } from './events.js';
import { TillLifecycle, type TillOptions } from './lifecycle.js';
import type { LocalDb } from './local/db.js';
import type { HeldPayment, TillStockTake } from './local/meta.js';
import type { TillPlatform } from './platform.js';
import { dismissRejected, type QueuedMutation } from './queue.js';
import * as reads from './reads.js';
import type { TillStatus } from './status.js';
import type { WhenSyncedOptions } from './sync/when-synced.js';
import type {
  AskMobilePaymentInput,
  CreateCustomerInput,
  CreditPaymentInput,
  CreditPaymentReceipt,
  ListOptions,
  Receipt,
  RefundOptions,
  RetryMobilePaymentInput,
  SellInput,
  StockAdjustInput,
} from './types.js';

export class Till {
  private readonly db: LocalDb;
  private readonly actions: ActionCtx;

  protected constructor(private readonly life: TillLifecycle) {
    this.db = life.db;
    this.actions = life.actions;
  }

  /** Open the till's replica (creating and migrating it as needed) on `platform` and, with `autoSync`, start syncing. */
  protected static async openOn(platform: TillPlatform, opts: TillOptions): Promise<Till> {
    return new this(await TillLifecycle.open(opts, platform));
  }

  /** This device's id: made once, kept in the replica, sent with every push. */
  get deviceId(): string {
    return this.life.deviceId;
  }

  // ── events and status ────────────────────────────────────────────────────────

  on<K extends keyof TillEvents>(event: K, fn: (...args: TillEvents[K]) => void): this {
    this.life.emitter.on(event, fn);
    return this;
  }
  off<K extends keyof TillEvents>(event: K, fn: (...args: TillEvents[K]) => void): this {
    this.life.emitter.off(event, fn);
    return this;
  }
  once<K extends keyof TillEvents>(event: K, fn: (...args: TillEvents[K]) => void): this {
    this.life.emitter.once(event, fn);
    return this;
  }

  /** Online or not, what waits in the queue, the last sync and its error. */
  status(): TillStatus {
    return this.life.status();
  }

  // ── sign-in ──────────────────────────────────────────────────────────────────

  /** Sign in with an email or phone and a password; registers the till and starts a sync. */
  login(identifier: string, password: string): Promise<TillUser> {
    return this.life.login(identifier, password);
  }
  /**
   * Sign in again without the network, on a till where this account signed in online with this
   * password before: checked against the till's own salted verifier, sent nowhere. The till sells;
   * syncing waits for an online `login` (`status().authRequired`).
   */
  loginOffline(identifier: string, password: string): Promise<TillUser> {
    return this.life.loginOffline(identifier, password);
  }
  /** Text a one-time sign-in code to `phone`. */
  requestOtp(phone: string): Promise<void> {
    return this.life.requestOtp(phone);
  }
  /** Sign in with the code from `requestOtp`. */
  loginWithOtp(phone: string, code: string): Promise<TillUser> {
    return this.life.loginWithOtp(phone, code);
  }
  /**
   * Set a new password for the user signed in (`PATCH /accounts/me`). A user who signed in with a
   * temporary password (`user.password_change_required`) must, before the till can sync; the till
   * then registers and syncs as after any sign-in, and keeps the new password for offline sign-in.
   */
  setPassword(password: string): Promise<TillUser> {
    return this.life.setPassword(password);
  }
  /** Sign out (the queue stays with the device and goes up at the next sign-in). */
  logout(): Promise<void> {
    return this.life.logout();
  }
  /** Who is (or was last) signed in on this till. */
  user(): Promise<TillUser | null> {
    return this.life.user();
  }

  // ── sync ─────────────────────────────────────────────────────────────────────

  /** Push the queue, then pull (bootstrapping first if needed). One sync at a time: a call during a sync gets the next one. */
  syncNow(): Promise<SyncReport> {
    return this.life.syncNow();
  }
  /**
   * Resolves once the queue is empty: every mutation pushed and answered (rejected ones are not
   * waited for; see `rejected()`), at once when nothing is pending. It does not start a sync:
   * with `autoSync` the till sends the queue itself, without it call `syncNow()`. Rejects with
   * `TillError` `TIMEOUT` after `timeoutMs`, with the signal's reason when `signal` is aborted,
   * and with `CLOSED` when the till closes.
   */
  whenSynced(o?: WhenSyncedOptions): Promise<void> {
    return this.life.whenSynced(o);
  }
  /** Sync on the timer, pokes and reconnection (the default with `autoSync`). */
  startSync(): void {
    this.life.startSync();
  }
  /** Stop automatic syncing (`syncNow` still works). */
  stopSync(): void {
    this.life.stopSync();
  }

  /** Abort requests in flight, stop syncing, wait for a running sync to unwind, close the replica. */
  close(): Promise<void> {
    return this.life.close();
  }

  // ── local reads ──────────────────────────────────────────────────────────────

  product(id: string): Promise<Product | null> {
    return reads.productById(this.db, id);
  }
  /**
   * By barcode, then SKU, then as a shop-scale label of the organisation (`scale_barcodes`, pulled
   * with it): the product with `scale_label` (its quantity, and a price label's amount). Offline too.
   */
  productByCode(code: string): Promise<ScannedProduct | null> {
    return reads.productByCode(this.db, code);
  }
  /** Active products whose name, SKU or generic name contains `query` (any case), by name. */
  searchProducts(query: string, o?: reads.ProductSearch): Promise<Product[]> {
    return reads.searchProducts(this.db, query, o);
  }
  categories(): Promise<Category[]> {
    return reads.categories(this.db);
  }
  /** The till's store's level of a product, as the till knows it. */
  stock(productId: string): Promise<number | null> {
    return reads.stockOf(this.db, productId);
  }
  /** The store's batches as the till knows them (quantities moved by its own sales until synced), by expiry. */
  batches(o?: { product_id?: string; status?: Batch['status'] }): Promise<Batch[]> {
    return reads.batches(this.db, o);
  }
  /** An ADDO till's copy of the ADDO-permitted list and the list version it came with (undefined: never fetched). */
  addoList(): Promise<{ version: number | undefined; entries: AddoMedicine[] }> {
    return reads.addoList(this.db);
  }
  /** Customers with what they owe (`outstanding_balance`). */
  customers(o?: reads.CustomerSearch): Promise<Customer[]> {
    return reads.customers(this.db, o);
  }
  customer(id: string): Promise<Customer | null> {
    return reads.customerById(this.db, id);
  }
  /** Open and partly paid tabs of the store, oldest first. */
  creditTabs(customerId?: string): Promise<CreditTab[]> {
    return reads.creditTabs(this.db, customerId);
  }
  /** Recent sales of the store (30 days) and every sale of this till not yet synced, newest first. */
  recentTransactions(o?: reads.TransactionQuery): Promise<Receipt[]> {
    return reads.recentTransactions(this.db, o);
  }
  transaction(id: string): Promise<Receipt | null> {
    return reads.transactionById(this.db, id);
  }
  notifications(o?: ListOptions & { unread?: boolean }): Promise<Notification[]> {
    return reads.notifications(this.db, o);
  }
  /** Differences the server noted while booking this till's offline work, newest first. */
  conflicts(o?: ListOptions): Promise<TillConflict[]> {
    return reads.conflicts(this.db, o);
  }
  /**
   * Take a conflict off this till's list once the cashier has read it (the owner still sees and
   * resolves it on the server: `GET /sync/conflicts`); false if there is no such conflict here.
   */
  async dismissConflict(id: string): Promise<boolean> {
    const res = await this.db.deleteFrom('conflicts').where('id', '=', id).executeTakeFirst();
    return Number(res.numDeletedRows) > 0;
  }
  /** Mutations the server refused, with its reason. */
  rejected(): Promise<QueuedMutation[]> {
    return reads.rejected(this.db);
  }
  /** Drop a rejected mutation from the list once it has been dealt with; false if it is not a rejected one. */
  async dismissRejected(mutationId: string): Promise<boolean> {
    const gone = await dismissRejected(this.db, mutationId);
    await this.life.refreshCounts();
    return gone;
  }
  /** The store's notes, last edited first (optionally with a tag). */
  notes(o?: { tag?: string }): Promise<Note[]> {
    return notes.listNotes(this.db, o);
  }
  note(id: string): Promise<Note | null> {
    return notes.getNote(this.db, id);
  }
  organisation(): Promise<Organisation | null> {
    return reads.organisation(this.db);
  }
  store(): Promise<Store | null> {
    return reads.store(this.db);
  }

  // ── selling and other queued actions ────────────────────────────────────────

  /** Make a sale from the replica: the full receipt at once, queued for the server. */
  sell(input: SellInput): Promise<Receipt> {
    return this.life.guard(() => sell(this.actions, input));
  }
  /**
   * Refund a sale offline: the whole of it (or all that is left of one refunded in part), or with
   * `opts.lines` only those lines and quantities (issue 51: docs/pos.md "Refunding part of a sale").
   */
  refund(transactionId: string, reason: string, opts: RefundOptions = {}): Promise<Receipt> {
    return this.life.guard(() => reverseSale(this.actions, 'refund', transactionId, reason, opts.lines));
  }
  /**
   * Exchange offline too (issue 52, docs/pos.md "Exchanges"): `back` lines of the sale return as a
   * refund of part of it, `out` lines are sold, paid first by what came back and then by the
   * difference (`payment_method` / `payments`); queued as one `sale.exchange` (a server on protocol 4).
   */
  exchange(transactionId: string, reason: string, input: ExchangeInput): Promise<ExchangeReceipt> {
    return this.life.guard(() => exchangeOnTill(this.actions, transactionId, reason, input));
  }
  void(transactionId: string, reason: string): Promise<Receipt> {
    return this.life.guard(() => reverseSale(this.actions, 'void', transactionId, reason));
  }
  createCustomer(input: CreateCustomerInput): Promise<Customer> {
    return this.life.guard(() => createCustomer(this.actions, input));
  }
  recordCreditPayment(input: CreditPaymentInput): Promise<CreditPaymentReceipt> {
    return this.life.guard(() => recordCreditPayment(this.actions, input));
  }
  /** Answers the product's new local level. */
  adjustStock(input: StockAdjustInput): Promise<number> {
    return this.life.guard(() => adjustStock(this.actions, input));
  }
  // ── stock-takes (issue 52) ───────────────────────────────────────────────────

  /** The store's open stock-takes: fetched when the server answers and kept, so counting goes on offline. */
  openStockTakes(): Promise<TillStockTake[]> {
    return this.life.guard(() => openStockTakes(this.db, this.life.auth));
  }
  /**
   * Count a product in an open stock-take, offline too (queued as `stock_take.count`): scanning is
   * `count(id, barcode)`, each scan adding 1 (a pack's barcode the pack's units); a typed `qty` is in
   * the product's unit (2.375 kg). Counts from several tills are summed on the server.
   */
  count(stockTakeId: string, productIdOrCode: string, qty?: number): Promise<TillCount> {
    return this.life.guard(() => countStock(this.actions, stockTakeId, productIdOrCode, qty));
  }
  /** What this till has counted in a stock-take so far, per product id in the product's unit, offline too (queued and sent counts). */
  stockTakeTotals(stockTakeId: string): Promise<Record<string, number>> {
    return this.life.guard(() => tillStockTakeTotals(this.db, stockTakeId));
  }
  markNotificationRead(id: string): Promise<void> {
    return this.life.guard(() => markNotificationRead(this.actions, id));
  }
  // ── mobile money (issue 38) ──────────────────────────────────────────────────

  /**
   * Ask the customer's phone for the sale's payment (online only): answers the request, awaiting
   * the customer, whose id is the sale's. Offline, or in a store without a collection account, it
   * throws `PushUnavailableError` (PUSH_UNAVAILABLE): sell with `payment_phone` and the SMS reference.
   */
  askMobilePayment(input: AskMobilePaymentInput): Promise<PaymentRequest> {
    return this.life.guard(() => mobile.askMobilePayment(this.life.payments, input));
  }
  /** Every change of a push this till asked for (websocket, polling, reconnect); answers the unsubscribe. */
  onPayment(listener: (update: PaymentUpdate) => void): () => void {
    this.on('payment', listener);
    return () => void this.off('payment', listener);
  }
  /** The request as the server has it now, its booked sale once paid. */
  paymentRequest(id: string): Promise<PaymentRequest> {
    return this.life.guard(() => mobile.paymentRequest(this.life.payments, id));
  }
  /** The pushes this till asked for and still follows (not paid, not sold otherwise), oldest first. */
  pendingMobilePayments(): Promise<HeldPayment[]> {
    return mobile.mobilePayments(this.life.payments);
  }
  /** Cancel a push still awaiting (stock back); if the customer paid first, answers the paid request. */
  cancelMobilePayment(id: string): Promise<PaymentRequest> {
    return this.life.guard(() => mobile.cancelMobilePayment(this.life.payments, id));
  }
  /** Ask again after a failed, expired or cancelled push, optionally of another number or wallet. */
  retryMobilePayment(id: string, input?: RetryMobilePaymentInput): Promise<PaymentRequest> {
    return this.life.guard(() => mobile.retryMobilePayment(this.life.payments, id, input));
  }
  /** Cancel the push, then sell the same lines for cash under the same id (offline once the server has the cancel). */
  payCashInstead(id: string, o?: { cash_tendered?: number }): Promise<Receipt> {
    return this.life.guard(() => mobile.payCashInstead(this.life.payments, id, o));
  }

  // ── shifts and cash-up ───────────────────────────────────────────────────────

  /** Open a shift for the signed-in cashier with a float (queued as `shift.open`); what they do until it closes belongs to it. */
  openShift(input: OpenShiftInput): Promise<TillShiftWithReport> {
    return this.life.guard(() => shifts.openShift(this.actions, input));
  }
  /** The signed-in cashier's open shift on this till with its X report, or null. */
  currentShift(): Promise<TillShiftWithReport | null> {
    return shifts.currentShift(this.db);
  }
  /** Close the open shift with what was counted (queued as `shift.close`): the Z report as the till works it out. */
  closeShift(input: CloseShiftInput): Promise<TillShiftWithReport> {
    return this.life.guard(() => shifts.closeShift(this.actions, input));
  }
  /** The open shift's X report, worked out offline from the replica by the server's rule; null when none is open. */
  shiftReport(): Promise<ShiftReport | null> {
    return shifts.shiftReport(this.db);
  }

  /** Record money spent (queued as `expense.create`). */
  recordExpense(input: CreateExpenseInput): Promise<ExpenseReceipt> {
    return this.life.guard(() => recordExpense(this.actions, input));
  }
  /** A new note in the store's notebook (queued as `note.update`). */
  createNote(input: CreateNoteInput): Promise<Note> {
    return this.life.guard(() => notes.createNote(this.actions, input));
  }
  /** Edit a note: `content` is the whole new text; only the difference is sent and merged. */
  updateNote(id: string, input: UpdateNoteInput): Promise<Note> {
    return this.life.guard(() => notes.updateNote(this.actions, id, input));
  }
}
