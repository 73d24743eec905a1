/** What a report is made of, for each report's spec and the writer alike. */
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/database.js';
import type { Period } from './range.js';

export type Cell = string | number | null;
export type Row = Record<string, Cell>;

export interface Column {
  key: string;
  /** Integer cents, written with 2 decimals. */
  money?: boolean;
}

export interface ReportSpec {
  columns: Column[];
  /** Money totals in cents (named in `moneyTotals`), counts as integers. */
  totals: Record<string, number>;
  moneyTotals: string[];
  rows: () => AsyncGenerator<Row[]>;
  /** False for reports as of now (inventory, credit): they have no period. */
  dated: boolean;
}

export interface ReportScope {
  db: Kysely<Database>;
  orgId: string;
  storeId: string;
  tz: string;
  now: number;
  period: Period;
}
