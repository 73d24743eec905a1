/**
 * The till's status and lifecycle: opening the replica on its storage, the connector and the
 * sign-in, the sync engine and the websocket, the observable status and its events, and closing,
 * which aborts whatever is in flight. `Till` (till.ts) puts the selling API on top of this.
 */
import { clockOffset, clockWrong, newId, PROTOCOL_VERSION } from '@duka/shared';
import type { ActionCtx } from './actions/context.js';
import type { MobileMoneyCtx } from './actions/mobile-money.js';
import { AuthSession, type TillUser } from './auth.js';
import { TillError } from './errors.js';
import { type SyncReport, type TillEvents, TypedEmitter } from './events.js';
import { HttpConnector } from './http/connector.js';
import type { DukaApiError } from './http/errors.js';
import { type LocalDb, openLocalDb } from './local/db.js';
import { getMeta, setMeta } from './local/meta.js';
import { migrateLocal } from './local/migrations.js';
import { asStorage, type TillStorage } from './local/storage.js';
import type { TillPlatform } from './platform.js';
import { checkPassword, keepVerifier, makeVerifier } from './offline-sign-in.js';
import { pendingCount, rejectedCount } from './queue.js';
import { initialStatus, type TillStatus } from './status.js';
import type { SyncCtx } from './sync/context.js';
import { ConnectivityWatch } from './sync/connectivity.js';
import { registerDevice } from './sync/device.js';
import { SyncEngine } from './sync/engine.js';
import { PaymentWatch } from './sync/payment-watch.js';
import { RealtimeLink } from './sync/realtime.js';
import { whenQueueEmpty, type WhenSyncedOptions } from './sync/when-synced.js';
import type { TillOptions } from './options.js';

export type { TillOptions } from './options.js';

/** How long writes must pause before the till runs its storage's idle work (a WAL checkpoint). */
const IDLE_MS = 2_000;

export class TillLifecycle {
  readonly emitter: TypedEmitter<TillEvents>;
  /** What the selling API's actions need. */
  readonly actions: ActionCtx;
  /** What the mobile-money actions need besides. */
  readonly payments: MobileMoneyCtx;
  /** The session's tokens, for the few actions that ask the server directly (the open stock-takes). */
  readonly auth: AuthSession;
  private readonly engine: SyncEngine;
  private readonly realtime: RealtimeLink | null;
  private readonly watch: ConnectivityWatch;
  private readonly syncCtx: SyncCtx;
  /** When the server last answered (unreached.ts). */
  private heardAt: number | null = null;
  /** Aborted by `close()`: every connector call in flight stops. */
  private readonly abort = new AbortController();
  private state: TillStatus = initialStatus();
  private closed = false;
  private idleTimer: NodeJS.Timeout | null = null;
  /** The name a user signed in with a temporary password gave, until their new password is set (offline sign-in keys on it). */
  private settling: string | null = null;

  private constructor(
    readonly db: LocalDb,
    private readonly storage: TillStorage,
    /** This device's id: made once, kept in the replica, sent with every push. */
    readonly deviceId: string,
    opts: TillOptions,
    platform: TillPlatform,
  ) {
    const now = opts.now ?? Date.now;
    this.emitter = new TypedEmitter<TillEvents>(opts.onListenerError);
    const connector = opts.connector ?? new HttpConnector({ baseUrl: opts.baseUrl!, fetch: opts.fetch, timeoutMs: opts.requestTimeoutMs });
    this.auth = new AuthSession({
      db,
      connector,
      signal: this.abort.signal,
      now,
      refreshMarginMs: opts.refreshMarginMs,
      onAuthRequired: (reason) => this.authRequired(reason),
      onReachable: (r) => this.reachable(r),
    });
    this.syncCtx = {
      db,
      auth: this.auth,
      events: this.emitter,
      now,
      serverTime: (t, sentAt) => this.serverTime(t, sentAt),
      pushedSince: () => (this.engine.running ? this.heardAt : null),
      deviceId,
      deviceName: opts.deviceName,
      pushBatchSize: Math.min(opts.pushBatchSize ?? 100, 500),
      pullPageSize: opts.pullPageSize ?? 500,
      bootstrapPageSize: opts.bootstrapPageSize ?? 5000,
      stagePage: storage.stageBootstrapPage,
    };
    this.engine = new SyncEngine(this.syncCtx, {
      intervalMs: opts.syncIntervalMs,
      backoff: opts.backoff,
      random: opts.random,
      onOutdated: (err) => this.outdated(err),
      onState: (s) => this.onEngineState(s),
    });
    this.watch = new ConnectivityWatch({
      intervalMs: opts.probeIntervalMs,
      ping: () => this.auth.ping(),
      network: opts.network === undefined ? platform.network : opts.network,
      onNetworkBack: () => this.engine.kick(),
      onNetworkLost: () => this.reachable(false),
    });
    this.actions = { db, now, queued: (pending) => void this.afterLocalWrite(pending), online: () => this.state.online };
    const watch = new PaymentWatch({
      db,
      auth: this.auth,
      events: this.emitter,
      now,
      live: () => this.state.live,
      pollMs: opts.paymentPollMs,
    });
    this.payments = { actions: this.actions, auth: this.auth, watch };
    const wantRealtime = (opts.autoSync ?? true) && (opts.realtime ?? true);
    this.realtime = wantRealtime
      ? new RealtimeLink({
          url: (token) => connector.realtimeUrl(token),
          socket: platform.socket,
          auth: this.auth,
          now,
          onHint: () => this.engine.kick(),
          onMessage: (m) => {
            if (m.type === 'payment') void this.payments.watch.message(m.payment).catch(() => undefined);
          },
          onReachable: (r) => this.reachable(r),
          onLive: (live) => {
            this.patch({ live });
            // Messages sent while the socket was down are lost: ask about the pushes instead.
            if (live) this.resumePayments();
          },
          backoff: opts.backoff,
          random: opts.random,
        })
      : null;
  }

  /** Open the replica (creating and migrating it as needed) on the platform's storage and socket and, with `autoSync`, start syncing. */
  static async open(opts: TillOptions, platform: TillPlatform): Promise<TillLifecycle> {
    if (!opts.connector && !opts.baseUrl) throw new TillError('VALIDATION_ERROR', 'give the till a baseUrl or a connector', 'baseUrl');
    if (!opts.storage && !platform.openFile)
      throw new TillError('VALIDATION_ERROR', 'give the till a storage (this platform keeps no files)', 'storage');
    if (!opts.storage && !opts.dbPath) throw new TillError('VALIDATION_ERROR', 'give the till a dbPath or a storage', 'dbPath');
    const storage = opts.storage ? asStorage(opts.storage) : platform.openFile!(opts.dbPath!);
    const db = openLocalDb(storage);
    await migrateLocal(db);
    let deviceId = await getMeta(db, 'device_id');
    if (!deviceId) {
      deviceId = newId();
      await setMeta(db, 'device_id', deviceId);
    }
    await setMeta(db, 'device_name', opts.deviceName);
    const life = new TillLifecycle(db, storage, deviceId, opts, platform);
    await life.refreshCounts();
    const authRequired = !(await life.auth.hasTokens());
    life.patch({ authRequired });
    if (opts.autoSync ?? true) {
      life.engine.start();
      life.watch.start();
      life.payments.watch.start();
      if (!authRequired) life.realtime?.start();
    }
    return life;
  }

  status(): TillStatus {
    return { ...this.state };
  }

  async login(identifier: string, password: string): Promise<TillUser> {
    const user = await this.auth.login(identifier, password);
    if (user.password_change_required) {
      // A temporary password is neither kept for offline sign-in nor good for syncing: `setPassword` comes first.
      this.settling = identifier;
      return this.signedIn(user);
    }
    const verifier = await makeVerifier(password);
    // Kept once the account is known to belong to this till's shop, before its first sync starts.
    return this.signedIn(user, () => (verifier ? keepVerifier(this.db, identifier, user, verifier) : undefined));
  }
  /** The new password of a user signed in with a temporary one; then the till syncs as after any sign-in. */
  async setPassword(password: string): Promise<TillUser> {
    const user = await this.auth.setPassword(password);
    const identifier = this.settling;
    this.settling = null;
    // The name signed in with is known only in the session that signed in; after a reload the next online sign-in keeps it.
    const verifier = identifier ? await makeVerifier(password) : null;
    return this.signedIn(user, () => (identifier && verifier ? keepVerifier(this.db, identifier, user, verifier) : undefined));
  }
  /** The password checked against this till's own verifier; no tokens, so syncing waits for an online sign-in. */
  async loginOffline(identifier: string, password: string): Promise<TillUser> {
    const user = await checkPassword(this.db, identifier, password);
    if (!user)
      throw new TillError(
        'INVALID_CREDENTIALS',
        'that password is not the one last used on this till by that account, or it never signed in here',
      );
    await setMeta(this.db, 'user', user);
    this.patch({ authRequired: !(await this.auth.hasTokens()) });
    return user;
  }
  async requestOtp(phone: string): Promise<void> {
    await this.auth.requestOtp(phone);
  }
  async loginWithOtp(phone: string, code: string): Promise<TillUser> {
    return this.signedIn(await this.auth.loginWithOtp(phone, code));
  }
  async logout(): Promise<void> {
    this.settling = null;
    await this.auth.logout();
    this.realtime?.stop();
    this.patch({ authRequired: true });
  }
  async user(): Promise<TillUser | null> {
    return (await this.auth.user()) ?? null;
  }

  syncNow(): Promise<SyncReport> {
    return this.engine.syncNow();
  }
  whenSynced(o?: WhenSyncedOptions): Promise<void> {
    return whenQueueEmpty({ db: this.db, events: this.emitter, closed: this.abort.signal, pending: () => this.state.pending }, o);
  }
  startSync(): void {
    if (this.state.updateRequired) return;
    this.engine.start();
    this.watch.start();
    this.payments.watch.start();
    this.realtime?.start();
  }
  stopSync(): void {
    this.engine.stop();
    this.watch.stop();
    this.payments.watch.stop();
    this.realtime?.stop();
  }

  /** Abort what is in flight, stop syncing, wait for the sync to unwind, close the replica. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.abort.abort();
    this.watch.stop();
    this.payments.watch.stop();
    this.realtime?.stop();
    await this.engine.close();
    await this.db.destroy();
    await this.storage.close?.();
  }

  /** Run a local action unless the till is closed. */
  guard<T>(fn: () => Promise<T>): Promise<T> {
    if (this.closed) return Promise.reject(new TillError('CLOSED', 'the till is closed'));
    return fn();
  }

  async refreshCounts(): Promise<void> {
    if (this.closed) return;
    const [pending, rejected, cursor, last, held, speaks] = await Promise.all([
      pendingCount(this.db),
      rejectedCount(this.db),
      getMeta(this.db, 'cursor'),
      getMeta(this.db, 'last_sync_at'),
      getMeta(this.db, 'held_for_server'),
      getMeta(this.db, 'server_protocol'),
    ]);
    const protocol = { heldForServer: held ?? 0, serverProtocol: speaks ?? null };
    this.patch({ pending, rejected, bootstrapped: cursor !== undefined, lastSyncedAt: last ?? null, ...protocol });
  }

  private async signedIn(user: TillUser, keep?: () => Promise<void> | undefined): Promise<TillUser> {
    const claims = await this.auth.claims();
    const heldOrg = await getMeta(this.db, 'org_id');
    if (claims?.org && heldOrg && heldOrg !== claims.org) {
      await this.auth.logout();
      throw new TillError('CONFLICT', 'this till belongs to another shop; open a new till database for this account');
    }
    if (claims?.org) await setMeta(this.db, 'org_id', claims.org);
    await keep?.();
    this.patch({ authRequired: false });
    // The server answers such a session nothing but a new password: no device, socket or sync until then.
    if (user.password_change_required) return user;
    this.engine.forgetRegistration();
    // Register now, so the till can number receipts even if it goes offline before its first sync.
    await registerDevice(this.syncCtx).catch(() => undefined);
    if (!this.state.updateRequired) this.realtime?.start();
    this.engine.kick();
    return user;
  }

  private patch(p: Partial<TillStatus>): void {
    const next = { ...this.state, ...p };
    if (JSON.stringify(next) === JSON.stringify(this.state)) return;
    this.state = next;
    this.emitter.emit('status', this.status());
  }

  private async afterLocalWrite(pending?: number): Promise<void> {
    this.idleWhenQuiet();
    // A local action only adds to the queue: the pending count is the one figure it moved, and
    // counting only it keeps the reads between two sales to one statement (none when the action
    // counted in its own transaction).
    if (!this.closed) this.patch({ pending: pending ?? (await pendingCount(this.db).catch(() => this.state.pending)) });
    this.engine.kick();
  }

  /** Give the storage its idle work (a WAL checkpoint) once writes have paused for a moment. */
  private idleWhenQuiet(): void {
    const idle = this.storage.whenIdle;
    if (!idle || this.closed) return;
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => {
      this.idleTimer = null;
      if (!this.closed) void idle(this.db).catch(() => undefined);
    }, IDLE_MS);
    this.idleTimer.unref?.();
  }

  private reachable(reached: boolean): void {
    if (reached) this.heardAt = this.syncCtx.now();
    if (reached) this.watch.found();
    else this.watch.lost();
    if (reached === this.state.online) return;
    this.patch({ online: reached });
    this.emitter.emit(reached ? 'online' : 'offline');
    if (!reached) return;
    this.engine.kick();
    // A push the customer answered while the till was away: learn how.
    this.resumePayments();
  }

  private resumePayments(): void {
    if (!this.closed) void this.payments.watch.resume().catch(() => undefined);
  }

  /** Measure the till's clock against the server's time in an answer. */
  private serverTime(serverTime: string | undefined, sentAt: number): void {
    if (!serverTime || Number.isNaN(Date.parse(serverTime))) return;
    const offsetMs = clockOffset(serverTime, sentAt, this.syncCtx.now());
    const wrong = clockWrong(offsetMs);
    const changed = wrong !== this.state.clockWrong;
    this.patch({ clockOffsetMs: offsetMs, clockWrong: wrong });
    if (changed) this.emitter.emit('clock', { offsetMs, wrong });
  }

  private authRequired(reason: string): void {
    this.realtime?.stop();
    // Once per loss of the tokens, however many requests found out at the same time.
    if (this.state.authRequired) return;
    this.patch({ authRequired: true });
    this.emitter.emit('auth-required', { reason });
  }

  private outdated(err: DukaApiError): void {
    this.watch.stop();
    this.realtime?.stop();
    this.patch({ updateRequired: true });
    const num = (v: unknown) => (typeof v === 'number' ? v : null);
    this.emitter.emit('update-required', {
      message: err.message,
      protocol_version: PROTOCOL_VERSION,
      server_min_supported: num(err.meta.min_supported),
      server_protocol_version: num(err.meta.protocol_version),
    });
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
      this.idleWhenQuiet();
      await this.refreshCounts().catch(() => undefined);
    }
  }
}
