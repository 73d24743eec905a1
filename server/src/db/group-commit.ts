import { type Kysely, sql } from 'kysely';
import type { Database } from './database.js';
import type { Transact } from './handle.js';
import type { WalCheckpointer } from './wal-checkpoint.js';

interface Unit {
  fn: (trx: Kysely<Database>) => Promise<unknown>;
  resolve(value: unknown): void;
  reject(err: unknown): void;
}

/** Most units in one shared transaction. */
const MAX_UNITS = 256;
/**
 * Longest a shared transaction keeps taking more units, ms. better-sqlite3 runs every statement
 * on the event loop, so a transaction is one long stretch of synchronous work: past this, it
 * commits and the loop gets a turn (sockets read, probes and websockets answered) before the rest.
 */
const BUDGET_MS = 25;

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

/**
 * SQLite commits one writer at a time, and every statement of a transaction runs on the event loop.
 * Transactions that arrive while another runs are run together in one BEGIN…COMMIT, each in its own
 * savepoint: a failing unit rolls back alone, and every caller is answered only after the shared
 * commit is on disk (`durable`, wal-sync.ts: the fsync runs off the loop while the next transaction
 * runs, and covers every commit made meanwhile).
 *
 * The drain never runs two transactions back to back without letting the event loop turn: with
 * a synchronous driver nothing else happens until it yields, and a queue kept full by callers
 * (or units made slow by a slow query) would otherwise hold every socket, health probe and
 * websocket for as long as the queue lasts.
 */
export function groupCommit(
  db: Kysely<Database>,
  durable: () => Promise<void> = async () => {},
  checkpoint?: Pick<WalCheckpointer, 'turn' | 'onPause' | 'pausing'>,
): Transact {
  const queue: Unit[] = [];
  let draining = false;

  /** One shared transaction over the units at the head of the queue, until MAX_UNITS or BUDGET_MS. */
  async function commitSome(): Promise<void> {
    const started = performance.now();
    const batch: Unit[] = [];
    const outcomes: Array<{ ok: true; value: unknown } | { ok: false; error: unknown }> = [];
    try {
      await db.transaction().execute(async (trx) => {
        while (queue.length && batch.length < MAX_UNITS && (batch.length === 0 || performance.now() - started < BUDGET_MS)) {
          const unit = queue.shift()!;
          batch.push(unit);
          await sql`savepoint unit`.execute(trx);
          try {
            const value = await unit.fn(trx);
            await sql`release unit`.execute(trx);
            outcomes.push({ ok: true, value });
          } catch (error) {
            await sql`rollback to unit`.execute(trx);
            await sql`release unit`.execute(trx);
            outcomes.push({ ok: false, error });
          }
        }
      });
    } catch (error) {
      for (const unit of batch) unit.reject(error);
      return;
    }
    // Answered once on disk (wal-sync.ts): the sync runs off the loop while the next units run.
    durable().then(
      () =>
        batch.forEach((unit, i) => {
          const o = outcomes[i]!;
          if (o.ok) unit.resolve(o.value);
          else unit.reject(o.error);
        }),
      (error) => batch.forEach((unit) => unit.reject(error)),
    );
  }

  async function drain() {
    if (draining) return;
    draining = true;
    try {
      while (queue.length || checkpoint?.pausing) {
        // Kysely's SQLite driver holds its one connection for a whole transaction, so requests that
        // read before their transaction (a push's device, a session) waited on the last one: let
        // them read and join the queue before the next commit starts, to share its fsync. The same
        // turn lets the loop read sockets and answer probes between two transactions.
        await nextTurn();
        // Between two transactions, the one place the checkpointer can have the WAL to itself.
        await checkpoint?.turn();
        if (!queue.length) continue;
        if (queue.length === 1) {
          const unit = queue.shift()!;
          await db
            .transaction()
            .execute(unit.fn)
            .then((value) => void durable().then(() => unit.resolve(value), unit.reject), unit.reject);
        } else {
          await commitSome();
        }
      }
    } finally {
      draining = false;
    }
  }

  checkpoint?.onPause(() => void drain());
  return <T>(fn: (trx: Kysely<Database>) => Promise<T>) =>
    new Promise<T>((resolve, reject) => {
      queue.push({ fn, resolve: resolve as (v: unknown) => void, reject });
      void drain();
    });
}
