/** The pull's read (a page of the change log with the organisation's versions) and the change log's floor. */
import { type CompiledQuery, createQueryId, type InferResult, type Kysely } from 'kysely';
import type { Database } from '../../db/database.js';
import { ADDO_STATE_ID } from '../../modules/pharmacy/pharmacy.exports.js';

/**
 * One page of a till's pull in one statement (issue 53; one snapshot on both databases): the
 * organisation's version and time zone, its change log's floor and the ADDO list's version, with
 * up to `limit` change-log rows after version `after` that a till of `storeId` can hold (its
 * store's and the organisation-wide ones), in version order, through the (org_id, version) key.
 * One row per change, each carrying the organisation's columns; a single row with null change
 * columns when there is none; none for no such organisation. Other stores' rows never leave the
 * database: the organisation's version, read in the same snapshot as the rows, is where a page
 * that ends the log moves the cursor past them.
 */
function pageQuery(db: Kysely<Database>, orgId: string, storeId: string, after: number, limit: number, deviceId: string | null) {
  return (
    db
      .selectFrom('organisations as o')
      .leftJoin('change_log_floor as f', 'f.org_id', 'o.id')
      // The list's one state row rides on the same read.
      .leftJoin('addo_list_state as a', (j) => j.on('a.id', '=', ADDO_STATE_ID))
      // The till's own row, when it names itself: a retired till is refused on the same read (issue 54).
      .leftJoin('devices as d', (j) => j.onRef('d.org_id', '=', 'o.id').on('d.id', '=', deviceId))
      .leftJoin(
        (eb) =>
          eb
            .selectFrom('change_log')
            .select(['version', 'entity', 'entity_id'])
            .where('org_id', '=', orgId)
            .where('version', '>', after)
            .where((w) => w.or([w('store_id', 'is', null), w('store_id', '=', storeId)]))
            .orderBy('version')
            .limit(limit)
            .as('c'),
        (j) => j.onTrue(),
      )
      .select(['o.version', 'o.timezone', 'f.version as floor', 'a.version as addo_version', 'd.retired_at as device_retired_at'])
      .select(['c.version as change_version', 'c.entity', 'c.entity_id'])
      .where('o.id', '=', orgId)
      .orderBy('c.version')
  );
}

type PageRow = InferResult<ReturnType<typeof pageQuery>>[number];

/** Stand-ins for the page's values, put in when the statement is built and swapped for the real ones at each pull. */
const SLOT = {
  orgId: { slot: 'orgId' },
  storeId: { slot: 'storeId' },
  after: { slot: 'after' },
  limit: { slot: 'limit' },
  deviceId: { slot: 'deviceId' },
};
/**
 * The page's statement, built and compiled once per database: building it through Kysely cost
 * more than the read itself (issue 53's profile). Plugins (the tenant-scope check) see it when it
 * is compiled; its SQL and its parameters' places never change, only their values.
 */
const compiledPages = new WeakMap<Kysely<Database>, CompiledQuery<PageRow>>();

export async function pullPage(
  db: Kysely<Database>,
  orgId: string,
  storeId: string,
  after: number,
  limit: number,
  deviceId: string | null = null,
): Promise<PageRow[]> {
  let page = compiledPages.get(db);
  if (!page) {
    page = pageQuery(
      db,
      SLOT.orgId as never,
      SLOT.storeId as never,
      SLOT.after as never,
      SLOT.limit as never,
      SLOT.deviceId as never,
    ).compile();
    // Every value must travel as a parameter, never be written into the SQL.
    for (const slot of Object.values(SLOT)) if (!page.parameters.includes(slot)) throw new Error('the pull page inlined a value');
    compiledPages.set(db, page);
  }
  const values = new Map<unknown, unknown>([
    [SLOT.orgId, orgId],
    [SLOT.storeId, storeId],
    [SLOT.after, after],
    [SLOT.limit, limit],
    [SLOT.deviceId, deviceId],
  ]);
  const parameters = page.parameters.map((p) => (values.has(p) ? values.get(p) : p));
  return (await db.executeQuery<PageRow>({ ...page, parameters, queryId: createQueryId() })).rows;
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
