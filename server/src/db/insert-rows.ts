import type { Insertable, Kysely } from 'kysely';
import type { Database } from './database.js';

/** Bound parameters per statement: under SQLite's 32,766 and Postgres' 65,535. */
const MAX_PARAMETERS = 30_000;

/**
 * Insert many rows in as few statements as the databases' parameter limits allow: a pushed batch
 * of sales writes its lines in one statement, not one per sale.
 */
export async function insertRows<T extends keyof Database & string>(db: Kysely<Database>, table: T, rows: Array<Insertable<Database[T]>>): Promise<void> {
  if (rows.length === 0) return;
  const columns = Math.max(1, Object.keys(rows[0] as object).length);
  const perStatement = Math.max(1, Math.floor(MAX_PARAMETERS / columns));
  for (let at = 0; at < rows.length; at += perStatement) {
    // Generic over the table: Kysely cannot tie `values` to `T` here; the signature above does.
    await db
      .insertInto(table)
      .values(rows.slice(at, at + perStatement) as never)
      .execute();
  }
}
