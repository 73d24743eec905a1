/** The push's statements: devices, the mutations they sent, the conflicts they raised, and the prices offline sales are judged by. */
import { newId, type SaleConflict } from '@duka/shared';
import type { Insertable, Kysely } from 'kysely';
import type { Database } from '../../db/database.js';
import { onPostgres } from '../../db/dialect.js';
import type { DeviceTable } from '../../db/tables/sync.table.js';

/** A till's registration; a device id or till code taken meanwhile fails on its unique index. */
export function insertDevice(db: Kysely<Database>, device: Insertable<DeviceTable>) {
  return db.insertInto('devices').values(device).returningAll().executeTakeFirstOrThrow();
}

/**
 * What became of mutations already recorded in the organisation: any of its devices' with one of
 * these ids, and this device's within their seq range. A mutation id is the organisation's (issue
 * 36): another organisation's use of it is not looked for. On SQLite the two halves go as a UNION
 * ALL, each down its own index (`(org_id, id)`, the key `(org_id, device_id, seq)`): asked as one
 * OR, SQLite searched the first index on `org_id` alone and read every mutation the organisation
 * ever pushed, each push dearer than the last (issue 51's bench). A row both halves find comes
 * twice; readSeen keys them. Postgres plans the OR as two index scans already.
 */
export function recordedMutations(
  db: Kysely<Database>,
  device: { orgId: string; deviceId: string },
  mutations: ReadonlyArray<{ id: string; seq: number }>,
) {
  return recordedMutationsQuery(db, device, mutations).execute();
}

/** `recordedMutations`' statement, unsent (test/platform/planner-stats.test.ts reads its plan). */
export function recordedMutationsQuery(
  db: Kysely<Database>,
  device: { orgId: string; deviceId: string },
  mutations: ReadonlyArray<{ id: string; seq: number }>,
) {
  const { deviceId } = device;
  const recorded = () =>
    db
      .selectFrom('sync_mutations')
      .select(['id', 'seq', 'device_id', 'status', 'error_code', 'error_message', 'result'])
      .where('org_id', '=', device.orgId);
  const ids = mutations.map((m) => m.id);
  const first = mutations[0]!.seq;
  const last = mutations[mutations.length - 1]!.seq;
  if (!onPostgres(db))
    return recorded()
      .where('id', 'in', ids)
      .unionAll(recorded().where('device_id', '=', deviceId).where('seq', '>=', first).where('seq', '<=', last));
  return recorded().where((eb) =>
    eb.or([eb('id', 'in', ids), eb.and([eb('device_id', '=', deviceId), eb('seq', '>=', first), eb('seq', '<=', last)])]),
  );
}

/** A rule an offline sale broke, kept unresolved for the owner. */
export async function insertConflict(
  db: Kysely<Database>,
  at: { orgId: string; storeId: string; deviceId: string; mutationId: string; transactionId?: string },
  c: SaleConflict,
  now: number,
): Promise<void> {
  await db
    .insertInto('sync_conflicts')
    .values({
      id: newId(),
      org_id: at.orgId,
      store_id: at.storeId,
      device_id: at.deviceId,
      mutation_id: at.mutationId,
      transaction_id: at.transactionId ?? null,
      kind: c.kind,
      product_id: c.product_id ?? null,
      message: c.message,
      detail: c.detail ? JSON.stringify(c.detail) : null,
      resolution_note: null,
      resolved_by: null,
      resolved_at: null,
      created_at: now,
    })
    .execute();
}

/**
 * The price rows of these products in force at some moment from `since` to `to`: those that took
 * effect within it, and each product's latest before it (its price when the window opened). One
 * statement (a push's round trips are its cost on Postgres).
 */
export function pricesInForce(db: Kysely<Database>, orgId: string, productIds: string[], since: number, to: number) {
  const columns = ['p.id', 'p.product_id', 'p.selling_price', 'p.wholesale_price', 'p.effective_from'] as const;
  return db
    .selectFrom('product_prices as p')
    .select(columns)
    .where('p.org_id', '=', orgId)
    .where('p.product_id', 'in', productIds)
    .where('p.effective_from', '>=', since)
    .where('p.effective_from', '<=', to)
    .unionAll(
      // The price each product had when the window opened: its latest row before it.
      db
        .selectFrom('product_prices as p')
        .select(columns)
        .where('p.org_id', '=', orgId)
        .where('p.product_id', 'in', productIds)
        .where('p.effective_from', '<', since)
        .where(({ not, exists, selectFrom }) =>
          not(
            exists(
              selectFrom('product_prices as q')
                .select('q.id')
                .whereRef('q.org_id', '=', 'p.org_id')
                .whereRef('q.product_id', '=', 'p.product_id')
                .where('q.effective_from', '<', since)
                .where((eb) =>
                  eb.or([
                    eb('q.effective_from', '>', eb.ref('p.effective_from')),
                    eb.and([eb('q.effective_from', '=', eb.ref('p.effective_from')), eb('q.id', '>', eb.ref('p.id'))]),
                  ]),
                ),
            ),
          ),
        ),
    )
    .execute();
}

/** The organisation's refused mutations since `since`, with the till that pushed each: the filter and the ordered page. */
export function refusedMutations(db: Kysely<Database>, orgId: string, since: number) {
  const filtered = db
    .selectFrom('sync_mutations as m')
    .innerJoin('devices as d', (j) => j.onRef('d.org_id', '=', 'm.org_id').onRef('d.id', '=', 'm.device_id'))
    .where('m.org_id', '=', orgId)
    .where('d.org_id', '=', orgId)
    .where('m.status', '=', 'rejected')
    .where('m.created_at', '>=', since);
  const ordered = filtered
    .select(['m.id', 'm.device_id', 'd.till_code', 'd.store_id', 'm.type', 'm.error_code', 'm.error_message', 'm.created_at'])
    .orderBy('m.created_at', 'desc')
    .orderBy('m.id', 'desc');
  return { filtered, ordered };
}
