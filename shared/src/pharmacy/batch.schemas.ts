/**
 * Batches on the wire (issue 14): the batch answer (REST and the till replica), the lots a sale line
 * took, and the lot a delivery line brings. Rules live in `batch-rules.ts` and `fefo.ts`.
 */
import { z } from 'zod';
import { DateString, Money, Timestamp } from '../common.js';

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
export const BatchMovementKind = z.enum(['received', 'dispensed', 'refunded', 'voided', 'adjusted', 'released', 'recalled', 'expired', 'disposed', 'corrected']);
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
    qty: z.int(),
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
    qty_on_hand: z.int(),
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
