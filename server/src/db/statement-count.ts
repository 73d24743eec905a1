/**
 * The number of SQL statements each request runs, answered in the `x-db-statements` header when
 * the server is started with COUNT_STATEMENTS=1, so that a regression in database round trips shows
 * as a number in the bench rather than only as a slower row. Counted at the driver (Kysely's `log`
 * hook), so transaction control (begin, commit, savepoints) and failed statements count too; what
 * bypasses Kysely (the readiness ping, Postgres NOTIFY) does not. Off by default, and then nothing
 * here is installed: no log hook, no wrapper, no middleware.
 *
 * Where a request's time goes is answered beside it: `x-db-ms`, the time its statements took (a
 * statement waiting for a row lock included), and `x-db-wait-ms`, the time it waited for the
 * database rather than used it: for its transaction to start (SQLite's one writer, Postgres' pool)
 * and for the locks a sale takes (`noteWait`: the store's receipt counter and its stock rows).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { LogEvent } from 'kysely';
import type { Transact } from './database.js';

export const STATEMENTS_HEADER = 'x-db-statements';
export const DB_MS_HEADER = 'x-db-ms';
export const DB_WAIT_MS_HEADER = 'x-db-wait-ms';

/** What one request did with the database. */
export interface DbUse {
  statements: number;
  /** Milliseconds in statements. */
  ms: number;
  /** Milliseconds waiting for a transaction or a lock. */
  waitMs: number;
}

const requests = new AsyncLocalStorage<DbUse>();

/** Kysely's `log` option: one more statement for the request this runs in (if any). */
export function countStatement(event: LogEvent): void {
  const use = requests.getStore();
  if (!use) return;
  use.statements++;
  use.ms += event.queryDurationMillis;
}

/** The request in this context waited `ms` for the database (a lock); nothing when not counting. */
export function noteWait(ms: number): void {
  const use = requests.getStore();
  if (use) use.waitMs += ms;
}

/**
 * A runner that counts what it runs to the request this is called in (nothing when not counting):
 * for work done on a request's behalf from another's context, as a store's batch (lib/store-batches.ts)
 * writes every queued request's work from the context of the one that started it.
 */
export function countedHere(): <T>(fn: () => T) => T {
  const use = requests.getStore();
  return use ? (fn) => requests.run(use, fn) : (fn) => fn();
}

/** Whether anything is counting in this context (so callers time only then). */
export const counting = (): boolean => requests.getStore() !== undefined;

/**
 * SQLite's group commit runs every waiting caller's work inside the async context of the caller
 * that started the commit; each caller's work is put back into its own request's count. The shared
 * begin and commit (and the savepoints around each unit) count to the request that opened them.
 */
export function countingTransact(transact: Transact): Transact {
  return (fn) => {
    const use = requests.getStore();
    if (!use) return transact(fn);
    const asked = performance.now();
    return transact((trx) => {
      use.waitMs += performance.now() - asked;
      return requests.run(use, () => fn(trx));
    });
  };
}

/** Run `request` and answer what it did with the database before it resolved. */
export async function measureDb(request: () => Promise<void>): Promise<DbUse> {
  const use: DbUse = { statements: 0, ms: 0, waitMs: 0 };
  await requests.run(use, request);
  return use;
}

/** Run `request` and answer how many statements it ran before it resolved. */
export async function countStatements(request: () => Promise<void>): Promise<number> {
  return (await measureDb(request)).statements;
}
