import { type Kysely, sql } from 'kysely';
import type { Database } from './database.js';
import type { Transact } from './handle.js';

interface Unit {
  fn: (trx: Kysely<Database>) => Promise<unknown>;
  resolve(value: unknown): void;
  reject(err: unknown): void;
}

/**
 * SQLite commits one writer at a time and each durable commit costs an fsync (synchronous=FULL),
 * so one commit per sale would cap a till fleet at the disk's fsync rate. Transactions that arrive
 * while another is committing are run together in one BEGIN…COMMIT, each in its own savepoint: a
 * failing unit rolls back alone, and every caller is answered only after the shared commit.
 */
export function groupCommit(db: Kysely<Database>): Transact {
  const queue: Unit[] = [];
  let draining = false;

  async function drain() {
    if (draining) return;
    draining = true;
    try {
      // Kysely's SQLite driver holds its one connection for a whole transaction, so requests that
      // read before their transaction (a push's device, a session) waited on the last one: let
      // them read and join the queue before the next commit starts, to share its fsync.
      await new Promise((resolve) => setImmediate(resolve));
      while (queue.length) {
        const batch = queue.splice(0, 256);
        if (batch.length === 1) {
          const [unit] = batch as [Unit];
          await db.transaction().execute(unit.fn).then(unit.resolve, unit.reject);
          continue;
        }
        const outcomes: Array<{ ok: true; value: unknown } | { ok: false; error: unknown }> = [];
        try {
          await db.transaction().execute(async (trx) => {
            for (const unit of batch) {
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
          continue;
        }
        batch.forEach((unit, i) => {
          const o = outcomes[i]!;
          if (o.ok) unit.resolve(o.value);
          else unit.reject(o.error);
        });
      }
    } finally {
      draining = false;
    }
  }

  return <T>(fn: (trx: Kysely<Database>) => Promise<T>) =>
    new Promise<T>((resolve, reject) => {
      queue.push({ fn, resolve: resolve as (v: unknown) => void, reject });
      void drain();
    });
}
