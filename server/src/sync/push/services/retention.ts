/**
 * Bounded sync metadata (design §4): mutation records are kept SYNC_MUTATION_RETENTION_DAYS (90)
 * and then pruned; a device's last applied seq stays as long as the device, so an older replay is
 * still answered `duplicate` (without its original result). Devices unseen for DEVICE_RETIRE_DAYS
 * (a year) are retired with their records; such a till must register again.
 */
import { crossOrg } from '../../../db/tenant-scope-check.js';
import type { Deps } from '../../../lib/context.js';

/** Rows deleted per transaction: on SQLite each batch is one commit, and the event loop turns between batches. */
const BATCH = 500;

export async function pruneSyncRecords(deps: Deps): Promise<{ mutations: number; devices: number }> {
  const now = deps.clock.now();
  const cutoff = now - deps.config.SYNC_MUTATION_RETENTION_DAYS * 86_400_000;
  let mutations = 0;
  for (;;) {
    const n = await deps.transact(async (trx) => {
      const old = await trx
        .selectFrom('sync_mutations')
        .select(['org_id', 'device_id', 'seq'])
        .where('created_at', '<', cutoff)
        .limit(BATCH)
        .modifyEnd(crossOrg('job scan'))
        .execute();
      for (const { org_id, device_id, seq } of old)
        await trx
          .deleteFrom('sync_mutations')
          .where('org_id', '=', org_id)
          .where('device_id', '=', device_id)
          .where('seq', '=', seq)
          .execute();
      return old.length;
    });
    mutations += n;
    if (n < BATCH) break;
  }
  // A till the owner retired stays, so that its id is still refused if it comes back (issue 54).
  const stale = await deps.db
    .selectFrom('devices')
    .select(['org_id', 'id'])
    .where((eb) => eb(eb.fn.coalesce('last_seen_at', 'created_at'), '<', now - deps.config.DEVICE_RETIRE_DAYS * 86_400_000))
    .where('retired_at', 'is', null)
    .modifyEnd(crossOrg('job scan'))
    .execute();
  for (const { org_id, id } of stale) {
    await deps.transact(async (trx) => {
      await trx.deleteFrom('sync_mutations').where('org_id', '=', org_id).where('device_id', '=', id).execute();
      await trx.deleteFrom('devices').where('org_id', '=', org_id).where('id', '=', id).execute();
    });
  }
  if (mutations || stale.length) deps.log.info({ mutations, devices: stale.length }, 'sync records pruned');
  return { mutations, devices: stale.length };
}
