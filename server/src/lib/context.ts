/**
 * What every service verb receives. `deps` are built once at start (createDeps in app.ts); a request adds
 * the actor and request id; `withTransaction` swaps `db` for the transaction.
 */
import type { Notification, PaymentRequestState, Permission, Role } from '@duka/shared';
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Config } from '../env.js';
import type { CommitListener } from '../db/change-log.js';
import type { Database } from '../db/database.js';
import type { DialectName, Write } from '../db/dialect.js';
import type { Transact } from '../db/handle.js';
import type { PendingCommit } from '../db/transaction.js';
import type { AfterAnswer } from './after-answer.js';
import type { Clock } from './clock.js';
import type { DomainEvent, EventType, NewEvent } from './domain-events.js';
import type { OutgoingMessage } from './outgoing-message.js';
import type { Keys } from './crypto.js';
import type { JobMonitor } from './jobs.js';
import type { Leases } from './leases.js';
import type { Metrics } from './metrics.js';
import type { RateLimits } from './rate-limit.js';
import type { Storage } from './storage.js';

/** Who is calling, straight from the verified access token. */
export interface Actor {
  userId: string;
  orgId: string | null;
  storeId: string | null;
  role: Role;
  perms: Permission[];
  amr: string[];
  /** Refresh-token family this access token was issued with. */
  sid: string;
  /** Signed in with a temporary password not yet replaced: the session may only set a new one. */
  passwordChangeRequired?: boolean;
}

/**
 * What areas of modules/ provide for services to reach through the context (billing's payment
 * provider, fiscal's queue and TRA gateway, payments' ports): every member is listed in one file,
 * server/src/providers.ts, by declaration merging, each typed from its area's exports file, so
 * `ctx.subscriptionPayments` is typed wherever it is used while lib/ imports nothing of modules/. app.ts must
 * supply every member.
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled by declaration merging in server/src/providers.ts
export interface Providers {}

export interface Deps extends Providers {
  db: Kysely<Database>;
  /**
   * Reads that need see only what is committed, off SQLite's writer thread (db/handle.ts `readDb`):
   * never inside a transaction, never a write. `db` itself on Postgres and in-memory SQLite.
   */
  readDb: Kysely<Database>;
  dialect: DialectName;
  /** How a transaction is run and committed (group commit on SQLite). */
  transact: Transact;
  /** Resolves once every commit so far is on disk (db/handle.ts): a response waits for it. */
  settled: () => Promise<void>;
  config: Config;
  log: Logger;
  clock: Clock;
  keys: Keys;
  messenger: MessageSender;
  limits: RateLimits;
  events: EventPublisher;
  /** Websocket fan-out: tells connected tills, on every server instance, what was committed. */
  realtime: RealtimeFeed;
  /** Uploaded files and report exports (local disk under DATA_DIR/files by default). */
  storage: Storage;
  /** Whether an access token's session is still signed in. */
  sessions: SessionCheck;
  /** Counters and gauges for GET /metrics. */
  metrics: Metrics;
  /** Background jobs' runs and failures (metrics, readiness). */
  jobs: JobMonitor;
  /** Who, of the instances sharing the database, runs a job or a unit of its work (lib/leases.ts). */
  leases: Leases;
  /** Work a route does after its answer has gone out. */
  afterAnswer: AfterAnswer;
}

/*
 * Ports: what services need of the parts built above (messaging/, events/, sync/ws/) or beside
 * this file (the session gate), as narrow interfaces here, so that no import runs up or in a
 * circle; app.ts wires the implementations.
 */

/** Outgoing SMS and email (messaging/messenger.ts): written to the outbox, delivered after commit. */
export interface MessageSender {
  /** True when email leaves the server (not only the outbox). */
  readonly emailDelivers: boolean;
  send(ctx: ServiceContext, msg: OutgoingMessage): Promise<string>;
  /** Undelivered messages by channel and status, and when the oldest was written (metrics, readiness). */
  backlog(): Promise<{ counts: Array<{ channel: string; status: string; count: number }>; oldest: number | null }>;
}

/** Domain events (events/event-bus.ts): recorded in the caller's transaction, delivered after commit. */
export interface EventPublisher {
  publish<K extends EventType>(ctx: ServiceContext, event: NewEvent<K>): Promise<DomainEvent<K>>;
  /**
   * Several events (a pushed batch of sales) as one write, for the caller to send with its others
   * (db/dialect.ts `writeTogether`); `deliver()`, called once it is sent, queues their delivery after commit.
   */
  prepareMany<K extends EventType>(ctx: ServiceContext, events: Array<NewEvent<K>>): { write: Write; deliver(): void };
}

/** Whether an access token's session is still signed in, and who its user is now (lib/auth/sessions.ts). */
export interface SessionCheck {
  /**
   * The actor with the user's current role, permissions and temporary-password state in place of
   * the token's; throws UnauthenticatedError when the session was signed out or the user deactivated.
   */
  current(actor: Actor): Promise<Actor>;
}

/** Who a revocation signs out: one session (refresh family), or every session of a user but one. */
export type RevokedTarget = { sid: string } | { userId: string; exceptSid?: string };

/** The realtime hub (sync/ws/realtime.ts), told after commit what tills should hear of. */
export interface RealtimeFeed extends CommitListener {
  /** A notification for `storeId` was committed. */
  notification(orgId: string, storeId: string, notification: Notification): void;
  /** A payment request of `storeId` changed state (committed): its tills redraw their waiting screen. */
  payment(orgId: string, storeId: string, state: PaymentRequestState): void;
  /** A session ended: its sockets close, and every instance stops trusting it. */
  revoked(target: RevokedTarget): void;
  /** A user's role, permissions, activity or password changed: every instance reads them afresh. */
  userChanged(userId: string): void;
}

/**
 * What every verb receives: `ctx`. Inside `withTransaction` the same context with `db` bound to
 * the Kysely transaction and `pending` set is a `TxContext`, by convention named `tx`; a bare
 * Kysely transaction handle is `trx`.
 */
export interface ServiceContext extends Deps {
  actor: Actor | null;
  requestId: string;
  pending?: PendingCommit;
}

/** A context whose actor is known to be signed in. */
export type AuthedContext = ServiceContext & { actor: Actor };

/** A context inside a transaction: `db` is the transaction, `pending` what it will do at commit. */
export type TxContext<C extends ServiceContext = ServiceContext> = C & { pending: PendingCommit };

export type AppEnv = {
  Variables: {
    requestId: string;
    log: Logger;
    ctx: ServiceContext;
  };
};
