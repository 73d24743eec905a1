/**
 * Batches on the wire (issue 14): the batch answer (REST and the till replica), the lots a sale line
 * took, and the lot a delivery line brings. Rules live in `batch-rules.ts` and `fefo.ts`.
 */
import { z } from 'zod';
import { DateString, Money, QueryBool, Timestamp } from '../common.js';
import { Envelope, PageMeta, PageQuery } from '../envelope.js';
import { Unit } from '../inventory/units.js';

/**
 * Where a batch stands. Only `sellable` units are stock; `quarantined` (refunded, awaiting
 * inspection), `expired` and `recalled` units are held but never sold; `disposed` is the end.
 */
export const BatchStatus = z.enum(['sellable', 'quarantined', 'expired', 'recalled', 'disposed']);
export type BatchStatus = z.infer<typeof BatchStatus>;

/** What moves a batch from one status to another (`checkBatchTransition`); `expire` is the midnight job's. */
export const BatchAction = z.enum(['release', 'dispose', 'recall', 'expire']);
export type BatchAction = z.infer<typeof BatchAction>;

/**
 * What moved a batch: a line of its append-only ledger, from which the controlled-drug and disposal
 * registers are read. `refunded` units go into quarantine (or straight back where refunds are not
 * quarantined), `voided` ones back to their batch; `corrected` changes lot or expiry, not units.
 */
export const BatchMovementKind = z.enum([
  'received',
  'dispensed',
  'refunded',
  'voided',
  'adjusted',
  'released',
  'recalled',
  'expired',
  'disposed',
  'corrected',
]);
export type BatchMovementKind = z.infer<typeof BatchMovementKind>;

/** A lot number as printed on the pack; kept as given, compared ignoring case and spaces at the ends. */
export const LotNumber = z.string().trim().min(1).max(60);

/**
 * The lot a sale line's units came from: what the receipt prints and a refund returns to. A line of
 * a batch-tracked product has one or more; other lines have none.
 */
export const LineBatch = z
  .object({
    batch_id: z.uuid(),
    lot_number: z.string(),
    expiry_date: DateString,
    // In the product's unit (issue 51): 0.15 of a litre product's lot, 5 tablets.
    qty: z.number().meta({ description: "In the product's unit: whole for a piece product, up to 3 decimals for a measured one" }),
  })
  .meta({ id: 'LineBatch' });
export type LineBatch = z.infer<typeof LineBatch>;

/** On push: the batches the till took a line's units from (its own FEFO), kept when they still hold them. */
export const LineBatchInput = z.object({ batch_id: z.uuid(), qty: z.int().min(1).max(100_000) });
export type LineBatchInput = z.infer<typeof LineBatchInput>;

/**
 * Units of a product in one store from one lot. `qty_on_hand` counts the units the row holds in its
 * status; only `sellable` rows are stock. A quarantined row holds refunded units of a lot and
 * points at the batch they go back to on release (`source_batch_id`).
 */
export const Batch = z
  .object({
    id: z.uuid(),
    store_id: z.uuid(),
    product_id: z.uuid(),
    product_name: z.string(),
    lot_number: z.string(),
    expiry_date: DateString,
    unit: Unit.meta({ description: "The product's unit: qty_on_hand and the movements' quantities are in it" }),
    qty_on_hand: z.number().meta({ description: "In the product's unit (whole for a piece product)" }),
    cost_price: Money.meta({ description: 'Unit cost of this lot, TZS' }),
    status: BatchStatus,
    supplier_id: z.uuid().nullable(),
    delivery_id: z.uuid().nullable(),
    source_batch_id: z.uuid().nullable().meta({ description: 'Quarantine: the batch these units return to on release' }),
    transaction_id: z.uuid().nullable().meta({ description: 'Quarantine: the refunded sale the units came back from' }),
    received_at: Timestamp,
    updated_at: Timestamp,
  })
  .meta({ id: 'Batch' });
export type Batch = z.infer<typeof Batch>;

/** `GET /pharmacy/batches`: the active store's batches, paged, by expiry then lot. */
export const ListBatchesQuery = PageQuery.extend({
  product_id: z.uuid().optional(),
  status: BatchStatus.optional(),
  expiring_within_days: z.coerce.number().int().min(0).max(730).optional().meta({
    description:
      "Only sellable batches whose expiry is at most this many days after today (the organisation's), including those already past it",
  }),
  lot_number: LotNumber.optional().meta({ description: 'This lot, ignoring case' }),
  quarantine: QueryBool.optional().meta({ description: 'true: only quarantine rows (refunded units); false: only the lots themselves' }),
});
export type ListBatchesQuery = z.infer<typeof ListBatchesQuery>;

/** One line of a batch's ledger as the API shows it. */
export const BatchMovement = z
  .object({
    id: z.uuid(),
    kind: BatchMovementKind,
    qty: z.number().meta({ description: "Signed change of the batch, in the product's unit" }),
    qty_after: z.number(),
    stock_change: z.number().meta({ description: "Signed change of the product's sellable stock, in the product's unit" }),
    status_from: BatchStatus.nullable(),
    status_to: BatchStatus.nullable(),
    transaction_id: z.uuid().nullable(),
    delivery_id: z.uuid().nullable(),
    recall_id: z.uuid().nullable(),
    reason: z.string().nullable(),
    method: z.string().nullable(),
    witness: z.string().nullable(),
    note: z.string().nullable(),
    details: z
      .record(z.string(), z.unknown())
      .nullable()
      .meta({ description: "A correction's `before` and `after` (lot_number, expiry_date)" }),
    user_id: z.uuid().nullable(),
    user_name: z.string().nullable(),
    created_at: Timestamp,
  })
  .meta({ id: 'BatchMovement' });
export type BatchMovement = z.infer<typeof BatchMovement>;

export const BatchDetailQuery = z.object({
  movements: z.coerce
    .number()
    .int()
    .min(1)
    .max(500)
    .default(100)
    .meta({ description: 'How many of the newest movements to answer (default 100, at most 500)' }),
});
export type BatchDetailQuery = z.infer<typeof BatchDetailQuery>;

export const BatchDetail = Batch.extend({
  movement_count: z.int().meta({ description: 'Every movement of the batch; `movements` holds the newest of them' }),
  movements: z.array(BatchMovement).meta({ description: 'Newest first' }),
}).meta({ id: 'BatchDetail' });
export type BatchDetail = z.infer<typeof BatchDetail>;

/**
 * A correction of a lot number or expiry date typed wrong at receipt. It moves no units; the ledger
 * keeps a `corrected` line with the values before and after.
 */
export const CorrectBatchInput = z
  .object({
    lot_number: LotNumber.optional(),
    expiry_date: DateString.optional(),
    reason: z.string().trim().min(1).max(200).meta({ example: 'lot misread at receipt' }),
  })
  .refine((v) => v.lot_number !== undefined || v.expiry_date !== undefined, {
    message: 'send lot_number or expiry_date',
    path: ['lot_number'],
  })
  .meta({ id: 'CorrectBatchInput' });
export type CorrectBatchInput = z.infer<typeof CorrectBatchInput>;

/** `GET /pharmacy/expiring`: sellable stock expiring within `days` (and already past date), paged. */
export const ExpiringQuery = PageQuery.extend({
  days: z.coerce.number().int().min(0).max(730).default(90).meta({ description: 'Days from today (default 90, at most 730)' }),
});
export type ExpiringQuery = z.infer<typeof ExpiringQuery>;

export const ExpiringBatch = z
  .object({
    batch_id: z.uuid(),
    product_id: z.uuid(),
    product_name: z.string(),
    lot_number: z.string(),
    expiry_date: DateString,
    days_to_expiry: z.int().meta({ description: '0 on the expiry date, negative after it (not yet marked expired)' }),
    unit: Unit,
    qty: z.number().meta({ description: "In the product's unit" }),
    cost_price: Money.meta({ description: 'Unit cost of the lot, TZS' }),
    selling_price: Money.meta({ description: "The product's selling price, TZS" }),
    value_at_cost: Money.meta({ description: 'qty × cost_price (a measured lot rounded half up to the shilling)' }),
    value_at_price: Money.meta({ description: 'qty × selling_price (a measured lot rounded half up to the shilling)' }),
  })
  .meta({ id: 'ExpiringBatch' });
export type ExpiringBatch = z.infer<typeof ExpiringBatch>;

/** The page plus the totals of every batch that matched (not only this page's). */
export const ExpiringMeta = PageMeta.extend({
  today: DateString,
  days: z.int(),
  total_qty: z
    .number()
    .nullable()
    .meta({ description: "In the lots' unit; null when they are of products of different units (pieces and kilos do not add up)" }),
  total_value_at_cost: Money,
  total_value_at_price: Money,
}).meta({ id: 'ExpiringMeta' });
export type ExpiringMeta = z.infer<typeof ExpiringMeta>;
export const ExpiringPage = Envelope(z.array(ExpiringBatch), ExpiringMeta);
