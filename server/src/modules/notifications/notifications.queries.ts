import { newId } from '@duka/shared';
import type { Notification, NotificationCategory } from '@duka/shared';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.js';
import { iso } from '../../lib/clock.js';
import type { NotificationRow } from '../../db/tables/notifications.table.js';

export function toNotification(row: NotificationRow): Notification {
  return {
    id: row.id,
    store_id: row.store_id,
    category: row.category,
    title: row.title,
    body: row.body,
    link: row.link,
    is_read: row.is_read === 1,
    created_at: iso(row.created_at),
  };
}

/** A store's notifications; every read and write of this area starts here, so scoping lives in one place. */
export function storeNotifications(db: Kysely<Database>, orgId: string, storeId: string) {
  return db.selectFrom('notifications').where('org_id', '=', orgId).where('store_id', '=', storeId);
}

export function findNotification(db: Kysely<Database>, orgId: string, storeId: string, id: string): Promise<NotificationRow | undefined> {
  return storeNotifications(db, orgId, storeId).selectAll().where('id', '=', id).executeTakeFirst();
}

export async function countUnread(db: Kysely<Database>, orgId: string, storeId: string): Promise<number> {
  const row = await storeNotifications(db, orgId, storeId)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('is_read', '=', 0)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The update marking those of `ids` still unread read (the caller picks what it returns). */
export function markUnreadRead(db: Kysely<Database>, orgId: string, ids: string[], now: number) {
  return db
    .updateTable('notifications')
    .set({ is_read: 1, read_at: now })
    .where('org_id', '=', orgId)
    .where('id', 'in', ids)
    .where('is_read', '=', 0);
}

export interface NewNotification {
  orgId: string;
  storeId: string;
  category: NotificationCategory;
  title: string;
  body?: string;
  link?: string | null;
}

/** A new, unread notification; the row as written. */
export function insertNotification(db: Kysely<Database>, n: NewNotification, now: number): Promise<NotificationRow> {
  return db
    .insertInto('notifications')
    .values({
      id: newId(),
      org_id: n.orgId,
      store_id: n.storeId,
      category: n.category,
      title: n.title,
      body: n.body ?? '',
      link: n.link ?? null,
      is_read: 0,
      read_at: null,
      created_at: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}
