import { Envelope } from '@duka/shared';
import { z } from 'zod';
import { defineRoute, jsonResponse } from '../../lib/route.js';

const tags = ['Platform administration'];

export const AdminDashboard = z
  .object({
    organisations: z.int(),
    stores: z.int(),
    users: z.int(),
    signups_last_30_days: z.int(),
  })
  .meta({ id: 'AdminDashboard' });

export const MonitoringHealth = z
  .object({
    database: z.enum(['ok', 'unreachable']),
    dialect: z.enum(['sqlite', 'postgres']),
    uptime_seconds: z.int(),
    outbox_failed: z.int().meta({ description: 'Messages whose delivery is failing' }),
  })
  .meta({ id: 'MonitoringHealth' });

export const dashboard = defineRoute('admin', {
  method: 'get',
  path: '/admin/dashboard',
  operationId: 'getAdminDashboard',
  description: 'Organisations, users, stores and sales of the whole platform.',
  tags,
  summary: 'Platform totals',
  responses: { 200: jsonResponse(Envelope(AdminDashboard), 'Totals') },
});

export const monitoringHealth = defineRoute('admin', {
  method: 'get',
  path: '/admin/monitoring/health',
  operationId: 'getPlatformHealth',
  description: 'Whether the server and database are well, with their figures.',
  tags,
  summary: 'Server and database health',
  responses: { 200: jsonResponse(Envelope(MonitoringHealth), 'Health') },
});
