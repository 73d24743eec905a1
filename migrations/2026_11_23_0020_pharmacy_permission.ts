/**
 * The `pharmacy` permission as a user flag (issue 14): batch corrections, quarantine, disposal,
 * recalls and the pharmacy registers for staff the owner allows. Managers had every other flag by
 * default; existing managers get this one too, staff do not. Frozen.
 */
import type { Kysely } from 'kysely';
import { flag, t } from './_helpers.js';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').addColumn('can_manage_pharmacy', t.flag, flag(0)).execute();
  await db.updateTable('users').set({ can_manage_pharmacy: 1 }).where('role', 'in', ['owner', 'manager']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').dropColumn('can_manage_pharmacy').execute();
}
