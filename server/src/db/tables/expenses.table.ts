import type { Selectable } from 'kysely';

/** Money spent by a store; amount in cents. Deleted for real (no deleted_at). */
export interface ExpenseTable {
  id: string;
  org_id: string;
  store_id: string;
  title: string;
  category: string;
  amount: number;
  payment_method: string;
  payment_reference: string | null;
  notes: string | null;
  receipt_url: string | null;
  spent_at: number;
  created_by: string | null;
  /** The shift it was paid out in (issue 37). */
  shift_id: string | null;
  created_at: number;
  updated_at: number;
}

export type ExpenseRow = Selectable<ExpenseTable>;
