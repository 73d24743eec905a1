/** The pull's reads (the change log after a cursor, the organisation's versions) and the change log's floor. */
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.js';
import { ADDO_STATE_ID } from '../../modules/pharmacy/pharmacy.exports.js';

/** Up to `limit` change-log rows of the organisation after version `after`, in version order (its primary key). */
export function changesAfter(db: Kysely<Database>, orgId: string, after: number, limit: number) {
  return db
    .selectFrom('change_log')
    .select(['version', 'entity', 'entity_id', 'op', 'store_id'])
    .where('org_id', '=', orgId)
    .where('version', '>', after)
    .orderBy('version')
    .limit(limit)
    .execute();
}

/** The organisation's version and time zone, its change log's floor and the ADDO list's version; undefined for no such organisation. */
export function pullVersions(db: Kysely<Database>, orgId: string) {
  return (
    db
      .selectFrom('organisations as o')
      .leftJoin('change_log_floor as f', 'f.org_id', 'o.id')
      // The list's one state row rides on the same read: an unchanged pull stays two index probes.
      .leftJoin('addo_list_state as a', (j) => j.on('a.id', '=', ADDO_STATE_ID))
      .select(['o.version', 'o.timezone', 'f.version as floor', 'a.version as addo_version'])
      .where('o.id', '=', orgId)
      .executeTakeFirst()
  );
}

/** Raise the organisation's change-log floor to `version` (never lower it), noting when it was pruned. */
export async function raiseChangeLogFloor(db: Kysely<Database>, orgId: string, version: number, now: number): Promise<void> {
  await db
    .insertInto('change_log_floor')
    .values({ org_id: orgId, version, pruned_at: now })
    .onConflict((oc) =>
      oc
        .column('org_id')
        .doUpdateSet((eb) => ({ version: eb.ref('excluded.version'), pruned_at: eb.ref('excluded.pruned_at') }))
        .where((eb) => eb('change_log_floor.version', '<', eb.ref('excluded.version'))),
    )
    .execute();
}
