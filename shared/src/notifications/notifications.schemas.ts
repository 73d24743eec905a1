import { z } from 'zod';
import { QueryBool, Timestamp } from '../common.js';
import { PageQuery } from '../envelope.js';

export const NotificationCategory = z.enum(['stock', 'credit', 'sales', 'ai', 'system', 'supplier']).meta({ id: 'NotificationCategory' });
export type NotificationCategory = z.infer<typeof NotificationCategory>;

export const Notification = z
  .object({
    id: z.uuid(),
    store_id: z.uuid(),
    category: NotificationCategory,
    title: z.string(),
    body: z.string(),
    link: z.string().nullable().meta({ description: 'Where the app should take the reader, e.g. `/inventory/products/{id}`' }),
    is_read: z.boolean(),
    created_at: Timestamp,
  })
  .meta({ id: 'Notification' });
export type Notification = z.infer<typeof Notification>;

export const CreateNotificationInput = z
  .object({
    store_id: z
      .uuid()
      .optional()
      .meta({ description: 'A store of your organisation; defaults to your active store. Only owners may post to another store' }),
    category: NotificationCategory,
    title: z.string().trim().min(1).max(200),
    body: z.string().trim().max(2000).optional(),
    link: z.string().trim().min(1).max(500).nullable().optional(),
  })
  .meta({ id: 'CreateNotificationInput' });
export type CreateNotificationInput = z.infer<typeof CreateNotificationInput>;

export const ListNotificationsQuery = PageQuery.extend({
  category: NotificationCategory.optional(),
  unread: QueryBool.optional(),
});
export type ListNotificationsQuery = z.infer<typeof ListNotificationsQuery>;

export const NotificationList = z
  .object({
    notifications: z.array(Notification),
    unread_count: z.int().meta({ description: 'Unread notifications of the active store, whatever the filters' }),
  })
  .meta({ id: 'NotificationList' });
export type NotificationList = z.infer<typeof NotificationList>;

export const NotificationUnreadCount = z.object({ count: z.int() }).meta({ id: 'NotificationUnreadCount' });
export type NotificationUnreadCount = z.infer<typeof NotificationUnreadCount>;
export const NotificationReadAllResult = z
  .object({ updated: z.int().meta({ description: 'How many were marked read' }) })
  .meta({ id: 'NotificationReadAllResult' });
export type NotificationReadAllResult = z.infer<typeof NotificationReadAllResult>;
