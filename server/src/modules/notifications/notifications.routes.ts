import {
  CreateNotificationInput,
  Envelope,
  IdParam,
  ListNotificationsQuery,
  MessageEnvelope,
  Notification,
  NotificationList,
  NotificationReadAllResult,
  NotificationUnreadCount,
  PageMeta,
} from '@duka/shared';
import { defineRoute, example, jsonBody, jsonResponse } from '../../lib/route.js';

const tags = ['Notifications'];

export const list = defineRoute('bearer', {
  method: 'get',
  path: '/notifications',
  operationId: 'listNotifications',
  description: 'Notifications of the active store: low stock, credit, sales, system.',
  errors: ['INVALID_STATE', 'NOT_FOUND'],
  tags,
  summary: "The active store's notifications, newest first; `unread=true` for unread only",
  request: { query: ListNotificationsQuery },
  responses: { 200: jsonResponse(Envelope(NotificationList, PageMeta), 'Notifications and the unread count; meta has the page') },
});

export const unreadCount = defineRoute('bearer', {
  method: 'get',
  path: '/notifications/unread-count',
  operationId: 'countUnreadNotifications',
  description: 'For the badge: how many notifications are unread.',
  errors: ['INVALID_STATE', 'NOT_FOUND'],
  tags,
  summary: "How many of the active store's notifications are unread",
  responses: { 200: jsonResponse(Envelope(NotificationUnreadCount), 'Unread count', example({ count: 3 })) },
});

export const create = defineRoute('bearer', {
  method: 'post',
  path: '/notifications',
  operationId: 'createNotification',
  description: 'Posts a notification that every member of the store sees (and tills receive over the realtime channel).',
  errors: ['INVALID_STATE', 'NOT_FOUND'],
  tags,
  summary: 'Post a notification to a store (owners: any store of the organisation; others: their active store)',
  request: {
    body: jsonBody(CreateNotificationInput, {
      category: 'system',
      title: 'Stock count on Sunday',
      body: 'Please stay 30 minutes after closing.',
    }),
  },
  responses: { 200: jsonResponse(Envelope(Notification), 'The notification') },
});

export const readAll = defineRoute('bearer', {
  method: 'patch',
  path: '/notifications/read-all',
  operationId: 'markAllNotificationsRead',
  description: 'Marks every unread notification of the active store read; answers how many.',
  errors: ['INVALID_STATE', 'NOT_FOUND'],
  tags,
  summary: "Mark all of the active store's notifications read",
  responses: { 200: jsonResponse(Envelope(NotificationReadAllResult), 'How many were marked read') },
});

export const markRead = defineRoute('bearer', {
  method: 'patch',
  path: '/notifications/{id}/read',
  operationId: 'markNotificationRead',
  description: 'Marks one notification read.',
  errors: ['INVALID_STATE'],
  tags,
  summary: 'Mark a notification read',
  request: { params: IdParam },
  responses: { 200: jsonResponse(Envelope(Notification), 'The notification') },
});

export const remove = defineRoute('bearer', {
  method: 'delete',
  path: '/notifications/{id}',
  operationId: 'deleteNotification',
  description: 'Deletes one notification of the active store.',
  errors: ['INVALID_STATE'],
  tags,
  summary: 'Delete a notification',
  request: { params: IdParam },
  responses: { 200: jsonResponse(MessageEnvelope, 'Deleted') },
});
