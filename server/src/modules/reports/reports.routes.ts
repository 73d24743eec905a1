import {
  CreateScheduledReportInput,
  Envelope,
  GenerateReportInput,
  IdParam,
  ListExportsQuery,
  MessageEnvelope,
  ReportExport,
  ReportResult,
  ReportTypes,
  ScheduledReport,
  ScheduledReportDispatch,
  UpdateScheduledReportInput,
} from '@duka/shared';
import { z } from 'zod';
import { defineRoute, jsonBody, jsonResponse } from '../../lib/route.js';

const tags = ['Reports'];
const needs = { permission: 'reports' } as const;
const csvFile = { 'text/csv': { schema: z.string().meta({ description: 'RFC 4180 CSV with a header row, CRLF line ends, UTF-8' }) } };
const reportFile = (description: string) => ({
  description,
  headers: {
    'Content-Disposition': { description: 'CSV only: attachment; filename="…"', schema: { type: 'string' as const } },
    'X-Export-Id': { required: true, description: 'Id of the recorded export', schema: { type: 'string' as const, format: 'uuid' } },
  },
  content: { ...csvFile, 'application/json': { schema: Envelope(ReportResult) } },
});

export const types = defineRoute('bearer', {
  method: 'get',
  path: '/reports/types',
  operationId: 'listReportTypes',
  description: 'The reports there are and their columns.',
  tags,
  summary: 'The reports that can be generated, with their columns',
  responses: { 200: jsonResponse(Envelope(ReportTypes), 'Report types') },
});

export const generate = defineRoute('bearer', {
  needs,
  method: 'post',
  path: '/reports/generate',
  operationId: 'generateReport',
  errors: ['INVALID_STATE', 'NOT_FOUND'],
  tags,
  summary: 'Generate a report as a CSV download or JSON; recorded as an export',
  description:
    'Sales and VAT cover the active store in the period (a `range` preset or `date_from`/`date_to`, local dates, inclusive; default the last 30 days); inventory is the active store now; credit is the organisation now. Money has 2 decimals (TZS). Refunded and void sales are listed with their status and left out of the totals.',
  request: { body: jsonBody(GenerateReportInput, { report_type: 'sales', format: 'csv', range: '30d' }) },
  responses: { 200: reportFile('The report file (`format: csv`) or the JSON envelope (`format: json`)') },
});

export const listExports = defineRoute('bearer', {
  needs,
  method: 'get',
  path: '/reports/exports',
  operationId: 'listReportExports',
  description: 'Reports generated so far, each downloadable again.',
  errors: ['INVALID_STATE', 'NOT_FOUND'],
  tags,
  summary: 'Generated reports of the organisation, newest first',
  request: { query: ListExportsQuery },
  responses: { 200: jsonResponse(Envelope(z.array(ReportExport)), 'Exports') },
});

export const download = defineRoute('bearer', {
  needs,
  method: 'get',
  path: '/reports/exports/{id}/download',
  operationId: 'downloadReportExport',
  description: 'Answers a generated report file again, byte for byte.',
  errors: ['INVALID_STATE'],
  tags,
  summary: 'Download a generated report again: the same bytes as the first time',
  request: { params: IdParam },
  responses: { 200: reportFile('The stored report file') },
});

export const listScheduled = defineRoute('owner', {
  method: 'get',
  path: '/reports/scheduled',
  operationId: 'listScheduledReports',
  description: 'Reports emailed on a schedule.',
  errors: ['INVALID_STATE', 'NOT_FOUND'],
  tags,
  summary: 'Scheduled reports of the organisation',
  responses: { 200: jsonResponse(Envelope(z.array(ScheduledReport)), 'Scheduled reports') },
});

export const createScheduled = defineRoute('owner', {
  method: 'post',
  path: '/reports/scheduled',
  operationId: 'createScheduledReport',
  errors: ['INVALID_STATE', 'NOT_FOUND'],
  tags,
  summary: 'Email a report as CSV daily (07:00), weekly (Monday 07:00) or monthly (the 1st, 07:00), local time',
  description:
    "The period is the preset ending the day before the send (a monthly `month` report covers the previous month). Sales, VAT and inventory are of the owner's active store when the schedule is created.",
  request: {
    body: jsonBody(CreateScheduledReportInput, {
      report_type: 'sales',
      name: 'Weekly sales',
      frequency: 'weekly',
      date_range_preset: '7d',
      recipients: ['asha@example.tz'],
    }),
  },
  responses: { 200: jsonResponse(Envelope(ScheduledReport), 'The scheduled report') },
});

export const updateScheduled = defineRoute('owner', {
  method: 'patch',
  path: '/reports/scheduled/{id}',
  operationId: 'updateScheduledReport',
  description: "Changes a scheduled report's name, frequency, period, recipients or whether it is on.",
  errors: ['INVALID_STATE'],
  tags,
  summary: 'Change a scheduled report; a new frequency or switching it back on schedules the next send from now',
  request: {
    params: IdParam,
    body: jsonBody(UpdateScheduledReportInput, { recipients: ['asha@example.tz', 'juma@example.tz'], is_enabled: true }),
  },
  responses: { 200: jsonResponse(Envelope(ScheduledReport), 'The scheduled report') },
});

export const deleteScheduled = defineRoute('owner', {
  method: 'delete',
  path: '/reports/scheduled/{id}',
  operationId: 'deleteScheduledReport',
  description: 'Stops and deletes a scheduled report.',
  errors: ['INVALID_STATE'],
  tags,
  summary: 'Delete a scheduled report (its exports stay)',
  request: { params: IdParam },
  responses: { 200: jsonResponse(MessageEnvelope, 'Deleted') },
});

export const sendScheduled = defineRoute('owner', {
  method: 'post',
  path: '/reports/scheduled/{id}/send',
  operationId: 'sendScheduledReport',
  description: 'Emails the report now, as its schedule would, and records the export.',
  errors: ['INVALID_STATE'],
  tags,
  summary: 'Send the report to its recipients now (its schedule is unchanged)',
  request: { params: IdParam },
  responses: { 200: jsonResponse(Envelope(ScheduledReportDispatch), 'What was sent') },
});
