/**
 * Quarantine, disposal, recalls and the controlled-drug and disposal registers on the wire
 * (issue 14). Quantities are units; money is TZS. Register periods are local dates in the
 * organisation's time zone, both days included.
 */
import { z } from 'zod';
import { DateString, Money, Timestamp } from '../common.js';
import { PageQuery } from '../envelope.js';
import { BatchMovementKind, BatchStatus, LotNumber } from './batch.schemas.js';
import { QuantityInput, Unit } from '../inventory/units.js';

const Text = (max: number) => z.string().trim().min(1).max(max);
const Name = z.string().nullable();

/** A quarantine row holding refunded units of a lot until it is inspected. */
export const QuarantineItem = z
  .object({
    id: z.uuid(),
    product_id: z.uuid(),
    product_name: z.string(),
    lot_number: z.string(),
    expiry_date: DateString,
    qty: z.number().meta({ description: "In the product's unit" }),
    cost_price: Money,
    source_batch_id: z.uuid().nullable().meta({ description: 'The batch the units return to on release' }),
    transaction_id: z.uuid().nullable().meta({ description: 'The refunded sale' }),
    receipt_number: z.string().nullable().meta({ description: 'The refunded sale’s receipt number' }),
    quarantined_at: Timestamp,
  })
  .meta({ id: 'QuarantineItem' });
export type QuarantineItem = z.infer<typeof QuarantineItem>;

export const ListQuarantineQuery = PageQuery.extend({ product_id: z.uuid().optional() });
export type ListQuarantineQuery = z.infer<typeof ListQuarantineQuery>;

export const ReleaseQuarantineInput = z.object({ note: Text(500).meta({ description: 'What the inspection found' }) });
export type ReleaseQuarantineInput = z.infer<typeof ReleaseQuarantineInput>;

export const DisposeBatchInput = z.object({
  reason: Text(500).meta({ example: 'expired' }),
  method: Text(200).meta({ description: 'How the units were destroyed', example: 'incineration at Pugu' }),
  witness: Text(200).meta({ description: 'Who saw them destroyed' }),
  qty: QuantityInput.optional().meta({
    description:
      "How much to dispose of, in the product's unit (whole for a piece product); default all the batch holds. The batch becomes `disposed` when its last units go",
  }),
});
export type DisposeBatchInput = z.infer<typeof DisposeBatchInput>;

export const CreateRecallInput = z.object({ product_id: z.uuid(), lot_number: LotNumber, reason: Text(500) });
export type CreateRecallInput = z.infer<typeof CreateRecallInput>;

export const ListRecallsQuery = PageQuery.extend({ product_id: z.uuid().optional() });
export type ListRecallsQuery = z.infer<typeof ListRecallsQuery>;

export const Recall = z
  .object({
    id: z.uuid(),
    product_id: z.uuid(),
    product_name: z.string(),
    lot_number: z.string(),
    reason: z.string(),
    batch_count: z.int().meta({ description: 'Batches (main and quarantine rows) the recall moved' }),
    units: z.number().meta({ description: "What those batches held, in the product's unit" }),
    user_id: z.uuid().nullable(),
    user_name: Name,
    created_at: Timestamp,
  })
  .meta({ id: 'Recall' });
export type Recall = z.infer<typeof Recall>;

export const RecalledBatch = z
  .object({
    batch_id: z.uuid(),
    lot_number: z.string(),
    expiry_date: DateString,
    status_before: BatchStatus,
    qty: z.number().meta({ description: "What the batch held when recalled, in the product's unit" }),
    quarantine: z.boolean().meta({ description: 'A quarantine row (refunded units)' }),
  })
  .meta({ id: 'RecalledBatch' });

export const RecallStore = z
  .object({
    store_id: z.uuid(),
    store_name: z.string(),
    batches: z.array(RecalledBatch),
    stock_removed: z.number().meta({ description: "Sellable stock the recall took out, in the product's unit" }),
  })
  .meta({ id: 'RecallStore' });

/** A sale that dispensed the lot: whom to call back. */
export const RecallSale = z
  .object({
    transaction_id: z.uuid(),
    receipt_number: z.string(),
    store_id: z.uuid(),
    store_name: z.string(),
    sold_at: Timestamp,
    status: z.string(),
    qty: z.number().meta({ description: "In the product's unit" }),
    customer_name: Name,
    customer_phone: Name,
  })
  .meta({ id: 'RecallSale' });
export type RecallSale = z.infer<typeof RecallSale>;

export const RecallDetail = Recall.extend({
  stores: z.array(RecallStore).meta({ description: 'The batches the recall moved, per store' }),
  sales: z.array(RecallSale).meta({ description: 'Every sale in the organisation that dispensed the lot, oldest first' }),
}).meta({ id: 'RecallDetail' });
export type RecallDetail = z.infer<typeof RecallDetail>;

const Period = {
  date_from: DateString.optional().meta({ description: 'First local day, included; default the first day of this month' }),
  date_to: DateString.optional().meta({ description: 'Last local day, included; default today' }),
};

export const ControlledRegisterQuery = z.object({ product_id: z.uuid(), ...Period });
export type ControlledRegisterQuery = z.infer<typeof ControlledRegisterQuery>;

export const ControlledRegisterLine = z
  .object({
    id: z.uuid(),
    at: Timestamp,
    kind: BatchMovementKind,
    qty: z.number().meta({ description: "Change of the stock (sellable), in the product's unit; 0 when the units moved outside stock" }),
    units: z.number().meta({ description: "Change of the batch row, in the product's unit" }),
    balance: z.number().meta({ description: "Stock after this line, in the product's unit" }),
    batch_id: z.uuid(),
    lot_number: z.string(),
    expiry_date: DateString,
    status_from: BatchStatus.nullable(),
    status_to: BatchStatus.nullable(),
    reference: z.string().nullable().meta({ description: 'The sale’s receipt number or the delivery’s invoice number' }),
    transaction_id: z.uuid().nullable(),
    delivery_id: z.uuid().nullable(),
    recall_id: z.uuid().nullable(),
    note: z.string().nullable().meta({ description: 'Reason or note written with the move' }),
    user_id: z.uuid().nullable(),
    user_name: Name,
  })
  .meta({ id: 'ControlledRegisterLine' });
export type ControlledRegisterLine = z.infer<typeof ControlledRegisterLine>;

export const ControlledRegister = z
  .object({
    store_id: z.uuid(),
    store_name: z.string(),
    product_id: z.uuid(),
    product_name: z.string(),
    generic_name: Name,
    strength: Name,
    date_from: DateString,
    date_to: DateString,
    timezone: z.string(),
    opening_balance: z.number().meta({ description: "In the product's unit" }),
    closing_balance: z.number(),
    lines: z.array(ControlledRegisterLine),
  })
  .meta({ id: 'ControlledRegister' });
export type ControlledRegister = z.infer<typeof ControlledRegister>;

export const DisposalRegisterQuery = z.object({ product_id: z.uuid().optional(), ...Period });
export type DisposalRegisterQuery = z.infer<typeof DisposalRegisterQuery>;

export const DisposalRegisterLine = z
  .object({
    id: z.uuid(),
    at: Timestamp,
    date: DateString,
    batch_id: z.uuid(),
    product_id: z.uuid(),
    product_name: z.string(),
    generic_name: Name,
    strength: Name,
    lot_number: z.string(),
    expiry_date: DateString,
    status_from: BatchStatus.nullable(),
    unit: Unit,
    qty: z.number().meta({ description: "Destroyed, in the product's unit" }),
    reason: Name,
    method: Name,
    witness: Name,
    user_id: z.uuid().nullable(),
    user_name: Name,
    unit_cost: Money,
    value_at_cost: Money,
  })
  .meta({ id: 'DisposalRegisterLine' });
export type DisposalRegisterLine = z.infer<typeof DisposalRegisterLine>;

export const DisposalRegister = z
  .object({
    store_id: z.uuid(),
    store_name: z.string(),
    date_from: DateString,
    date_to: DateString,
    timezone: z.string(),
    total_qty: z.number().nullable().meta({ description: 'null when the lines are of products of different units' }),
    total_value_at_cost: Money,
    lines: z.array(DisposalRegisterLine),
  })
  .meta({ id: 'DisposalRegister' });
export type DisposalRegister = z.infer<typeof DisposalRegister>;
