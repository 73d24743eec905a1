/** Marking a notification read on the till, queued as `notification.read`. */
import { TillError } from '../errors.js';
import { snapshot } from '../local/effects.js';
import { enqueue } from '../queue.js';
import type { ActionCtx } from './context.js';

export async function markNotificationRead(ctx: ActionCtx, notificationId: string): Promise<void> {
  await ctx.db.transaction().execute(async (trx) => {
    const row = await trx.selectFrom('notifications').select(['data', 'is_read']).where('id', '=', notificationId).executeTakeFirst();
    if (!row) throw new TillError('NOT_FOUND', 'notification not found', 'notification_id');
    if (row.is_read) return;
    const before = await snapshot(trx, 'notifications', notificationId);
    const data = JSON.stringify({ ...JSON.parse(row.data), is_read: true });
    await trx.updateTable('notifications').set({ is_read: 1, data }).where('id', '=', notificationId).execute();
    await enqueue(trx, 'notification.read', { notification_id: notificationId }, ctx.now(), {
      restore: [{ table: 'notifications', id: notificationId, row: before }],
    });
  });
  ctx.queued();
}
