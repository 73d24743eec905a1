import type { CreditMessageKind, CreditTabStatus } from '@duka/shared';
import type { Generated, Selectable } from 'kysely';

/** A sale on credit. balance = amount - paid_amount - written_off_amount (cents). */
export interface CreditTabTable {
  id: string;
  org_id: string;
  store_id: string;
  customer_id: string;
  transaction_id: string;
  amount: number;
  paid_amount: Generated<number>;
  written_off_amount: Generated<number>;
  status: Generated<CreditTabStatus>;
  /** Local date `YYYY-MM-DD`: sale date + organisation credit_terms_days. */
  due_date: string;
  write_off_reason: string | null;
  settled_at: number | null;
  written_off_at: number | null;
  created_at: number;
  updated_at: number;
}

export interface CreditPaymentTable {
  id: string;
  org_id: string;
  store_id: string;
  customer_id: string;
  amount: number;
  method: string;
  reference: string | null;
  note: string | null;
  received_by: string | null;
  /** The shift it was received in (issue 37). */
  shift_id: string | null;
  created_at: number;
}

/** How a payment was spread over tabs (oldest first). */
export interface CreditAllocationTable {
  /** The organisation, as its parent's (issue 36): a row placed by tenant finds its home without a join. */
  org_id: string;
  payment_id: string;
  tab_id: string;
  amount: number;
}

export interface CreditMessageTable {
  id: string;
  org_id: string;
  customer_id: string;
  kind: CreditMessageKind;
  body: string;
  /** `sent` for a texted reminder (its real state is its outbox message's), `logged` for a contact by hand. */
  status: string;
  /** The SMS carrying a reminder. */
  outbox_id: string | null;
  sent_by: string | null;
  created_at: number;
}

export interface CreditNoteTable {
  id: string;
  org_id: string;
  customer_id: string;
  body: string;
  author_id: string | null;
  created_at: number;
}

export type CreditTabRow = Selectable<CreditTabTable>;
export type CreditPaymentRow = Selectable<CreditPaymentTable>;
