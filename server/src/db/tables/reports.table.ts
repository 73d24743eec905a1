import type { RangePreset, ReportFormat, ReportFrequency, ReportType } from '@duka/shared';
import type { Generated, Selectable } from 'kysely';

/** A generated report file, kept under `storage_key` so a re-download returns the same bytes. */
export interface ReportExportTable {
  id: string;
  org_id: string;
  store_id: string | null;
  report_type: ReportType;
  format: ReportFormat;
  storage_key: string;
  file_name: string;
  size_bytes: number;
  /** Local dates `YYYY-MM-DD`, inclusive; null for reports as of now (inventory, credit). */
  date_from: string | null;
  date_to: string | null;
  scheduled_report_id: string | null;
  created_by: string | null;
  created_at: number;
}

/** A report emailed on a timer. `next_run_at` (epoch ms) doubles as the claim token of a send. */
export interface ScheduledReportTable {
  id: string;
  org_id: string;
  store_id: string | null;
  report_type: ReportType;
  name: string;
  frequency: ReportFrequency;
  date_range_preset: RangePreset;
  /** JSON array of email addresses. */
  recipients: string;
  is_enabled: Generated<number>;
  next_run_at: number;
  last_run_at: number | null;
  last_export_id: string | null;
  created_by: string | null;
  created_at: number;
  updated_at: number;
}

export type ReportExportRow = Selectable<ReportExportTable>;
export type ScheduledReportRow = Selectable<ScheduledReportTable>;
