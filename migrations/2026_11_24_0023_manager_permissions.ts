/**
 * Three permission flags (issue 18) for what a cashier may not do by default: `can_manage_credit`
 * (credit limits, debt write-offs, removing customers), `can_manage_stock` (prices, stock
 * adjustments, removing products) and `can_manage_suppliers` (marking deliveries paid by hand,
 * removing suppliers). Owners and managers had these powers before; they keep them. Staff lose
 * them until the owner grants the flag. Frozen.
 */
import type { Kysely } from 'kysely';
import { flag, t } from './_helpers.js';

const FLAGS = ['can_manage_credit', 'can_manage_stock', 'can_manage_suppliers'] as const;

export async function up(db: Kysely<any>): Promise<void> {
  for (const f of FLAGS) await db.schema.alterTable('users').addColumn(f, t.flag, flag(0)).execute();
  await db
    .updateTable('users')
    .set(Object.fromEntries(FLAGS.map((f) => [f, 1])))
    .where('role', 'in', ['owner', 'manager'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const f of FLAGS) await db.schema.alterTable('users').dropColumn(f).execute();
}
