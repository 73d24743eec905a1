/**
 * Each refresh token records the token it was exchanged for (`replaces` on the successor), so a
 * token presented again can be told apart: its answer was lost (successor never used) or it was
 * copied (successor used). Frozen.
 */
import type { Kysely } from 'kysely';
import { index, t } from './_helpers.js';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('refresh_tokens').addColumn('replaces', t.id).execute();
  await index(db, 'refresh_tokens', ['replaces']);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('ix__refresh_tokens__replaces').execute();
  await db.schema.alterTable('refresh_tokens').dropColumn('replaces').execute();
}
