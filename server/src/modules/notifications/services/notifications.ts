/**
 * The notification inbox of the caller's active store: every read and write is scoped to the
 * organisation and store in the access token, so another store's notification answers 404.
 */
import { countedPage } from '../../../db/page.js';
import type { CreateNotificationInput, ListNotificationsQuery, Notification, NotificationList, PageMeta } from '@duka/shared';
import { noteChange } from '../../../db/change-log.js';
import { withTransaction } from '../../../db/transaction.js';
import { recordAudit } from '../../../lib/audit.js';
import type { AuthedContext } from '../../../lib/context.js';
import { ForbiddenError, NotFoundError } from '../../../lib/errors.js';
import { findStore } from '../../tenancy/tenancy.exports.js';
import { countUnread, findNotification, markUnreadRead, storeNotifications, toNotification } from '../notifications.queries.js';
import { createNotification } from './create-notification.js';
import { requireStore } from '../../../lib/auth/authorize.js';

/** Newest first; `unread_count` is the store's whole unread count, whatever the filters. */
export async function listNotifications(
  ctx: AuthedContext,
  q: ListNotificationsQuery,
): Promise<{ list: NotificationList; meta: PageMeta }> {
  const { orgId, storeId } = requireStore(ctx);
  let query = storeNotifications(ctx.db, orgId, storeId);
  if (q.category) query = query.where('category', '=', q.category);
  if (q.unread !== undefined) query = query.where('is_read', '=', q.unread ? 0 : 1);
  const [{ rows, meta }, unread] = await Promise.all([
    countedPage(query, query.selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc'), q),
    countUnread(ctx.db, orgId, storeId),
  ]);
  return { list: { notifications: rows.map(toNotification), unread_count: unread }, meta };
}

export async function unreadCount(ctx: AuthedContext): Promise<{ count: number }> {
  const { orgId, storeId } = requireStore(ctx);
  return { count: await countUnread(ctx.db, orgId, storeId) };
}

/**
 * Post a notification to a store of the caller's organisation (the active store by default).
 * Owners may post to any of their stores; managers and staff only to their active store.
 */
export async function postNotification(ctx: AuthedContext, input: CreateNotificationInput): Promise<Notification> {
  const { orgId, storeId: active } = requireStore(ctx);
  const storeId = input.store_id ?? active;
  const store = await findStore(ctx.db, orgId, storeId);
  if (!store) throw new NotFoundError('store');
  if (storeId !== active && ctx.actor.role !== 'owner') throw new ForbiddenError('you can only post notifications to your active store');
  return withTransaction(ctx, async (tx) => {
    const n = await createNotification(tx, {
      orgId,
      storeId,
      category: input.category,
      title: input.title,
      body: input.body,
      link: input.link,
    });
    await recordAudit(tx, {
      action: 'notification.create',
      description: `Posted notification "${n.title}" to ${store.name}`,
      entity: 'notification',
      entityId: n.id,
    });
    return n;
  });
}

/** Mark one read; one already read is answered as it is. */
export async function markRead(ctx: AuthedContext, id: string): Promise<Notification> {
  const { orgId, storeId } = requireStore(ctx);
  const row = await findNotification(ctx.db, orgId, storeId, id);
  if (!row) throw new NotFoundError('notification');
  if (row.is_read === 1) return toNotification(row);
  return withTransaction(ctx, async (tx) => {
    const now = tx.clock.now();
    const [updated] = await markUnreadRead(tx.db, orgId, [id], now).returningAll().execute();
    if (updated) noteChange(tx, orgId, { entity: 'notification', id, storeId });
    return toNotification(updated ?? { ...row, is_read: 1, read_at: now });
  });
}

const READ_ALL_BATCH = 500;

/**
 * Mark every unread notification of the active store read; answers how many this call changed.
 * Batches commit one by one: each changed row is one change-log row, and a store that never reads
 * its notifications could otherwise build a single insert too large for the database's parameter limit.
 * Marking read is idempotent, so a batch committed before a failure is harmless.
 */
export async function markAllRead(ctx: AuthedContext): Promise<{ updated: number }> {
  const { orgId, storeId } = requireStore(ctx);
  let updated = 0;
  for (;;) {
    const ids = (
      await storeNotifications(ctx.db, orgId, storeId).select('id').where('is_read', '=', 0).orderBy('id').limit(READ_ALL_BATCH).execute()
    ).map((r) => r.id);
    if (ids.length === 0) break;
    updated += await withTransaction(ctx, async (tx) => {
      const rows = await markUnreadRead(tx.db, orgId, ids, tx.clock.now()).returning('id').execute();
      for (const r of rows) noteChange(tx, orgId, { entity: 'notification', id: r.id, storeId });
      return rows.length;
    });
    if (ids.length < READ_ALL_BATCH) break;
  }
  return { updated };
}

export async function deleteNotification(ctx: AuthedContext, id: string): Promise<void> {
  const { orgId, storeId } = requireStore(ctx);
  const row = await findNotification(ctx.db, orgId, storeId, id);
  if (!row) throw new NotFoundError('notification');
  await withTransaction(ctx, async (tx) => {
    const gone = await tx.db.deleteFrom('notifications').where('org_id', '=', orgId).where('id', '=', id).executeTakeFirst();
    if (Number(gone.numDeletedRows) === 0) return;
    noteChange(tx, orgId, { entity: 'notification', id, op: 'delete', storeId });
    await recordAudit(tx, {
      action: 'notification.delete',
      description: `Deleted notification "${row.title}"`,
      entity: 'notification',
      entityId: id,
    });
  });
}
