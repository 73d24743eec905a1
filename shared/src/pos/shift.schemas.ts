/** Shifts and cash-up (issue 37): the wire shapes of /pos/shifts, the sync mutations and the till's X report. */
import { z } from 'zod';
import { DateString, Money, MoneyInput, orNull, Timestamp } from '../common.js';
import { PageQuery } from '../envelope.js';
import { SettlementMethod } from '../payment-methods.js';

export const ShiftStatus = z.enum(['open', 'closed']);
export type ShiftStatus = z.infer<typeof ShiftStatus>;

const Note = z.string().trim().max(500);

export const OpenShiftInput = z
  .object({
    id: z.uuid().optional().meta({ description: 'A client-generated id: opening again with it answers the shift already open' }),
    opening_float: MoneyInput.meta({ description: 'Cash in the drawer at the start, TZS' }),
    till_number: z.string().trim().min(1).max(30).optional(),
    note: Note.optional(),
  })
  .meta({ id: 'OpenShiftInput' });
export type OpenShiftInput = z.infer<typeof OpenShiftInput>;

/** What was counted at close, per method: Cash is required; a wallet or Bank left out is reported as not counted. */
export const ShiftCounted = z
  .partialRecord(SettlementMethod, MoneyInput)
  .refine((c) => c.Cash !== undefined, { message: 'must include Cash (the drawer is always counted)', path: ['Cash'] })
  .meta({ description: 'TZS counted per method: the drawer, and each wallet’s or the bank’s total for the shift from its statement' });

export const CloseShiftInput = z
  .object({ counted: ShiftCounted, note: Note.optional() })
  .meta({ id: 'CloseShiftInput', example: { counted: { Cash: 148000, 'M-Pesa': 62500 }, note: 'one 2,000 note short' } });
export type CloseShiftInput = z.infer<typeof CloseShiftInput>;

export const ShiftReportMethod = z
  .object({
    method: z.string(),
    counted_at_close: z.boolean().meta({ description: 'false for Credit (a debt) and Cheque: listed, never counted' }),
    opening_float: Money,
    sales: Money,
    sales_count: z.int(),
    refunds: Money.meta({ description: 'Refunds and voids made in this shift (money given back)' }),
    refunds_count: z.int(),
    credit_payments: Money,
    payouts: Money.meta({ description: 'Expenses paid out in this shift' }),
    expected: orNull(Money),
    counted: orNull(Money),
    over_short: orNull(Money).meta({ description: 'counted − expected: negative is short' }),
  })
  .meta({ id: 'ShiftReportMethod' });

export const ShiftReport = z
  .object({
    kind: z.enum(['X', 'Z']).meta({ description: 'X while the shift is open (expected so far), Z once closed (with what was counted)' }),
    shift_id: z.uuid(),
    store_id: z.uuid(),
    cashier_id: z.uuid(),
    cashier_name: z.string().nullable(),
    till_number: z.string().nullable(),
    opened_at: Timestamp,
    closed_at: Timestamp.nullable(),
    opening_float: Money,
    methods: z.array(ShiftReportMethod),
    totals: z.object({
      sales: Money,
      refunds: Money,
      credit_payments: Money,
      payouts: Money,
      expected: Money.meta({ description: 'Of the methods counted at close' }),
      counted: Money,
      over_short: Money,
    }),
    sales_count: z.int(),
    refund_count: z.int(),
    payout_count: z.int(),
    credit_payment_count: z.int(),
    note: z.string().nullable().meta({ description: 'The closing note' }),
  })
  .meta({ id: 'ShiftReport' });
export type ShiftReport = z.infer<typeof ShiftReport>;

export const TillShift = z
  .object({
    id: z.uuid(),
    store_id: z.uuid(),
    cashier_id: z.uuid(),
    till_number: z.string().nullable(),
    device_id: z.uuid().nullable(),
    status: ShiftStatus,
    opening_float: Money,
    open_note: z.string().nullable(),
    close_note: z.string().nullable(),
    opened_at: Timestamp,
    closed_at: Timestamp.nullable(),
    closed_by: z.uuid().nullable(),
    over_short: orNull(Money).meta({ description: 'The total over (+) or short (−) at close; null while open' }),
  })
  .meta({ id: 'TillShift' });
export type TillShift = z.infer<typeof TillShift>;

export const TillShiftWithReport = TillShift.extend({ report: ShiftReport }).meta({ id: 'TillShiftWithReport' });
export type TillShiftWithReport = z.infer<typeof TillShiftWithReport>;

export const ListShiftsQuery = PageQuery.extend({
  status: ShiftStatus.optional(),
  cashier_id: z.uuid().optional().meta({ description: 'Owner and manager only; a cashier always sees their own' }),
  date_from: DateString.optional().meta({ description: 'Opened on or after this local day' }),
  date_to: DateString.optional().meta({ description: 'Opened on or before this local day' }),
});
export type ListShiftsQuery = z.infer<typeof ListShiftsQuery>;
