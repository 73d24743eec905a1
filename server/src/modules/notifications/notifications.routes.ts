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
import { defineRoute, jsonBody, jsonResponse } from '../../lib/route.js';

const tags = ['Notifications'];

export const list = defineRoute('bearer', {
  method: 'get',
  path: '/notifications',
  tags,
  summary: "The active store's notifications, newest first; `unread=true` for unread only",
  request: { query: ListNotificationsQuery },
  responses: { 200: jsonResponse(Envelope(NotificationList, PageMeta), 'Notifications and the unread count; meta has the page') },
});

export const unreadCount = defineRoute('bearer', {
  method: 'get',
  path: '/notifications/unread-count',
  tags,
  summary: "How many of the active store's notifications are unread",
  responses: { 200: jsonResponse(Envelope(NotificationUnreadCount), 'Unread count') },
});

export const create = defineRoute('bearer', {
  method: 'post',
  path: '/notifications',
  tags,
  summary: 'Post a notification to a store (owners: any store of the organisation; others: their active store)',
  request: { body: jsonBody(CreateNotificationInput) },
  responses: { 200: jsonResponse(Envelope(Notification), 'The notification') },
});

export const readAll = defineRoute('bearer', {
  method: 'patch',
  path: '/notifications/read-all',
  tags,
  summary: "Mark all of the active store's notifications read",
  responses: { 200: jsonResponse(Envelope(NotificationReadAllResult), 'How many were marked read') },
});

export const markRead = defineRoute('bearer', {
  method: 'patch',
  path: '/notifications/{id}/read',
  tags,
  summary: 'Mark a notification read',
  request: { params: IdParam },
  responses: { 200: jsonResponse(Envelope(Notification), 'The notification') },
});

export const remove = defineRoute('bearer', {
  method: 'delete',
  path: '/notifications/{id}',
  tags,
  summary: 'Delete a notification',
  request: { params: IdParam },
  responses: { 200: jsonResponse(MessageEnvelope, 'Deleted') },
});
