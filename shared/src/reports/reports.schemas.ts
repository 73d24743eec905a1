import { z } from 'zod';
import { DateString, Email, Money, Timestamp } from '../common.js';

export const ReportType = z.enum(['sales', 'inventory', 'tax', 'credit']).meta({ id: 'ReportType' });
export type ReportType = z.infer<typeof ReportType>;
export const ReportFormat = z.enum(['csv', 'json']).meta({ id: 'ReportFormat' });
export type ReportFormat = z.infer<typeof ReportFormat>;
export const RangePreset = z.enum(['7d', '30d', '90d', 'month', 'ytd']).meta({
  id: 'RangePreset',
  description: '7d/30d/90d: that many local days ending today; month: this month so far; ytd: this year so far',
});
export type RangePreset = z.infer<typeof RangePreset>;
export const ReportFrequency = z.enum(['daily', 'weekly', 'monthly']).meta({ id: 'ReportFrequency' });
export type ReportFrequency = z.infer<typeof ReportFrequency>;

export const ReportTypeInfo = z
  .object({ type: ReportType, name: z.string(), description: z.string(), columns: z.array(z.string()) })
  .meta({ id: 'ReportTypeInfo' });
export type ReportTypeInfo = z.infer<typeof ReportTypeInfo>;
export const ReportTypes = z.object({ report_types: z.array(ReportTypeInfo) }).meta({ id: 'ReportTypes' });

export const GenerateReportInput = z
  .object({
    report_type: ReportType,
    format: ReportFormat.default('csv'),
    range: RangePreset.optional(),
    date_from: DateString.optional(),
    date_to: DateString.optional(),
  })
  .refine((v) => !(v.range && (v.date_from || v.date_to)), { message: 'give either range or date_from/date_to, not both', path: ['range'] })
  .refine((v) => !(v.date_from && v.date_to) || v.date_from <= v.date_to, {
    message: 'date_from must not be after date_to',
    path: ['date_to'],
  })
  .meta({
    id: 'GenerateReportInput',
    description: 'Without range or dates: the last 30 days. With only date_from: up to today; only date_to: the 30 days ending then.',
  });
export type GenerateReportInput = z.infer<typeof GenerateReportInput>;

export const ReportExport = z
  .object({
    id: z.uuid(),
    report_type: ReportType,
    format: ReportFormat,
    file_url: z.string().meta({ description: 'Path of GET /reports/exports/{id}/download (same bytes every time)' }),
    file_name: z.string(),
    size: z.int().meta({ description: 'bytes' }),
    date_from: DateString.nullable(),
    date_to: DateString.nullable(),
    store_id: z.uuid().nullable(),
    scheduled_report_id: z.uuid().nullable(),
    created_by: z.uuid().nullable(),
    created_at: Timestamp,
  })
  .meta({ id: 'ReportExport' });
export type ReportExport = z.infer<typeof ReportExport>;

export const ListExportsQuery = z.object({
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .default(20)
    .transform((n) => Math.min(n, 100)),
  report_type: ReportType.optional(),
  format: ReportFormat.optional(),
});
export type ListExportsQuery = z.infer<typeof ListExportsQuery>;

/**
 * The JSON form of a generated report: the same rows as the CSV (money as numbers), plus totals. It
 * is the stored file itself (every download answers the same bytes), written before its export is
 * recorded, so it names the export by id and download path.
 */
export const ReportResult = z
  .object({
    export_id: ReportExport.shape.id,
    file_url: ReportExport.shape.file_url,
    report_type: ReportType,
    date_from: DateString.nullable(),
    date_to: DateString.nullable(),
    timezone: z.string(),
    columns: z.array(z.string()),
    totals: z.record(z.string(), z.union([Money, z.int(), z.string()])),
    rows: z.array(z.record(z.string(), z.union([z.string(), z.number(), z.null()]))),
  })
  .meta({ id: 'ReportResult' });
export type ReportResult = z.infer<typeof ReportResult>;

export const ScheduledReport = z
  .object({
    id: z.uuid(),
    report_type: ReportType,
    name: z.string(),
    frequency: ReportFrequency,
    date_range_preset: RangePreset,
    recipients: z.array(z.string()),
    is_enabled: z.boolean(),
    store_id: z.uuid().nullable(),
    next_run_at: Timestamp.meta({ description: 'daily 07:00, weekly Monday 07:00, monthly the 1st 07:00, local time' }),
    last_run_at: Timestamp.nullable(),
    last_export_id: z.uuid().nullable(),
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .meta({ id: 'ScheduledReport' });
export type ScheduledReport = z.infer<typeof ScheduledReport>;

const Recipients = z.array(Email).min(1).max(20);

export const CreateScheduledReportInput = z
  .object({
    report_type: ReportType,
    name: z.string().trim().min(1).max(120),
    frequency: ReportFrequency,
    date_range_preset: RangePreset,
    recipients: Recipients,
    is_enabled: z.boolean().default(true),
  })
  .meta({ id: 'CreateScheduledReportInput' });
export type CreateScheduledReportInput = z.infer<typeof CreateScheduledReportInput>;

export const UpdateScheduledReportInput = z
  .object({
    name: z.string().trim().min(1).max(120).optional(),
    frequency: ReportFrequency.optional(),
    date_range_preset: RangePreset.optional(),
    recipients: Recipients.optional(),
    is_enabled: z.boolean().optional(),
  })
  .meta({ id: 'UpdateScheduledReportInput' });
export type UpdateScheduledReportInput = z.infer<typeof UpdateScheduledReportInput>;

export const ScheduledReportDispatch = z
  .object({
    scheduled_report_id: z.uuid(),
    export: ReportExport,
    recipients: z.array(z.string()),
    queued: z.int().meta({ description: 'emails written to the outbox' }),
    delivered: z.boolean().meta({ description: 'false when no email service is configured: kept in the outbox' }),
  })
  .meta({ id: 'ScheduledReportDispatch' });
export type ScheduledReportDispatch = z.infer<typeof ScheduledReportDispatch>;
