/**
 * Issue 53: the fiscal queue's reads find the store's waiting and unbuilt receipts without reading
 * its history. Both asked for the store's receipts in counter order and skipped the acknowledged
 * (or built) ones row by row, so every pass of the sender read all the receipts the store ever
 * issued: 47-60 ms a read at 20,000 receipts, on the thread that serves sales, and growing every
 * day. Partial indexes hold only the rows the queue still has to build or send. The queries name
 * 'issued' as a literal (fiscal.queries.ts), so that a plan made without the value can take the
 * index too. Frozen.
 */
import type { Kysely } from 'kysely';
import { sql } from './_helpers.js';

export async function up(db: Kysely<any>): Promise<void> {
  await sql
    .raw(
      `create index if not exists "ix__fiscal_receipts__waiting" on "fiscal_receipts" ("org_id", "store_id", "gc") where status <> 'issued'`,
    )
    .execute(db);
  await sql
    .raw(`create index if not exists "ix__fiscal_receipts__unbuilt" on "fiscal_receipts" ("org_id", "store_id", "gc") where body is null`)
    .execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql.raw('drop index if exists "ix__fiscal_receipts__unbuilt"').execute(db);
  await sql.raw('drop index if exists "ix__fiscal_receipts__waiting"').execute(db);
}
