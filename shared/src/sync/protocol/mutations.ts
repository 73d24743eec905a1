/** The mutations a till queues offline and pushes, one payload schema per type (design brief §4). */
import { z } from 'zod';
import { MoneyInput } from '../../common.js';
import { CreateExpenseInput } from '../../expenses/expenses.schemas.js';
import { QtyChange } from '../../inventory/inventory.schemas.js';
import { StockTakeCountInput } from '../../inventory/stock-takes.schemas.js';
import { QuantityInput } from '../../inventory/units.js';
import { NoteTags } from '../../notebook/notebook.schemas.js';
import { PaymentMethod, SettlementMethod } from '../../payment-methods.js';
import { TzMobileNumber } from '../../msisdn.js';
import { LineBatchInput } from '../../pharmacy/batch.schemas.js';
import { Prescription } from '../../pharmacy/prescription.schemas.js';
import { CustomerTin, PriceMode, paymentMethodOrParts, RefundLines, SalePayments, SaleSource } from '../../pos/pos.schemas.js';
import { CloseShiftInput, OpenShiftInput } from '../../pos/shift.schemas.js';

/**
 * The till's open shift when it did something that moves money (a sale, refund, void, expense or
 * credit payment). Used when it names a shift of this organisation and store; otherwise the
 * pusher's open shift there is (never a reason to reject: a sale is never lost over its shift).
 */
const ShiftRef = z.uuid().optional().meta({ description: "The till's open shift when this was done" });

/** A sale the till already made: its lines carry the unit price the till charged. */
export const SaleCreatePayload = z
  .object({
    id: z.uuid().meta({ description: 'The sale id the till gave it' }),
    client_receipt_number: z.string().trim().min(1).max(60),
    lines: z
      .array(
        z.object({
          product_id: z.uuid(),
          qty: QuantityInput.meta({
            description:
              "In the product's unit: whole for a piece product, up to 3 decimals for a measured one (protocol 2); packs, whole, on a line by the pack",
          }),
          unit_price: MoneyInput.meta({
            description:
              "Per piece, or per one of a measured product's unit (per kg); on a line by the pack, one pack's price as the till charged it",
          }),
          pack_id: z.uuid().optional().meta({
            description:
              "Sold by this pack of the product (issue 51, protocol 2): qty counts whole packs, stock falls by packs × the pack's units, and the pack is booked at the price the till charged",
          }),
          scale_barcode: z
            .string()
            .regex(/^\d{13}$/)
            .optional()
            .meta({
              description:
                'The shop-scale label the line was scanned from (issue 51): the server reads it as POST /pos/sale does; product_id and qty must agree with it',
            }),
          batches: z
            .array(LineBatchInput)
            .max(50)
            .optional()
            .meta({ description: 'The batches the till took the units from (batch-tracked products)' }),
        }),
      )
      .min(1)
      .max(500),
    payment_method: PaymentMethod.optional().meta({ description: 'The one method the sale was paid by; or payments' }),
    payments: SalePayments.optional().meta({
      description: "The parts of a sale paid several ways, judged against its total at the till's prices",
    }),
    payment_reference: z.string().trim().max(100).optional(),
    payment_phone: TzMobileNumber.optional(),
    discount_pct: z.number().min(0).max(100).optional(),
    customer_id: z.uuid().optional(),
    customer_name: z.string().trim().min(1).max(150).optional(),
    customer_phone: z.string().trim().min(7).max(20).optional(),
    customer_tin: CustomerTin.optional(),
    till_number: z.string().trim().max(30).optional(),
    notes: z.string().trim().max(1000).optional(),
    price_mode: PriceMode.optional(),
    cashier_id: z.uuid().optional().meta({
      description:
        'Who rang the sale up on the till (the user signed in then). The sale is always booked to the user pushing; another user named here is recorded as a `cashier_mismatch` conflict',
    }),
    prescription: Prescription.optional(),
    shift_id: ShiftRef,
    cash_tendered: MoneyInput.optional().meta({
      description: "Cash sales: the cash handed over, at least the sale's total at the till's prices (the till refuses less)",
    }),
    source: SaleSource.optional().meta({
      description: 'Whether the till reached the server when the cashier rang the sale up (default offline: a till that does not say)',
    }),
  })
  .superRefine(paymentMethodOrParts);
export const SaleReversePayload = z.object({ transaction_id: z.uuid(), reason: z.string().trim().min(1).max(500), shift_id: ShiftRef });
/** A refund, of the whole sale or (issue 51) of these lines; a till that sends no `lines` refunds the whole sale as always. */
export const SaleRefundPayload = SaleReversePayload.extend({ lines: RefundLines.optional() });
export const CustomerUpsertPayload = z.object({
  id: z.uuid(),
  name: z.string().trim().min(1).max(150),
  phone: z.string().trim().min(7).max(20).optional(),
  email: z.email().optional(),
  /** TZS, 0 = no limit. */
  credit_limit: MoneyInput.optional(),
  notes: z.string().trim().max(1000).optional(),
});
export type CustomerUpsertPayload = z.infer<typeof CustomerUpsertPayload>;
export const CreditPaymentPayload = z.object({
  id: z.uuid(),
  customer_id: z.uuid(),
  /** TZS, more than 0 and at most what the customer owes. */
  amount: MoneyInput.refine((v) => v > 0, 'must be more than 0'),
  method: SettlementMethod,
  reference: z.string().trim().max(100).optional(),
  note: z.string().trim().max(500).optional(),
  shift_id: ShiftRef,
});
export type CreditPaymentPayload = z.infer<typeof CreditPaymentPayload>;
export const StockAdjustPayload = z.object({
  product_id: z.uuid(),
  /** Units added (positive) or taken (negative); never 0. */
  qty_change: QtyChange,
  /** e.g. `damaged`, `count`, `received`. */
  reason: z.string().trim().min(1).max(100),
  note: z.string().trim().max(500).optional(),
  /** The lot adjusted: required for a batch-tracked product, as on `POST /inventory/products/{id}/adjust`. */
  batch_id: z.uuid().optional(),
});
export type StockAdjustPayload = z.infer<typeof StockAdjustPayload>;
export const NotificationReadPayload = z.object({ notification_id: z.uuid() });
/** An expense the till recorded; `spent_at` defaults to the mutation's `created_at`. */
export const ExpenseCreatePayload = CreateExpenseInput.extend({
  id: z.uuid().meta({ description: 'The expense id the till gave it' }),
  shift_id: ShiftRef,
});
/** A shift the till opened: its `id` is the till's, so a replay answers the same shift. */
export const ShiftOpenPayload = OpenShiftInput.required({ id: true });
export type ShiftOpenPayload = z.infer<typeof ShiftOpenPayload>;
/** The close of a shift, counted at the till. */
export const ShiftClosePayload = CloseShiftInput.extend({ shift_id: z.uuid() });
export type ShiftClosePayload = z.infer<typeof ShiftClosePayload>;
/**
 * A till's edit of a note: `update` is a yjs update (base64) of the note's document, whose body is
 * `doc.getText(NOTE_TEXT)` ('content'); the server merges it, so edits made elsewhere are kept.
 * `title` and `tags`, when given, replace the server's (last writer wins). A note the server does
 * not have yet is created in the till's store (`title` defaults to "Untitled note").
 */
export const NoteUpdatePayload = z.object({
  note_id: z.uuid(),
  update: z.base64().min(1).max(4_000_000).meta({ description: 'base64 yjs update (`AAA=` when only title or tags change)' }),
  title: z.string().trim().min(1).max(200).optional(),
  tags: NoteTags.optional(),
});
/**
 * A count the till made of one product in an open stock-take (issue 52): one scan adds 1, a typed
 * quantity is in the product's unit. `id` is the count's own, made by the till: the server records
 * each id once, so a replayed push never adds it twice. The device is the pushing one.
 */
export const StockTakeCountPayload = StockTakeCountInput.omit({ device_id: true }).extend({ stock_take_id: z.uuid() });
export type StockTakeCountPayload = z.infer<typeof StockTakeCountPayload>;

/**
 * An exchange the till made (issue 52, protocol 4; docs/pos.md "Exchanges"): the items `back` are a
 * refund of part of `transaction_id`, the items out the `sale`, which the till paid first by that
 * refund's parts (`exchangeTender`) and then by the difference. The server applies both in one
 * savepoint: either is refused, neither is written.
 */
export const SaleExchangePayload = z.object({
  transaction_id: z.uuid(),
  reason: z.string().trim().min(1).max(500),
  back: RefundLines,
  shift_id: ShiftRef,
  /**
   * `tab`: the difference given back (items back worth more) paid into the sale's customer's tab, as
   * online (`give_back: 'tab'`); the server works the amounts out by its own rule. Absent: given back.
   */
  give_back: z.literal('tab').optional(),
  sale: SaleCreatePayload,
});
export type SaleExchangePayload = z.infer<typeof SaleExchangePayload>;

/** Every mutation type and its payload schema. */
export const MUTATION_PAYLOADS = {
  'sale.create': SaleCreatePayload,
  'sale.refund': SaleRefundPayload,
  'sale.void': SaleReversePayload,
  'customer.upsert': CustomerUpsertPayload,
  'credit.payment': CreditPaymentPayload,
  'stock.adjust': StockAdjustPayload,
  'expense.create': ExpenseCreatePayload,
  'note.update': NoteUpdatePayload,
  'notification.read': NotificationReadPayload,
  'shift.open': ShiftOpenPayload,
  'shift.close': ShiftClosePayload,
  'stock_take.count': StockTakeCountPayload,
  'sale.exchange': SaleExchangePayload,
} as const;
export type MutationType = keyof typeof MUTATION_PAYLOADS;
export const MutationType = z.enum(Object.keys(MUTATION_PAYLOADS) as [MutationType, ...MutationType[]]);

export const Mutation = z
  .object({
    /** Client uuid (v7). */
    id: z.uuid(),
    /** Increases by one per device. */
    seq: z.int().min(1),
    type: MutationType,
    /** When the till did it. */
    created_at: z.iso.datetime({ offset: true }),
    payload: z.record(z.string(), z.unknown()),
  })
  .meta({ id: 'Mutation' });
export type Mutation = z.infer<typeof Mutation>;
