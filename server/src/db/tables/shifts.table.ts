import type { ShiftStatus } from '@duka/shared';
import type { Generated, Selectable } from 'kysely';

/** One cashier's shift at a store's till (issue 37). Money in cents. */
export interface ShiftTable {
  org_id: string;
  id: string;
  store_id: string;
  cashier_id: string;
  /** The till that opened it, when it was opened through sync. */
  device_id: string | null;
  till_number: string | null;
  status: Generated<ShiftStatus>;
  opening_float: number;
  open_note: string | null;
  close_note: string | null;
  /** The total over (+) or short (−) at close, of the methods counted. */
  over_short: number | null;
  opened_at: number;
  closed_at: number | null;
  closed_by: string | null;
  created_at: number;
  updated_at: number;
}

/** What one payment method was expected to hold and was counted at close. */
export interface ShiftCountTable {
  org_id: string;
  shift_id: string;
  method: string;
  expected: number;
  counted: number;
  over_short: number;
}

export type ShiftRow = Selectable<ShiftTable>;
export type ShiftCountRow = Selectable<ShiftCountTable>;
