/**
 * The number of SQL statements each request runs, answered in the `x-db-statements` header when
 * the server is started with COUNT_STATEMENTS=1, so that a regression in database round trips shows
 * as a number in the bench rather than only as a slower row. Counted at the driver (Kysely's `log`
 * hook), so transaction control (begin, commit, savepoints) and failed statements count too; what
 * bypasses Kysely (the readiness ping, Postgres NOTIFY) does not. Off by default, and then nothing
 * here is installed: no log hook, no wrapper, no middleware.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { LogEvent } from 'kysely';
import type { Transact } from './handle.js';

export const STATEMENTS_HEADER = 'x-db-statements';

const requests = new AsyncLocalStorage<{ statements: number }>();

/** Kysely's `log` option: one more statement for the request this runs in (if any). */
export function countStatement(_event: LogEvent): void {
  const counter = requests.getStore();
  if (counter) counter.statements++;
}

/**
 * SQLite's group commit runs every waiting caller's work inside the async context of the caller
 * that started the commit; each caller's work is put back into its own request's count. The shared
 * begin and commit (and the savepoints around each unit) count to the request that opened them.
 */
export function countingTransact(transact: Transact): Transact {
  return (fn) => {
    const counter = requests.getStore();
    return transact((trx) => (counter ? requests.run(counter, () => fn(trx)) : fn(trx)));
  };
}

/** Run `request` and answer how many statements it ran before it resolved. */
export async function countStatements(request: () => Promise<void>): Promise<number> {
  const counter = { statements: 0 };
  await requests.run(counter, request);
  return counter.statements;
}
