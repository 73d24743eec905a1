/**
 * The one way a notification comes into being: the REST route, the low-stock subscriber and any
 * other area (credit, sync conflicts, suppliers) call it inside their own transaction, so the
 * notification commits, or not, with what caused it, and tills receive it through the change log.
 */
import type { Notification } from '@duka/shared';
import { noteChange } from '../../../db/change-log.js';
import { afterCommit, withTransaction } from '../../../db/transaction.js';
import type { ServiceContext } from '../../../lib/context.js';
import { insertNotification, type NewNotification, toNotification } from '../notifications.queries.js';

/** Write a notification for `storeId` (the caller has checked the store belongs to `orgId`). */
export async function createNotification(ctx: ServiceContext, n: NewNotification): Promise<Notification> {
  return withTransaction(ctx, async (tx) => {
    const row = await insertNotification(tx.db, n, tx.clock.now());
    noteChange(tx, n.orgId, { entity: 'notification', id: row.id, storeId: n.storeId });
    const notification = toNotification(row);
    afterCommit(tx, () => tx.realtime.notification(n.orgId, n.storeId, notification));
    return notification;
  });
}
