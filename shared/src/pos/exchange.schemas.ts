/**
 * An exchange at the counter (issue 52, docs/pos.md "Exchanges"): items of a sale back, items out,
 * the difference paid or given back, in one transaction. The items back are a refund of part of the
 * sale (`RefundLines`), the items out a sale (`SaleLineInput`), the difference tendered like a sale.
 */
import { z } from 'zod';
import { PaymentMethod, SettlementMethod } from '../payment-methods.js';
import { DateString } from '../common.js';
import { QuantityInput } from '../inventory/units.js';
import { TzMobileNumber } from '../msisdn.js';
import { RefundLines, SaleLineInput, SalePayments, Transaction } from './pos.schemas.js';

export const ExchangeInput = z
  .object({
    id: z.uuid().optional().meta({ description: 'Client-generated id of the new sale: a second exchange with this id answers the first' }),
    transaction_id: z.uuid().meta({ description: 'The sale the items come back from' }),
    reason: z.string().trim().min(1).max(500).meta({ example: 'wrong size' }),
    back: RefundLines.meta({
      description: 'The items coming back: lines of that sale and how much of each, in the product’s unit (decimals for measured products)',
    }),
    out: z.array(SaleLineInput).min(1, 'must have at least one line').max(500).meta({
      description: 'The items going out, priced and stocked as a sale’s lines',
    }),
    payment_method: PaymentMethod.exclude(['Credit']).optional().meta({
      description: 'How the customer pays the difference when the items out cost more (or give payments)',
    }),
    payments: SalePayments.optional().meta({ description: 'The difference paid several ways (no Credit part)' }),
    payment_reference: z.string().trim().max(100).optional(),
    payment_phone: TzMobileNumber.optional(),
    give_back: z
      .union([SettlementMethod, z.literal('tab')])
      .optional()
      .meta({
        description:
          'When the items back are worth more: the method the difference goes out by first (as far as the sale was paid that way; the rest as a refund gives back), or `tab`: it pays off what the customer owes',
      }),
    shift_id: z.uuid().optional().meta({ description: 'The open shift whose drawer takes and gives the money (default as for a refund)' }),
  })
  .superRefine((v, ctx) => {
    if (v.payments?.some((p) => p.method === 'Credit'))
      ctx.addIssue({ code: 'custom', path: ['payments'], message: 'the difference cannot go on the tab' });
    if (v.payment_method && v.payments)
      ctx.addIssue({ code: 'custom', path: ['payment_method'], message: 'give payment_method or payments, not both' });
  })
  .meta({ id: 'ExchangeInput' });
export type ExchangeInput = z.infer<typeof ExchangeInput>;

const Money = z.number().meta({ description: 'TZS' });

export const Exchange = z
  .object({
    returned: Transaction.meta({ description: 'The sale the items came back from, after the refund' }),
    sale: Transaction.meta({ description: 'The new sale of the items out, paid partly by the items back' }),
    returned_total: Money.meta({ description: 'What the items back were worth (the refund)' }),
    sale_total: Money,
    difference: Money.meta({ description: 'sale_total − returned_total: more than 0 the customer paid it, less than 0 it was given back' }),
    settlement: z.array(z.object({ method: PaymentMethod, amount: Money })).meta({
      description: 'The money that really changed hands, per method: positive paid in, negative given back (empty when even)',
    }),
    to_tab: Money.meta({ description: 'What the difference took off the customer’s tab' }),
  })
  .meta({ id: 'Exchange' });
export type Exchange = z.infer<typeof Exchange>;

/** A return without a receipt (issue 52, docs/pos.md "Returns without a receipt"). */
export const ReturnInput = z
  .object({
    reason: z.string().trim().min(1).max(500).meta({ example: 'no receipt, unopened' }),
    lines: z
      .array(
        z.object({
          product_id: z.uuid(),
          qty: QuantityInput.meta({ description: 'In the product’s unit (decimals for measured products)' }),
        }),
      )
      .min(1)
      .max(50)
      .refine((ls) => new Set(ls.map((l) => l.product_id)).size === ls.length, 'each product at most once'),
    date_from: DateString.meta({ description: 'First local day the customer says they bought it' }),
    date_to: DateString.meta({ description: 'Last local day, inclusive' }),
    payout_method: SettlementMethod.optional().meta({
      description: 'How a line with no sale found is paid out (default Cash); a line whose sale is found gives back as its refund does',
    }),
    shift_id: z.uuid().optional().meta({ description: 'The open shift whose drawer pays (default as for a refund)' }),
  })
  .refine((v) => v.date_from <= v.date_to, { message: 'must not be after date_to', path: ['date_from'] })
  .meta({ id: 'ReturnInput' });
export type ReturnInput = z.infer<typeof ReturnInput>;

export const ReturnResult = z
  .object({
    lines: z.array(
      z.object({
        product_id: z.uuid(),
        qty: z.number(),
        amount: Money.meta({ description: 'What it gave back' }),
        basis: z
          .enum(['sale', 'current_price'])
          .meta({ description: 'sale: at the price paid on the sale found; current_price: none was found' }),
        transaction_id: z.uuid().nullable().meta({ description: 'The sale it was refunded from' }),
        receipt_number: z.string().nullable(),
      }),
    ),
    total: Money,
    expense_id: z
      .uuid()
      .nullable()
      .meta({ description: 'The payout of the lines with no sale found, noted as a return without a receipt' }),
  })
  .meta({ id: 'ReturnResult' });
export type ReturnResult = z.infer<typeof ReturnResult>;
