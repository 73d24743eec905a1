import { z } from 'zod';
import { DateString, Money, MoneyInput, orNull, PercentInput, Phone, Timestamp } from '../common.js';
import { TransactionFiscal } from '../fiscal/fiscal.schemas.js';
import { PageQuery } from '../envelope.js';
import { isMobileMoney, PaymentMethod, PaymentVerification, SaleMethod } from '../payment-methods.js';
import { TzMobileNumber } from '../msisdn.js';
import { QuantityInput, Unit } from '../inventory/units.js';
import { LineBatch } from '../pharmacy/batch.schemas.js';
import { Prescription } from '../pharmacy/prescription.schemas.js';
import { ITEMS_SOLD } from '../analytics/analytics.schemas.js';

export const TransactionStatus = z.enum(['paid', 'credit', 'refunded', 'void']);
export type TransactionStatus = z.infer<typeof TransactionStatus>;
/** The statuses of a sale that counts (totals, KPIs, reports, customers' spend): refunded and void sales do not. */
export const SoldStatus = TransactionStatus.extract(['paid', 'credit']);
export type SoldStatus = z.infer<typeof SoldStatus>;
export const PriceMode = z.enum(['retail', 'wholesale']);
export type PriceMode = z.infer<typeof PriceMode>;
/**
 * How the sale was rung up: `online` when the till reached the server as the cashier rang it up
 * (every `POST /pos/sale`, and a till's pushed sale it says it made while connected), `offline`
 * when the till had no server then and queued it (a till older than the field says nothing and
 * its sales count as offline). A pushed sale is booked by the push's rules either way.
 */
export const SaleSource = z.enum(['online', 'offline']).meta({
  description:
    'How the sale was rung up: online = the till reached the server at the time (every POST /pos/sale; a pushed sale its till says it made while connected), offline = queued with no server (a till that does not say)',
});
export type SaleSource = z.infer<typeof SaleSource>;

/** A buyer's TRA taxpayer number, printed on the fiscal receipt (CUSTIDTYPE 1). */
export const CustomerTin = z
  .string()
  .trim()
  .regex(/^\d{9}$/, 'a TIN is 9 digits')
  .meta({ description: "The buyer's TIN for the fiscal receipt (9 digits)" });

export const SaleLineInput = z
  .object({
    product_id: z.uuid().optional().meta({ description: 'Required unless the line is a `scale_barcode`' }),
    /** In the product's unit: whole for a piece product, up to 3 decimals for a measured one (checked against the product when the sale is resolved); whole packs with `pack_id`. */
    qty: QuantityInput.optional(),
    pack_id: z
      .uuid()
      .optional()
      .meta({ description: "One of the product's packs: `qty` then counts packs (whole), each taking the pack's units" }),
    scale_barcode: z
      .string()
      .trim()
      .regex(/^\d{13}$/, "must be the 13 digits of a shop scale's EAN-13 label")
      .optional()
      .meta({
        description:
          "A shop-scale label as scanned (issue 51): the product and quantity are read from it by the organisation's `scale_barcodes`; product_id and qty, when sent too, must agree with it",
        example: '2100042012509',
      }),
  })
  .refine((l) => l.scale_barcode !== undefined || (l.product_id !== undefined && l.qty !== undefined), {
    message: 'needs product_id and qty, or a scale_barcode',
  });
export type SaleLineInput = z.infer<typeof SaleLineInput>;

/** One part of a sale paid several ways (issue 51, docs/pos.md "Split tender"). */
export const SalePaymentInput = z
  .object({
    method: PaymentMethod,
    amount: MoneyInput.refine((v) => v > 0, 'must be more than 0').meta({
      description: 'What this part pays, TZS. A Cash part may exceed what the other parts leave: the rest is the change',
      example: 5000,
    }),
    reference: z
      .string()
      .trim()
      .max(100)
      .optional()
      .meta({ description: "Mobile money or Bank: the reference from the customer's SMS or slip" }),
    phone: TzMobileNumber.optional().meta({ description: "Mobile money: the customer's wallet number" }),
  })
  .meta({ id: 'SalePaymentInput' });
export type SalePaymentInput = z.infer<typeof SalePaymentInput>;

/** Each method at most once (so at most one credit part), and at most one mobile-money wallet: its verification is the sale's. */
const distinctParts = (parts: SalePaymentInput[]) => new Set(parts.map((p) => p.method)).size === parts.length;
const oneWallet = (parts: SalePaymentInput[]) => parts.filter((p) => isMobileMoney(p.method)).length <= 1;

export const SalePayments = z
  .array(SalePaymentInput)
  .min(1, 'must have at least one part')
  .max(4, 'at most 4 parts')
  .refine(distinctParts, 'each method at most once')
  .refine(oneWallet, 'at most one mobile-money part')
  .meta({
    description:
      'The sale paid several ways (1 to 4 parts, each method once): the parts add up to the total, except that Cash may exceed it (the change). Instead of payment_method; a Credit part needs a customer and puts only its amount on the tab',
  });

/** The sale's fields without the payment-method check, for schemas that extend it (a push's sale). */
export const CreateSaleBody = z.object({
  id: z.uuid().optional().meta({ description: 'Client-generated id: a second sale with this id returns the first' }),
  lines: z.array(SaleLineInput).min(1, 'must have at least one line').max(500),
  payment_method: PaymentMethod.optional().meta({
    description: 'How the sale is paid, one way; or give payments (required when payments is absent)',
  }),
  payments: SalePayments.optional(),
  payment_reference: z.string().trim().max(100).optional(),
  payment_phone: TzMobileNumber.optional().meta({
    description: "Mobile money: the customer's wallet number, matched with the provider's report of the payment",
  }),
  /** Percent of the subtotal (needs the discount permission). */
  discount_pct: PercentInput.optional(),
  /** Required for `Credit`. */
  customer_id: z.uuid().optional(),
  customer_name: z.string().trim().min(1).max(150).optional(),
  customer_phone: Phone.optional(),
  customer_tin: CustomerTin.optional(),
  till_number: z.string().trim().max(30).optional(),
  notes: z.string().trim().max(1000).optional(),
  /** `wholesale` only in wholesale and retail-wholesale shops. */
  price_mode: PriceMode.optional().meta({ description: 'wholesale: only for wholesale or retail_wholesale organisations' }),
  /** Required when a line is a `pom` or `controlled` medicine. */
  prescription: Prescription.optional().meta({ description: 'Required when a line is a prescription-only or controlled medicine' }),
  cash_tendered: MoneyInput.optional().meta({
    description: "The cash the customer handed over (Cash sales only): at least the sale's total; the answer carries the change",
    example: 20000,
  }),
});

export const CreateSaleInput = CreateSaleBody.superRefine(paymentMethodOrParts).meta({ id: 'CreateSaleInput' });
export type CreateSaleInput = z.infer<typeof CreateSaleInput>;

/** A line sold by the pack: which pack, how much it holds (in the product's unit), and how many were sold. */
export const LinePack = z.object({ id: z.uuid(), name: z.string(), units: z.number(), qty: z.int() }).meta({ id: 'LinePack' });
export type LinePack = z.infer<typeof LinePack>;

/**
 * A sale names how it is paid once: `payment_method`, or `payments`; both only when they agree
 * (one part, of that method). Either way a client that sends one method is unchanged.
 */
export function paymentMethodOrParts(
  v: { payment_method?: PaymentMethod; payments?: SalePaymentInput[]; cash_tendered?: number },
  ctx: z.RefinementCtx,
): void {
  const issue = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message });
  if (v.payments === undefined) {
    if (v.payment_method === undefined) issue('payment_method', 'give payment_method or payments');
    return;
  }
  if (v.payment_method !== undefined && (v.payments.length !== 1 || v.payments[0]!.method !== v.payment_method))
    issue('payment_method', `disagrees with payments (${v.payments.map((p) => p.method).join(' + ')}): give one or the other`);
  if (v.cash_tendered !== undefined) issue('cash_tendered', "with payments, the Cash part's amount is what was handed over");
}

/** One part of how a sale was paid, as answered. */
export const SalePayment = z
  .object({
    method: PaymentMethod,
    amount: Money.meta({ description: 'What the part paid towards the total (a Cash part net of the change)' }),
    reference: z.string().nullable(),
    phone: z.string().nullable(),
    verification: PaymentVerification.nullable().meta({ description: "The mobile-money part's: as the sale's payment_verification" }),
  })
  .meta({ id: 'SalePayment' });
export type SalePayment = z.infer<typeof SalePayment>;

export const TransactionLine = z
  .object({
    product_id: z.uuid(),
    product_name: z.string(),
    qty: z.number().meta({ description: "In the line's unit: whole for a piece product, up to 3 decimals for a measured one (0.5 kg)" }),
    unit: Unit.optional().meta({
      description:
        "The product's unit (it cannot change once the product is sold). The server always answers it; a receipt a till built offline before units may lack it: piece",
    }),
    unit_price: Money.meta({ description: 'Per piece, or per one of a measured unit (per kg, per l)' }),
    line_total: Money,
    discount: Money.meta({ description: "This line's share of the sale discount" }),
    tax: Money.meta({ description: 'VAT contained in the line' }),
    batches: z.array(LineBatch).meta({ description: 'The lots the units came from (batch-tracked products; empty otherwise)' }),
    pack: LinePack.nullable().optional().meta({
      description:
        'The pack the line was sold in (qty is then its units, unit_price one pack’s price); null: loose (always given by the server)',
    }),
    refunded_qty: z.number().optional().meta({
      description:
        "How much of the line has been refunded, in its unit (0.25 of a 1.25 kg line). The server always answers it; a till's own receipt may lack it",
    }),
  })
  .meta({ id: 'TransactionLine' });

export const Transaction = z
  .object({
    id: z.uuid(),
    number: z.int().meta({ description: 'Gapless per store' }),
    receipt_number: z.string().meta({ example: 'MAD-000042' }),
    client_receipt_number: z.string().nullable(),
    status: TransactionStatus,
    payment_method: SaleMethod,
    payments: z.array(SalePayment).meta({
      description: 'How the sale was paid, part by part (one part for a sale paid one way); the amounts add up to the total',
    }),
    payment_reference: z.string().nullable(),
    payment_phone: z.string().nullable().meta({ description: 'The wallet a mobile-money sale was paid from (+255…), when given' }),
    payment_verification: PaymentVerification.nullable().meta({
      description:
        "Mobile money in a store with a collection account: verified when the provider's report of the payment is matched to the sale; null when nothing is checked",
    }),
    price_mode: PriceMode,
    subtotal: Money,
    discount_pct: z.number(),
    discount: Money,
    tax: Money,
    total: Money,
    customer_id: z.uuid().nullable(),
    customer_name: z.string().nullable(),
    customer_phone: z.string().nullable(),
    customer_tin: z.string().nullable(),
    till_number: z.string().nullable(),
    notes: z.string().nullable(),
    cashier_id: z.uuid().nullable(),
    store_id: z.uuid(),
    source: SaleSource,
    client_created_at: Timestamp.nullable().meta({ description: "A pushed sale: when the till says it was made (the till's clock)" }),
    received_at: Timestamp.nullable().meta({
      description:
        'When the server received the sale (its clock): the push of a till sale, or the POST; null for sales recorded before it was kept',
    }),
    cash_tendered: Money.nullable().meta({ description: 'The cash the customer handed over; null when not given' }),
    change_given: Money.nullable().meta({ description: 'cash_tendered less the total the cashier charged; null when no tender was given' }),
    refund_reason: z.string().nullable(),
    refunded_at: Timestamp.nullable(),
    void_reason: z.string().nullable(),
    voided_at: Timestamp.nullable(),
    shift_id: z.uuid().nullable().meta({ description: 'The shift the sale was made in (its drawer took the money); null for none' }),
    reversal_shift_id: z.uuid().nullable().meta({ description: 'The shift whose drawer paid the refund or void back; null when none did' }),
    refunded_total: Money.optional().meta({
      description:
        "What has been given back by refunds, in all (the total once refunded whole; the parts' money while partly refunded, the sale still paid or credit). The server always answers it; a till's own receipt may lack it",
    }),
    created_at: Timestamp,
    lines: z.array(TransactionLine),
    fiscal: orNull(TransactionFiscal).meta({ description: 'The TRA fiscal receipt: null when the store does not fiscalise' }),
  })
  .meta({ id: 'Transaction' });
export type Transaction = z.infer<typeof Transaction>;

export const ListTransactionsQuery = PageQuery.extend({
  status: TransactionStatus.optional(),
  method: PaymentMethod.optional(),
  search: z
    .string()
    .trim()
    .min(1)
    .max(100)
    .optional()
    .meta({ description: 'receipt_number, client_receipt_number or payment_reference contains' }),
  customer_id: z.uuid().optional(),
  shift_id: z.uuid().optional().meta({ description: "The sales made in this shift (the drawer's sales)" }),
  date_from: DateString.optional(),
  date_to: DateString.optional(),
});
export type ListTransactionsQuery = z.infer<typeof ListTransactionsQuery>;

/** One line to refund: the sold line (its product, and its pack when it was sold by the pack) and how much of it. */
export const RefundLineInput = z
  .object({
    product_id: z.uuid(),
    pack_id: z.uuid().optional().meta({ description: 'The pack the line was sold in; leave it out for a line sold loose' }),
    qty: QuantityInput.meta({
      description:
        "How much of the line comes back, in the product's unit (0.25 of a 1.25 kg line; whole for a piece product; a pack line's units: 3 bottles of a carton of 24)",
    }),
  })
  .meta({ id: 'RefundLineInput' });
export type RefundLineInput = z.infer<typeof RefundLineInput>;

/** Which lines a refund takes back; absent: everything not yet refunded (the whole sale, as always). */
export const RefundLines = z
  .array(RefundLineInput)
  .min(1)
  .max(200)
  .superRefine((lines, ctx) => {
    const seen = new Set<string>();
    lines.forEach((l, i) => {
      const key = `${l.product_id}/${l.pack_id ?? ''}`;
      if (seen.has(key)) ctx.addIssue({ code: 'custom', path: [i, 'product_id'], message: 'names a line already given' });
      seen.add(key);
    });
  })
  .meta({ description: 'Refund part of the sale: these lines, these quantities. Leave it out to refund everything left' });

export const ReasonInput = z.object({ reason: z.string().trim().min(1).max(500) }).meta({ id: 'ReasonInput' });
/** A refund or void: why, and which drawer pays (docs/pos.md "Which shift money belongs to"). */
export const ReverseSaleInput = ReasonInput.extend({
  shift_id: z.uuid().optional().meta({
    description:
      "The open shift whose drawer pays the money back (a cashier's own; any of the store's for the owner or a manager). Default: the caller's open shift, else the sale's own shift while it is open, else none",
  }),
}).meta({ id: 'ReverseSaleInput' });
export type ReverseSaleInput = z.infer<typeof ReverseSaleInput>;
/** A refund: of the whole sale (no `lines`, as always), or of these lines (docs/pos.md "Refunding part of a sale"). */
export const RefundSaleInput = ReverseSaleInput.extend({ lines: RefundLines.optional() }).meta({ id: 'RefundSaleInput' });
export type RefundSaleInput = z.infer<typeof RefundSaleInput>;
export const ReceiptInput = z
  .object({
    email: z.email().trim().toLowerCase().max(254).optional().meta({ description: 'Email the full receipt here' }),
    phone: Phone.optional().meta({
      description: "Text a short receipt (Swahili and English) to this phone, through the organisation's SMS account or the platform's",
    }),
  })
  .refine((v) => (v.email === undefined) !== (v.phone === undefined), { message: 'give either email or phone', path: ['email'] })
  .meta({ id: 'ReceiptInput' });
export const ReceiptResult = z.object({
  channel: z.enum(['email', 'sms']),
  email: z.string().nullable(),
  phone: z.string().nullable().meta({ description: 'The phone texted, as +255…' }),
  delivered: z
    .boolean()
    .meta({ description: 'false when no email or SMS service is configured (kept in the outbox), or the SMS gateway did not take it' }),
  failure_reason: z.string().nullable().meta({ description: "The SMS gateway's reason when it refused the receipt or is being retried" }),
});

export const SummaryQuery = z.object({ date_from: DateString.optional(), date_to: DateString.optional() });
export const PosSummary = z
  .object({
    total_sales: Money,
    transaction_count: z.int(),
    average_ticket: Money,
    items_sold: z.int().meta({ description: ITEMS_SOLD }),
    cash_total: Money,
    mpeca_total: Money.meta({ description: 'M-Pesa total, spelled as in the contract; same as mpesa_total' }),
    mpesa_total: Money,
    tigo_pesa_total: Money,
    airtel_money_total: Money.meta({ description: 'Beyond the contract, like the Airtel Money method' }),
    bank_total: Money,
    credit_total: Money,
    refund_count: z.int(),
    refund_total: Money,
    date_from: DateString,
    date_to: DateString,
  })
  .meta({ id: 'PosSummary' });
export type PosSummary = z.infer<typeof PosSummary>;
export const HourlyQuery = z.object({ date: DateString.optional() });
export const HourlyBucket = z.object({ hour: z.int(), sales: Money, count: z.int() }).meta({ id: 'HourlyBucket' });
