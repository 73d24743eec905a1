/** The replica as Kysely sees it, over whatever storage the host chose (`storage.ts`). */
import { Kysely, type Transaction } from 'kysely';
import type { LocalDatabase } from './schema.js';
import type { TillStorage } from './storage.js';

export type LocalDb = Kysely<LocalDatabase>;
export type LocalTrx = Transaction<LocalDatabase>;
/** Either the database or a transaction on it: read helpers take both. */
export type LocalExec = LocalDb | LocalTrx;

export function openLocalDb(storage: TillStorage): LocalDb {
  return new Kysely<LocalDatabase>({ dialect: storage.dialect });
}
