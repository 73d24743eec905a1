import {
  ActivityEntry,
  AdminAnalyticsOverview,
  AdminAnalyticsQuery,
  Envelope,
  ListActivityQuery,
  MonitoringOverview,
  PagedEnvelope,
} from '@duka/shared';
import { defineRoute, jsonResponse } from '../../lib/route.js';

const tags = ['Platform administration'];

export const analyticsOverview = defineRoute('admin', {
  method: 'get',
  path: '/admin/analytics/overview',
  operationId: 'getPlatformAnalytics',
  description: 'Sales and growth of the whole platform.',
  tags,
  summary: 'Platform sales and growth by day (default the last 30 days), top organisations',
  request: { query: AdminAnalyticsQuery },
  responses: { 200: jsonResponse(Envelope(AdminAnalyticsOverview), 'Overview') },
});

export const monitoringOverview = defineRoute('admin', {
  method: 'get',
  path: '/admin/monitoring/overview',
  operationId: 'getPlatformOverview',
  description: 'What is waiting: unsynced tills, unsent messages, event backlogs.',
  tags,
  summary: "Counts, today's sales, till sync, message outbox and event backlogs",
  responses: { 200: jsonResponse(Envelope(MonitoringOverview), 'Overview') },
});

export const monitoringActivity = defineRoute('admin', {
  method: 'get',
  path: '/admin/monitoring/activity',
  operationId: 'listAuditTrail',
  description: 'What administrators and owners did, across the platform.',
  tags,
  summary: 'The audit trail of every organisation, newest first',
  request: { query: ListActivityQuery },
  responses: { 200: jsonResponse(PagedEnvelope(ActivityEntry), 'A page of entries') },
});
