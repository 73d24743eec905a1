/**
 * Issue 52, purchase orders: an order to a supplier for the active store, sent by SMS, received in
 * one or more deliveries. docs/back-office.md "Purchase orders". Quantities are in the product's
 * unit (whole for a piece product, up to 3 decimals for a measured one) or in whole packs.
 */
import { z } from 'zod';
import { DateString, Money, MoneyInput, Timestamp } from '../common.js';
import { PageQuery } from '../envelope.js';
import { QuantityInput, Unit } from '../inventory/units.js';
import { LotNumber } from '../pharmacy/batch.schemas.js';

export const PurchaseOrderStatus = z.enum(['draft', 'sent', 'partly_received', 'received', 'cancelled']).meta({
  id: 'PurchaseOrderStatus',
  description:
    'draft → sent (the SMS or email to the supplier is in the outbox) → partly_received → received; draft, sent and partly_received may be cancelled',
});
export type PurchaseOrderStatus = z.infer<typeof PurchaseOrderStatus>;

export const PurchaseOrderLineInput = z
  .object({
    product_id: z.uuid().meta({ description: 'A stocked product of the organisation; once per order' }),
    pack_id: z.uuid().optional().meta({ description: "One of the product's packs: qty counts whole packs and unit_cost is one pack's" }),
    qty: QuantityInput,
    unit_cost: MoneyInput.meta({ description: "Expected TZS per one of the product's unit, or per pack with pack_id" }),
  })
  .meta({ id: 'PurchaseOrderLineInput' });
export type PurchaseOrderLineInput = z.infer<typeof PurchaseOrderLineInput>;

export const CreatePurchaseOrderInput = z
  .object({
    supplier_id: z.uuid(),
    note: z.string().trim().max(500).optional(),
    lines: z.array(PurchaseOrderLineInput).min(1).max(500),
  })
  .meta({ id: 'CreatePurchaseOrderInput' });
export type CreatePurchaseOrderInput = z.infer<typeof CreatePurchaseOrderInput>;

export const ReceivePurchaseOrderLineInput = z
  .object({
    product_id: z.uuid().meta({ description: 'A product on the order; once per receipt' }),
    pack_id: z.uuid().nullable().optional().meta({
      description: "Left out: as ordered (by the order line's pack, if any); a pack id: whole packs of it; null: in the product's unit",
    }),
    qty: QuantityInput.meta({ description: 'What came: at most what is still owed on the line (more is 409)' }),
    unit_cost: MoneyInput.optional().meta({
      description: "TZS per unit, or per pack by the pack; default the order line's cost (required when received otherwise than ordered)",
    }),
    lot_number: LotNumber.optional().meta({ description: 'Batch-tracked products: the lot printed on the pack' }),
    expiry_date: DateString.optional().meta({ description: 'Batch-tracked products: the lot’s expiry date, YYYY-MM-DD' }),
  })
  .meta({ id: 'ReceivePurchaseOrderLineInput' });

export const ReceivePurchaseOrderInput = z
  .object({
    lines: z.array(ReceivePurchaseOrderLineInput).min(1).max(500),
    invoice_number: z.string().trim().max(100).optional(),
    update_cost: z
      .boolean()
      .optional()
      .meta({ description: "Default true: each line's cost becomes the product's cost price, as a delivery's `update_cost` does" }),
    notes: z.string().trim().max(2000).optional(),
  })
  .meta({ id: 'ReceivePurchaseOrderInput' });
export type ReceivePurchaseOrderInput = z.infer<typeof ReceivePurchaseOrderInput>;

export const PurchaseOrderChannel = z.enum(['sms', 'email']).meta({
  id: 'PurchaseOrderChannel',
  description: "How the order goes to the supplier: an SMS to the supplier's phone or an email to its address",
});
export type PurchaseOrderChannel = z.infer<typeof PurchaseOrderChannel>;

export const SendPurchaseOrderInput = z
  .object({ channel: PurchaseOrderChannel.default('sms') })
  .meta({ id: 'SendPurchaseOrderInput', description: 'Optional: without a body the order is texted (sms)' });
export type SendPurchaseOrderInput = z.input<typeof SendPurchaseOrderInput>;

export const PurchaseOrderLine = z
  .object({
    id: z.uuid(),
    product_id: z.uuid(),
    product_name: z.string(),
    unit: Unit,
    pack: z
      .object({ id: z.uuid(), name: z.string(), units: z.number().meta({ description: "What one pack holds, in the product's unit" }) })
      .nullable()
      .meta({ description: "Ordered by the pack: qty and unit_cost are per pack; null: in the product's unit" }),
    qty: z.number().meta({ description: "As ordered: whole packs, or the product's unit" }),
    unit_cost: Money,
    ordered: z.number().meta({ description: "In the product's unit (a pack's contents counted)" }),
    received: z.number().meta({ description: "Received so far, in the product's unit" }),
    owed: z.number().meta({ description: "Still owed (ordered − received), in the product's unit; 0 once all came" }),
  })
  .meta({ id: 'PurchaseOrderLine' });

export const PurchaseOrder = z
  .object({
    id: z.uuid(),
    reference: z.string().meta({ description: 'What the supplier sees in the message: PO- and the id’s first 8 characters' }),
    supplier_id: z.uuid(),
    supplier_name: z.string(),
    store_id: z.uuid(),
    status: PurchaseOrderStatus,
    note: z.string().nullable(),
    total_value: Money.meta({ description: 'The lines’ expected cost, as ordered' }),
    lines: z.array(PurchaseOrderLine),
    delivery_ids: z.array(z.uuid()).meta({ description: 'The deliveries that received it, oldest first (GET /suppliers/deliveries/{id})' }),
    sent_to: z.string().nullable().meta({ description: 'The phone number the order was texted to, or the address it was emailed to' }),
    sent_via: PurchaseOrderChannel.nullable().meta({ description: 'How it was sent; null while a draft' }),
    sent_at: Timestamp.nullable(),
    cancelled_at: Timestamp.nullable(),
    created_by: z.uuid().nullable(),
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .meta({ id: 'PurchaseOrder' });
export type PurchaseOrder = z.infer<typeof PurchaseOrder>;

export const ListPurchaseOrdersQuery = PageQuery.extend({
  status: PurchaseOrderStatus.optional(),
  supplier: z.uuid().optional(),
});
export type ListPurchaseOrdersQuery = z.infer<typeof ListPurchaseOrdersQuery>;

export const DraftOrdersFromSuggestionsInput = z
  .object({
    store_id: z.uuid().optional().meta({
      description: 'A store of your organisation (owners: any; others: their active store only); default: the active store',
    }),
    product_ids: z.array(z.uuid()).min(1).max(500).optional().meta({ description: 'Only these products; default: every suggestion' }),
    supplier_ids: z.array(z.uuid()).min(1).max(100).optional().meta({ description: 'Only these suppliers; default: every supplier' }),
    cover_days: z.int().min(0).max(180).default(14).meta({ description: 'As GET /inventory/reorder-suggestions (default 14)' }),
  })
  .meta({ id: 'DraftOrdersFromSuggestionsInput' });
export type DraftOrdersFromSuggestionsInput = z.infer<typeof DraftOrdersFromSuggestionsInput>;

export const DraftOrdersFromSuggestions = z
  .object({
    store_id: z.uuid(),
    orders: z
      .array(PurchaseOrder)
      .meta({ description: 'One draft per supplier, the suggested quantities at the expected cost; [] when nothing is to order' }),
    skipped: z
      .array(
        z.object({
          product_id: z.uuid(),
          name: z.string(),
          suggested: z.number().meta({ description: "In the product's unit" }),
          reason: z.enum(['no_supplier']).meta({ description: 'no_supplier: no delivery names who brings it; draft it by hand' }),
        }),
      )
      .meta({ description: 'Suggested products no draft could take' }),
  })
  .meta({ id: 'DraftOrdersFromSuggestions' });
export type DraftOrdersFromSuggestions = z.infer<typeof DraftOrdersFromSuggestions>;
