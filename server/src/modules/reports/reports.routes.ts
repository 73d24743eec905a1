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
const csvFile = { 'text/csv': { schema: z.string().meta({ description: 'RFC 4180 CSV with a header row, CRLF line ends, UTF-8' }) } };
const reportFile = (description: string) => ({
  description,
  headers: z.object({
    'content-disposition': z.string().optional().meta({ description: 'CSV only: attachment; filename="…"' }),
    'x-export-id': z.string().meta({ description: 'Id of the recorded export' }),
  }),
  content: { ...csvFile, 'application/json': { schema: Envelope(ReportResult) } },
});

export const types = defineRoute('bearer', {
  method: 'get',
  path: '/reports/types',
  tags,
  summary: 'The reports that can be generated, with their columns',
  responses: { 200: jsonResponse(Envelope(ReportTypes), 'Report types') },
});

export const generate = defineRoute('bearer', {
  method: 'post',
  path: '/reports/generate',
  tags,
  summary: 'Generate a report as a CSV download or JSON; recorded as an export (needs the reports permission)',
  description:
    'Sales and VAT cover the active store in the period (a `range` preset or `date_from`/`date_to`, local dates, inclusive; default the last 30 days); inventory is the active store now; credit is the organisation now. Money has 2 decimals (TZS). Refunded and void sales are listed with their status and left out of the totals.',
  request: { body: jsonBody(GenerateReportInput) },
  responses: { 200: reportFile('The report file (`format: csv`) or the JSON envelope (`format: json`)') },
});

export const listExports = defineRoute('bearer', {
  method: 'get',
  path: '/reports/exports',
  tags,
  summary: 'Generated reports of the organisation, newest first',
  request: { query: ListExportsQuery },
  responses: { 200: jsonResponse(Envelope(z.array(ReportExport)), 'Exports') },
});

export const download = defineRoute('bearer', {
  method: 'get',
  path: '/reports/exports/{id}/download',
  tags,
  summary: 'Download a generated report again: the same bytes as the first time',
  request: { params: IdParam },
  responses: { 200: reportFile('The stored report file') },
});

export const listScheduled = defineRoute('owner', {
  method: 'get',
  path: '/reports/scheduled',
  tags,
  summary: 'Scheduled reports of the organisation',
  responses: { 200: jsonResponse(Envelope(z.array(ScheduledReport)), 'Scheduled reports') },
});

export const createScheduled = defineRoute('owner', {
  method: 'post',
  path: '/reports/scheduled',
  tags,
  summary: 'Email a report as CSV daily (07:00), weekly (Monday 07:00) or monthly (the 1st, 07:00), local time',
  description: "The period is the preset ending the day before the send (a monthly `month` report covers the previous month). Sales, VAT and inventory are of the owner's active store when the schedule is created.",
  request: { body: jsonBody(CreateScheduledReportInput) },
  responses: { 200: jsonResponse(Envelope(ScheduledReport), 'The scheduled report') },
});

export const updateScheduled = defineRoute('owner', {
  method: 'patch',
  path: '/reports/scheduled/{id}',
  tags,
  summary: 'Change a scheduled report; a new frequency or switching it back on schedules the next send from now',
  request: { params: IdParam, body: jsonBody(UpdateScheduledReportInput) },
  responses: { 200: jsonResponse(Envelope(ScheduledReport), 'The scheduled report') },
});

export const deleteScheduled = defineRoute('owner', {
  method: 'delete',
  path: '/reports/scheduled/{id}',
  tags,
  summary: 'Delete a scheduled report (its exports stay)',
  request: { params: IdParam },
  responses: { 200: jsonResponse(MessageEnvelope, 'Deleted') },
});

export const sendScheduled = defineRoute('owner', {
  method: 'post',
  path: '/reports/scheduled/{id}/send',
  tags,
  summary: 'Send the report to its recipients now (its schedule is unchanged)',
  request: { params: IdParam },
  responses: { 200: jsonResponse(Envelope(ScheduledReportDispatch), 'What was sent') },
});
