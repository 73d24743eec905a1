/**
 * GET /sync/pull: the till's changes after its cursor (design §4). One page is one statement
 * (`pullPage`): the organisation's versions with at most `limit + 1` change-log rows of the till's
 * store or the whole organisation, through the (org_id, version) primary key, so an unchanged pull
 * is one empty index probe plus the organisation row. Rows of other stores and kinds a till does
 * not hold are skipped for good: a page that ends the log moves the cursor to the organisation's
 * version as read with it (every change up to it committed and in the log), a full page to its last row.
 * Repeats of one row in a page collapse to the last; each is answered with the row's current state,
 * or as a delete when it is no longer in what the till holds.
 *
 * Every page also answers the ADDO list's version: the list is platform data, kept out of the
 * per-organisation change log (an admin's edit would be one write per organisation), so an ADDO
 * till compares versions instead and fetches the list when they differ.
 */
import { iso } from '../../../lib/clock.js';
import type { Change, PullResponse } from '@duka/shared';
import type { AuthedContext } from '../../../lib/context.js';
import { NotFoundError } from '../../../lib/errors.js';
import { pullPage } from '../pull.queries.js';
import { KIND_BY_ENTITY } from './entities.js';
import { scopeAt } from './scope.js';
import { refuseRetired } from '../../push/services/devices.js';
import { decodeCursor, encodeCursor } from './tokens.js';
import { requireStore } from '../../../lib/auth/authorize.js';

export async function pullChanges(ctx: AuthedContext, q: { cursor?: string; limit: number; device_id?: string }): Promise<PullResponse> {
  const till = requireStore(ctx);
  const { orgId, storeId } = till;
  const from = decodeCursor(q.cursor, orgId);

  // One snapshot: pruning deletes rows and raises the floor in one transaction, so a page that
  // missed pruned rows always sees the raised floor.
  const read = await pullPage(ctx.db, orgId, storeId, from, q.limit + 1, q.device_id ?? null);
  const org = read[0];
  if (!org) throw new NotFoundError('organisation');
  refuseRetired({ retired_at: org.device_retired_at == null ? null : Number(org.device_retired_at) });
  const scanned = read.filter((r) => r.change_version !== null);
  const addo_list_version = Number(org.addo_version ?? 0);
  const floor = Number(org.floor ?? 0);
  // Below the floor: changes were pruned. Above the organisation's version: the server went back
  // in time (restored from a backup). Either way only a fresh bootstrap is right.
  if (from < floor || from > Number(org.version)) {
    return {
      changes: [],
      cursor: encodeCursor(orgId, from),
      has_more: false,
      reset_required: true,
      addo_list_version,
      server_time: iso(ctx.clock.now()),
    };
  }

  const hasMore = scanned.length > q.limit;
  const page = hasMore ? scanned.slice(0, q.limit) : scanned;
  const to = hasMore ? Number(page[page.length - 1]!.change_version) : Number(org.version);

  // The last entry per (entity, id) that this till holds, in version order.
  const latest = new Map<string, { entity: string; id: string; version: number }>();
  for (const row of page) {
    if (!KIND_BY_ENTITY.has(row.entity!)) continue;
    const key = `${row.entity}\u0000${row.entity_id}`;
    latest.delete(key);
    latest.set(key, { entity: row.entity!, id: row.entity_id!, version: Number(row.change_version) });
  }

  const scope = scopeAt({ ...till, files: ctx.config }, ctx.clock.now(), org.timezone);
  const idsByEntity = new Map<string, string[]>();
  for (const c of latest.values()) idsByEntity.set(c.entity, [...(idsByEntity.get(c.entity) ?? []), c.id]);
  const current = new Map<string, Record<string, unknown>>();
  for (const [entity, ids] of idsByEntity) {
    for (const row of await KIND_BY_ENTITY.get(entity)!.rows(ctx.db, scope, { ids })) current.set(`${entity}\u0000${row.id}`, row.data);
  }

  const changes: Change[] = [...latest].map(([key, c]) => {
    const data = current.get(key);
    return { entity: c.entity as Change['entity'], op: data ? 'upsert' : 'delete', id: c.id, version: c.version, data: data ?? null };
  });
  return {
    changes,
    cursor: encodeCursor(orgId, to),
    has_more: hasMore,
    reset_required: false,
    addo_list_version,
    server_time: iso(ctx.clock.now()),
  };
}
