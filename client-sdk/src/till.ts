/**
 * The till: one object over the local replica, the queue and the sync loop. Everything a cashier
 * does works with the network down; the server is only needed to sign in, to fetch the catalogue
 * the first time, and to sync.
 */
import type { Category, CreateExpenseInput, CreateNoteInput, CreditTab, Customer, Note, Notification, Organisation, Product, Store, UpdateNoteInput } from '@duka/shared';
import { newId } from '@duka/shared';
import { reverseSale } from './actions/reverse.js';
import { createCustomer, recordCreditPayment } from './actions/customers.js';
import type { ActionCtx } from './actions/context.js';
import { type ExpenseReceipt, recordExpense } from './actions/expenses.js';
import * as notes from './actions/notes.js';
import { markNotificationRead } from './actions/notifications.js';
import { sell } from './actions/sell.js';
import { adjustStock } from './actions/stock.js';
import { AuthSession, type TillUser } from './auth.js';
import { TillError } from './errors.js';
import { type SyncReport, type TillConflict, type TillEvents, TypedEmitter } from './events.js';
import { type FetchLike, HttpClient } from './http/client.js';
import { checkpoint, type LocalDb, openLocalDb } from './local/db.js';
import { getMeta, setMeta } from './local/meta.js';
import { migrateLocal } from './local/migrations.js';
import { dismissRejected, pendingCount, type QueuedMutation, rejectedCount } from './queue.js';
import * as reads from './reads.js';
import { initialStatus, type TillStatus } from './status.js';
import type { BackoffOptions } from './sync/backoff.js';
import type { SyncCtx } from './sync/context.js';
import { registerDevice } from './sync/device.js';
import { SyncEngine } from './sync/engine.js';
import { RealtimeLink } from './sync/realtime.js';
import type { CreateCustomerInput, CreditPaymentInput, CreditPaymentReceipt, ListOptions, Receipt, SellInput, StockAdjustInput } from './types.js';

export interface TillOptions {
  /** The API root including its base path, e.g. `http://192.168.1.10:8080/api/v1`. */
  baseUrl: string;
  /** The replica's SQLite file (created if missing; `:memory:` for a throwaway till). */
  dbPath: string;
  /** How the device is named on the server (e.g. `Counter 1`). */
  deviceName: string;
  /** Sync on a timer, on websocket pokes and when the network returns (default true). */
  autoSync?: boolean;
  /** Time between automatic syncs (default 30 000 ms). */
  syncIntervalMs?: number;
  /** Retry delays after a failed sync (default 1 s doubling to 60 s, with jitter, never giving up). */
  backoff?: BackoffOptions;
  /** Listen on the server's websocket for pokes when `autoSync` (default true). */
  realtime?: boolean;
  /** Per-request timeout (default 15 000 ms). */
  requestTimeoutMs?: number;
  /** Refresh the access token this long before it expires (default 60 000 ms). */
  refreshMarginMs?: number;
  /** Page sizes: push ≤ 100 mutations (server max 500), pull 500 changes, bootstrap 1000 rows. */
  pushBatchSize?: number;
  pullPageSize?: number;
  bootstrapPageSize?: number;
  /** For tests and embedding: the fetch to use, the clock (epoch ms), the jitter source. */
  fetch?: FetchLike;
  now?: () => number;
  random?: () => number;
  /** A listener threw (default: ignored). */
  onListenerError?: (err: unknown, event: keyof TillEvents) => void;
}

/** How long writes must pause before the till checkpoints its replica's WAL. */
const IDLE_CHECKPOINT_MS = 2_000;

export class Till {
  private readonly emitter: TypedEmitter<TillEvents>;
  private readonly engine: SyncEngine;
  private readonly realtime: RealtimeLink | null;
  private readonly actions: ActionCtx;
  private readonly syncCtx: SyncCtx;
  private state: TillStatus = initialStatus();
  private closed = false;

  private constructor(
    private readonly db: LocalDb,
    private readonly auth: AuthSession,
    /** This device's id: made once, kept in the replica, sent with every push. */
    readonly deviceId: string,
    opts: TillOptions,
    emitter: TypedEmitter<TillEvents>,
    http: HttpClient,
  ) {
    this.emitter = emitter;
    const now = opts.now ?? Date.now;
    this.syncCtx = {
      db,
      auth,
      events: emitter,
      now,
      deviceId,
      deviceName: opts.deviceName,
      pushBatchSize: Math.min(opts.pushBatchSize ?? 100, 500),
      pullPageSize: opts.pullPageSize ?? 500,
      bootstrapPageSize: opts.bootstrapPageSize ?? 1000,
    };
    this.engine = new SyncEngine(this.syncCtx, {
      intervalMs: opts.syncIntervalMs,
      backoff: opts.backoff,
      random: opts.random,
      onState: (s) => this.onEngineState(s),
    });
    this.actions = { db, now, queued: () => void this.afterLocalWrite() };
    const wantRealtime = (opts.autoSync ?? true) && (opts.realtime ?? true);
    this.realtime = wantRealtime
      ? new RealtimeLink({ baseUrl: http.baseUrl, auth, onHint: () => this.engine.kick(), onReachable: (r) => this.reachable(r), onLive: (live) => this.patch({ live }), backoff: opts.backoff, random: opts.random })
      : null;
  }

  /** Open the till's replica (creating and migrating it as needed) and, with `autoSync`, start syncing. */
  static async open(opts: TillOptions): Promise<Till> {
    const db = openLocalDb(opts.dbPath);
    await migrateLocal(db);
    let deviceId = await getMeta(db, 'device_id');
    if (!deviceId) {
      deviceId = newId();
      await setMeta(db, 'device_id', deviceId);
    }
    await setMeta(db, 'device_name', opts.deviceName);
    const emitter = new TypedEmitter<TillEvents>(opts.onListenerError);
    let till: Till | null = null;
    const http = new HttpClient({ baseUrl: opts.baseUrl, fetch: opts.fetch, timeoutMs: opts.requestTimeoutMs, onReachable: (r) => till?.reachable(r) });
    const auth = new AuthSession({ db, http, now: opts.now ?? Date.now, refreshMarginMs: opts.refreshMarginMs, onAuthRequired: (reason) => till?.authRequired(reason) });
    till = new Till(db, auth, deviceId, opts, emitter, http);
    await till.refreshCounts();
    const authRequired = !(await auth.hasTokens());
    till.patch({ authRequired });
    if (opts.autoSync ?? true) {
      till.engine.start();
      if (!authRequired) till.realtime?.start();
    }
    return till;
  }

  // ── events and status ────────────────────────────────────────────────────────

  on<K extends keyof TillEvents>(event: K, fn: (...args: TillEvents[K]) => void): this {
    this.emitter.on(event, fn);
    return this;
  }
  off<K extends keyof TillEvents>(event: K, fn: (...args: TillEvents[K]) => void): this {
    this.emitter.off(event, fn);
    return this;
  }
  once<K extends keyof TillEvents>(event: K, fn: (...args: TillEvents[K]) => void): this {
    this.emitter.once(event, fn);
    return this;
  }

  /** Online or not, what waits in the queue, the last sync and its error. */
  status(): TillStatus {
    return { ...this.state };
  }

  // ── sign-in ──────────────────────────────────────────────────────────────────

  /** Sign in with an email or phone and a password; registers the till and starts a sync. */
  async login(identifier: string, password: string): Promise<TillUser> {
    return this.signedIn(await this.auth.login(identifier, password));
  }

  /** Text a one-time sign-in code to `phone`. */
  async requestOtp(phone: string): Promise<void> {
    await this.auth.requestOtp(phone);
  }

  /** Sign in with the code from `requestOtp`. */
  async loginWithOtp(phone: string, code: string): Promise<TillUser> {
    return this.signedIn(await this.auth.loginWithOtp(phone, code));
  }

  /** Sign out (the queue stays with the device and goes up at the next sign-in). */
  async logout(): Promise<void> {
    await this.auth.logout();
    this.realtime?.stop();
    this.patch({ authRequired: true });
  }

  /** Who is (or was last) signed in on this till. */
  async user(): Promise<TillUser | null> {
    return (await this.auth.user()) ?? null;
  }

  private async signedIn(user: TillUser): Promise<TillUser> {
    const claims = await this.auth.claims();
    const heldOrg = await getMeta(this.db, 'org_id');
    if (claims?.org && heldOrg && heldOrg !== claims.org) {
      await this.auth.logout();
      throw new TillError('CONFLICT', 'this till belongs to another shop; open a new till database for this account');
    }
    if (claims?.org) await setMeta(this.db, 'org_id', claims.org);
    this.patch({ authRequired: false });
    this.engine.forgetRegistration();
    // Register now, so the till can number receipts even if it goes offline before its first sync.
    await registerDevice(this.syncCtx).catch(() => undefined);
    this.realtime?.start();
    this.engine.kick();
    return user;
  }

  // ── sync ─────────────────────────────────────────────────────────────────────

  /** Push the queue, then pull (bootstrapping first if needed). One sync at a time: a call during a sync gets the next one. */
  syncNow(): Promise<SyncReport> {
    return this.engine.syncNow();
  }

  /** Sync on the timer, pokes and reconnection (the default with `autoSync`). */
  startSync(): void {
    this.engine.start();
    this.realtime?.start();
  }

  /** Stop automatic syncing (`syncNow` still works). */
  stopSync(): void {
    this.engine.stop();
    this.realtime?.stop();
  }

  // ── local reads ──────────────────────────────────────────────────────────────

  product(id: string): Promise<Product | null> {
    return reads.productById(this.db, id);
  }
  /** By barcode, then SKU. */
  productByCode(code: string): Promise<Product | null> {
    return reads.productByCode(this.db, code);
  }
  /** Active products whose name or SKU contains `query`, by name. */
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
  /** Mutations the server refused, with its reason. */
  rejected(): Promise<QueuedMutation[]> {
    return reads.rejected(this.db);
  }
  /** Drop a rejected mutation from the list once it has been dealt with; false if it is not a rejected one. */
  async dismissRejected(mutationId: string): Promise<boolean> {
    const gone = await dismissRejected(this.db, mutationId);
    await this.refreshCounts();
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
    return this.guard(() => sell(this.actions, input));
  }
  refund(transactionId: string, reason: string): Promise<Receipt> {
    return this.guard(() => reverseSale(this.actions, 'refund', transactionId, reason));
  }
  void(transactionId: string, reason: string): Promise<Receipt> {
    return this.guard(() => reverseSale(this.actions, 'void', transactionId, reason));
  }
  createCustomer(input: CreateCustomerInput): Promise<Customer> {
    return this.guard(() => createCustomer(this.actions, input));
  }
  recordCreditPayment(input: CreditPaymentInput): Promise<CreditPaymentReceipt> {
    return this.guard(() => recordCreditPayment(this.actions, input));
  }
  /** Answers the product's new local level. */
  adjustStock(input: StockAdjustInput): Promise<number> {
    return this.guard(() => adjustStock(this.actions, input));
  }
  markNotificationRead(id: string): Promise<void> {
    return this.guard(() => markNotificationRead(this.actions, id));
  }
  /** Record money spent (queued as `expense.create`). */
  recordExpense(input: CreateExpenseInput): Promise<ExpenseReceipt> {
    return this.guard(() => recordExpense(this.actions, input));
  }
  /** A new note in the store's notebook (queued as `note.update`). */
  createNote(input: CreateNoteInput): Promise<Note> {
    return this.guard(() => notes.createNote(this.actions, input));
  }
  /** Edit a note: `content` is the whole new text; only the difference is sent and merged. */
  updateNote(id: string, input: UpdateNoteInput): Promise<Note> {
    return this.guard(() => notes.updateNote(this.actions, id, input));
  }

  /** Stop syncing, wait for a running sync, close the replica. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.checkpointTimer) clearTimeout(this.checkpointTimer);
    this.realtime?.stop();
    await this.engine.close();
    // Closing the last connection checkpoints the WAL into the file.
    await this.db.destroy();
  }

  // ── internals ────────────────────────────────────────────────────────────────

  private guard<T>(fn: () => Promise<T>): Promise<T> {
    if (this.closed) return Promise.reject(new TillError('CLOSED', 'the till is closed'));
    return fn();
  }

  private patch(p: Partial<TillStatus>): void {
    const next = { ...this.state, ...p };
    if (JSON.stringify(next) === JSON.stringify(this.state)) return;
    this.state = next;
    this.emitter.emit('status', this.status());
  }

  private async refreshCounts(): Promise<void> {
    if (this.closed) return;
    const [pending, rejected, cursor, last] = await Promise.all([pendingCount(this.db), rejectedCount(this.db), getMeta(this.db, 'cursor'), getMeta(this.db, 'last_sync_at')]);
    this.patch({ pending, rejected, bootstrapped: cursor !== undefined, lastSyncedAt: last ?? null });
  }

  private async afterLocalWrite(): Promise<void> {
    this.checkpointWhenIdle();
    await this.refreshCounts().catch(() => undefined);
    this.engine.kick();
  }

  private checkpointTimer: NodeJS.Timeout | null = null;
  /** Fold the WAL into the database file once writes have paused for a moment. */
  private checkpointWhenIdle(): void {
    if (this.checkpointTimer) clearTimeout(this.checkpointTimer);
    this.checkpointTimer = setTimeout(() => {
      this.checkpointTimer = null;
      if (!this.closed) void checkpoint(this.db).catch(() => undefined);
    }, IDLE_CHECKPOINT_MS);
    this.checkpointTimer.unref?.();
  }

  private reachable(reached: boolean): void {
    if (reached === this.state.online) return;
    this.patch({ online: reached });
    this.emitter.emit(reached ? 'online' : 'offline');
    if (reached) this.engine.kick();
  }

  private authRequired(reason: string): void {
    this.realtime?.stop();
    // Once per loss of the tokens, however many requests found out at the same time.
    if (this.state.authRequired) return;
    this.patch({ authRequired: true });
    this.emitter.emit('auth-required', { reason });
  }

  private async onEngineState(s: { syncing?: boolean; error?: unknown; report?: SyncReport; nextAt?: number | null }): Promise<void> {
    const p: Partial<TillStatus> = {};
    if (s.syncing !== undefined) p.syncing = s.syncing;
    if (s.nextAt !== undefined) p.nextSyncAt = s.nextAt === null ? null : new Date(s.nextAt).toISOString();
    if (s.report) p.lastError = null;
    if (s.error !== undefined) {
      const e = s.error as { code?: string; message?: string };
      p.lastError = { code: e.code ?? 'INTERNAL', message: e.message ?? String(s.error), at: new Date(this.syncCtx.now()).toISOString() };
    }
    this.patch(p);
    if (s.syncing === false) {
      this.checkpointWhenIdle();
      await this.refreshCounts().catch(() => undefined);
    }
  }
}
