/**
 * Conflicts: rules an offline sale broke but was booked anyway (design §4). Each is kept for the
 * owner to resolve and raises a notification in the sale's store.
 */
import type { SaleConflict, SyncConflict } from '@duka/shared';
import { iso, isoOrNull } from '../../../lib/clock.js';
import type { AuthedContext } from '../../../lib/context.js';
import { NotFoundError } from '../../../lib/errors.js';
import { createNotification } from '../../../modules/notifications/notifications.exports.js';
import type { SyncConflictRow } from '../../../db/tables/sync.table.js';
import { requireOrg, requireRole } from '../../../lib/auth/authorize.js';
import { insertConflict } from '../push.queries.js';
import { countedPage } from '../../../db/page.js';

const toConflict = (r: SyncConflictRow): SyncConflict => ({
  id: r.id,
  kind: r.kind as SyncConflict['kind'],
  message: r.message,
  device_id: r.device_id,
  mutation_id: r.mutation_id,
  transaction_id: r.transaction_id,
  product_id: r.product_id,
  detail: r.detail ? (JSON.parse(r.detail) as Record<string, unknown>) : null,
  resolved: r.resolved === 1,
  resolution_note: r.resolution_note,
  resolved_at: isoOrNull(r.resolved_at),
  created_at: iso(r.created_at),
});

/** Record the conflicts of one mutation, inside its transaction; `subject` names it when it is not a sale. */
export async function recordConflicts(
  ctx: AuthedContext,
  at: { orgId: string; storeId: string; deviceId: string; mutationId: string; transactionId?: string; receipt?: string; subject?: string },
  conflicts: SaleConflict[],
): Promise<void> {
  for (const c of conflicts) {
    await insertConflict(ctx.db, at, c, ctx.clock.now());
    await createNotification(ctx, {
      orgId: at.orgId,
      storeId: at.storeId,
      category: c.kind === 'oversold' ? 'stock' : 'sales',
      title: `${at.subject ?? `Offline sale${at.receipt ? ` ${at.receipt}` : ''}`} needs a look: ${c.kind.replaceAll('_', ' ')}`,
      body: c.message,
      link: '/sync/conflicts',
    });
  }
}

export async function listConflicts(
  ctx: AuthedContext,
  q: { kind?: string; resolved?: boolean; device_id?: string; page: number; page_size: number },
) {
  requireRole(ctx, 'owner');
  let query = ctx.db.selectFrom('sync_conflicts').where('org_id', '=', requireOrg(ctx));
  if (q.kind) query = query.where('kind', '=', q.kind);
  if (q.resolved !== undefined) query = query.where('resolved', '=', q.resolved ? 1 : 0);
  if (q.device_id) query = query.where('device_id', '=', q.device_id);
  const { rows, meta } = await countedPage(query, query.selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc'), q);
  return { items: rows.map(toConflict), meta };
}

export async function resolveConflict(ctx: AuthedContext, id: string, note: string): Promise<SyncConflict> {
  requireRole(ctx, 'owner');
  const now = ctx.clock.now();
  const row = await ctx.db
    .updateTable('sync_conflicts')
    .set({ resolved: 1, resolution_note: note, resolved_by: ctx.actor.userId, resolved_at: now })
    .where('id', '=', id)
    .where('org_id', '=', requireOrg(ctx))
    .returningAll()
    .executeTakeFirst();
  if (!row) throw new NotFoundError('conflict');
  return toConflict(row);
}
