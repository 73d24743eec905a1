/**
 * Issue 51: the daily rollups count a measured product's line in its unit. `sales_daily.items`
 * is now pieces plus one per measured line, and `cost` (in both rollup tables) a measured line's
 * thousandths × cost price rounded half up to the shilling (server stock-levels/unit-rules.ts);
 * rows built before summed the line's counts (grams) and multiplied them by the price per kg. An
 * organisation with a measured product gets its rollups rebuilt from the ledger at the next read:
 * its state forgets the time zone they were cut in, which the refresh answers with a full rebuild
 * (analytics/services/rollups.ts). Every other organisation's rows, piece products only, are what
 * the new rule gives, and are left alone. No column changes; `down` has nothing to undo (rows
 * rebuilt by the new rule are right under it). Frozen.
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db
    .updateTable('analytics_rollup_state')
    .set({ time_zone: null })
    .where('org_id', 'in', (eb: any) => eb.selectFrom('products').select('org_id').where('unit', '<>', sql.lit('piece')))
    .execute();
}

export async function down(_db: Kysely<any>): Promise<void> {}
