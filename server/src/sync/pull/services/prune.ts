/**
 * Bounded metadata (design §4): change-log rows older than CHANGE_LOG_RETENTION_DAYS are deleted.
 * Per organisation the log stays a contiguous suffix: everything up to the newest expired version
 * goes, in batches, each in one transaction with the raised floor, so a pull that finds rows
 * missing always finds the floor above its cursor too (and answers `reset_required`).
 */
import { crossOrg } from '../../../db/tenant-scope-check.js';
import type { Deps } from '../../../lib/context.js';
import { raiseChangeLogFloor } from '../pull.queries.js';

const BATCH = 5_000;

export async function pruneChangeLog(deps: Deps): Promise<{ organisations: number; deleted: number }> {
  const now = deps.clock.now();
  const cutoff = now - deps.config.CHANGE_LOG_RETENTION_DAYS * 86_400_000;
  const db = deps.db;
  const expired = await db
    .selectFrom('change_log')
    .select((eb) => ['org_id', eb.fn.max('version').as('newest')])
    .where('created_at', '<', cutoff)
    .groupBy('org_id')
    .modifyEnd(crossOrg('job scan'))
    .execute();

  let deleted = 0;
  for (const { org_id: orgId, newest } of expired) {
    const target = Number(newest);
    const existing = await db.selectFrom('change_log_floor').select('version').where('org_id', '=', orgId).executeTakeFirst();
    let floor = Number(existing?.version ?? 0);
    while (floor < target) {
      const bound = Math.min(floor + BATCH, target);
      deleted += await deps.transact(async (trx) => {
        const tx = trx;
        const res = await tx.deleteFrom('change_log').where('org_id', '=', orgId).where('version', '<=', bound).executeTakeFirst();
        await raiseChangeLogFloor(tx, orgId, bound, now);
        return Number(res.numDeletedRows);
      });
      floor = bound;
    }
  }
  if (deleted) deps.log.info({ organisations: expired.length, deleted }, 'change log pruned');
  return { organisations: expired.length, deleted };
}
