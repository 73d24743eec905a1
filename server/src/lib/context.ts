/**
 * What every service verb receives. `deps` are built once at start (createApp); a request adds
 * the actor and request id; `withTransaction` swaps `db` for the transaction.
 */
import type { Permission, Role } from '@duka/shared';
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Config } from '../env.js';
import type { Database } from '../db/database.js';
import type { DialectName } from '../db/dialect.js';
import type { Transact } from '../db/create-db.js';
import type { Messenger } from '../messaging/messenger.js';
import type { EventBus } from '../modules/events/event-bus.js';
import type { Realtime } from '../sync/ws/realtime.js';
import type { Clock } from './clock.js';
import type { Keys } from './crypto.js';
import type { RateLimits } from './rate-limit.js';
import type { Storage } from './storage.js';
import type { SessionGate } from './auth/sessions.js';

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
}

export interface Deps {
  db: Kysely<Database>;
  dialect: DialectName;
  /** How a transaction is run and committed (group commit on SQLite). */
  transact: Transact;
  config: Config;
  log: Logger;
  clock: Clock;
  keys: Keys;
  messenger: Messenger;
  limits: RateLimits;
  events: EventBus;
  /** Websocket fan-out: tells connected tills, on every server instance, what was committed. */
  realtime: Realtime;
  /** Uploaded files and report exports (local disk under DATA_DIR/files by default). */
  storage: Storage;
  /** Whether an access token's session is still signed in. */
  sessions: SessionGate;
}

/** What a transaction has noted to do at its commit: change-log entries and after-commit tasks. */
export interface PendingCommit {
  afterCommit: Array<() => unknown>;
  /** Change-log entries, recorded as the transaction's last step. */
  changes: Array<import('../db/change-log.js').Change & { orgId: string }>;
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
