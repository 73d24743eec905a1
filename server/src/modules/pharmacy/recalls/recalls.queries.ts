/** Writing recalls (their reads, for the registers, are in registers/registers.queries.ts). */
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/database.js';
import type { RecallTable } from '../../../db/tables/batches.table.js';

export async function insertRecall(db: Kysely<Database>, recall: RecallTable): Promise<void> {
  await db.insertInto('recalls').values(recall).execute();
}
