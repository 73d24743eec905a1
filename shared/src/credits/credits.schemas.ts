import { z } from 'zod';
import { DateString, Money, MoneyInput, QueryBool, Timestamp } from '../common.js';
import { PageQuery } from '../envelope.js';
import { SettlementMethod } from '../payment-methods.js';
import { Customer } from '../customers/customers.schemas.js';

export const CreditTabStatus = z
  .enum(['open', 'partially_paid', 'settled', 'written_off'])
  .meta({ id: 'CreditTabStatus', description: 'open (nothing paid) → partially_paid → settled; open or partially_paid → written_off' });
export type CreditTabStatus = z.infer<typeof CreditTabStatus>;
/** Tab statuses that still carry a balance. */
export const OwingTabStatus = CreditTabStatus.extract(['open', 'partially_paid']);

export const CreditTab = z
  .object({
    id: z.uuid(),
    customer_id: z.uuid(),
    customer_name: z.string(),
    transaction_id: z.uuid(),
    store_id: z.uuid(),
    amount: Money,
    paid_amount: Money,
    balance: Money.meta({ description: 'amount - paid_amount, 0 once written off' }),
    status: CreditTabStatus,
    due_date: DateString.meta({ description: 'Sale date + the organisation credit terms (local date)' }),
    is_overdue: z.boolean().meta({ description: 'balance > 0 and due_date before today in the organisation time zone' }),
    created_at: Timestamp,
    settled_at: Timestamp.nullable(),
    write_off_reason: z.string().nullable(),
  })
  .meta({ id: 'CreditTab' });
export type CreditTab = z.infer<typeof CreditTab>;

export const ListCreditTabsQuery = PageQuery.extend({
  status: CreditTabStatus.optional(),
  customer_id: z.uuid().optional(),
  overdue: QueryBool.optional(),
});
export type ListCreditTabsQuery = z.infer<typeof ListCreditTabsQuery>;

export const CreditPaymentMethod = SettlementMethod.meta({ id: 'CreditPaymentMethod' });

export const CreditAllocation = z.object({ tab_id: z.uuid(), amount: Money }).meta({ id: 'CreditAllocation' });

export const CreditPayment = z
  .object({
    id: z.uuid(),
    customer_id: z.uuid(),
    store_id: z.uuid(),
    amount: Money,
    method: CreditPaymentMethod,
    reference: z.string().nullable(),
    note: z.string().nullable(),
    received_by: z.uuid().nullable(),
    created_at: Timestamp,
    allocations: z.array(CreditAllocation).meta({ description: 'How the payment was spread over tabs, oldest tab first' }),
  })
  .meta({ id: 'CreditPayment' });
export type CreditPayment = z.infer<typeof CreditPayment>;

export const RecordCreditPaymentInput = z
  .object({
    amount: MoneyInput.refine((v) => v > 0, 'must be greater than 0').meta({ description: 'TZS; at most what the customer owes' }),
    method: CreditPaymentMethod,
    reference: z.string().trim().max(100).optional(),
    note: z.string().trim().max(500).optional(),
  })
  .meta({ id: 'RecordCreditPaymentInput' });
export type RecordCreditPaymentInput = z.infer<typeof RecordCreditPaymentInput>;

export const CreditMessageKind = z.enum(['whatsapp', 'call', 'sms']);
export type CreditMessageKind = z.infer<typeof CreditMessageKind>;

export const CreditMessage = z
  .object({
    id: z.uuid(),
    customer_id: z.uuid(),
    kind: CreditMessageKind,
    body: z.string(),
    status: z.enum(['sent', 'pending', 'failed', 'logged']).meta({
      description:
        'A reminder the server texts is `sent` once the SMS gateway accepted it, `pending` while the gateway is being retried, `failed` when it refused (see `failure_reason`); `logged` for a contact recorded by hand',
    }),
    failure_reason: z.string().nullable().meta({ description: "The SMS gateway's reason when a reminder failed or was not delivered" }),
    delivery: z
      .enum(['pending', 'delivered', 'failed'])
      .nullable()
      .meta({ description: "The gateway's delivery report for a texted reminder; null when none is expected" }),
    sent_by: z.uuid().nullable(),
    created_at: Timestamp,
  })
  .meta({ id: 'CreditMessage' });
export type CreditMessage = z.infer<typeof CreditMessage>;

export const LogCreditMessageInput = z
  .object({ kind: CreditMessageKind, body: z.string().trim().min(1).max(1000) })
  .meta({ id: 'LogCreditMessageInput' });
export type LogCreditMessageInput = z.infer<typeof LogCreditMessageInput>;

export const CreditNote = z
  .object({ id: z.uuid(), customer_id: z.uuid(), body: z.string(), author_id: z.uuid().nullable(), created_at: Timestamp })
  .meta({ id: 'CreditNote' });
export type CreditNote = z.infer<typeof CreditNote>;

export const AddCreditNoteInput = z.object({ body: z.string().trim().min(1).max(2000) }).meta({ id: 'AddCreditNoteInput' });
export type AddCreditNoteInput = z.infer<typeof AddCreditNoteInput>;

export const CreditProfile = z
  .object({
    customer: Customer,
    tabs: z.array(CreditTab).meta({ description: 'Every tab, newest first' }),
    payments: z.array(CreditPayment).meta({ description: 'Newest first' }),
    messages: z.array(CreditMessage).meta({ description: 'Reminders and logged contacts, newest first' }),
    notes: z.array(CreditNote).meta({ description: 'Newest first' }),
    total_outstanding: Money,
    overdue_count: z.int(),
  })
  .meta({ id: 'CreditProfile' });
export type CreditProfile = z.infer<typeof CreditProfile>;

export const WriteOffInput = z.object({ reason: z.string().trim().min(1).max(500) }).meta({ id: 'WriteOffInput' });
export type WriteOffInput = z.infer<typeof WriteOffInput>;

export const CustomerIdParam = z.object({ customer_id: z.uuid().meta({ description: 'Customer id (UUID)' }) });
export const TabIdParam = z.object({ tab_id: z.uuid().meta({ description: 'Credit tab id (UUID)' }) });
