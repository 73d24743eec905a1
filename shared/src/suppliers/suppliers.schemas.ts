/** Suppliers (organisation-wide), their deliveries (per store) and the payments made to them. */
import { z } from 'zod';
import { DateString, Email, Money, MoneyInput, QueryBool, Timestamp } from '../common.js';
import { LotNumber } from '../pharmacy/batch.schemas.js';
import { QuantityInput } from '../inventory/units.js';
import { PageQuery } from '../envelope.js';
import { PayoutMethod } from '../payment-methods.js';

export const SupplierStatus = z.enum(['active', 'inactive', 'on_hold']).meta({ id: 'SupplierStatus' });
export type SupplierStatus = z.infer<typeof SupplierStatus>;

export const Supplier = z
  .object({
    id: z.uuid(),
    name: z.string(),
    category: z.string().nullable(),
    rep: z.string().nullable(),
    phone: z.string().nullable(),
    email: z.string().nullable(),
    address: z.string().nullable(),
    payment_terms: z.int().nullable().meta({ description: 'Days' }),
    lead_time_days: z.int().nullable().meta({
      description: 'Days from order to delivery; null: not said (reorder suggestions then take 7). docs/inventory.md "Reorder suggestions"',
    }),
    status: SupplierStatus,
    notes: z.string().nullable(),
    outstanding_balance: Money.meta({
      description: 'Still owed on arrived deliveries (delivered or partial, not marked paid) after payments, all stores',
    }),
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .meta({ id: 'Supplier' });
export type Supplier = z.infer<typeof Supplier>;

const text = (max: number) => z.string().trim().max(max).nullable();
export const UpdateSupplierInput = z
  .object({
    name: z.string().trim().min(1).max(200),
    category: text(100),
    rep: text(150),
    phone: text(30),
    email: Email.nullable(),
    address: text(300),
    payment_terms: z.int().min(0).max(3650).nullable(),
    lead_time_days: z.int().min(0).max(365).nullable(),
    status: SupplierStatus,
    notes: text(2000),
  })
  .partial()
  .meta({ id: 'UpdateSupplierInput' });
export const CreateSupplierInput = UpdateSupplierInput.required({ name: true }).meta({ id: 'CreateSupplierInput' });
export type UpdateSupplierInput = z.infer<typeof UpdateSupplierInput>;
export type CreateSupplierInput = z.infer<typeof CreateSupplierInput>;

export const ListSuppliersQuery = PageQuery.extend({
  search: z.string().trim().max(100).optional().meta({ description: 'Name, rep, phone, email or category contains, any case' }),
  status: SupplierStatus.optional(),
});
export type ListSuppliersQuery = z.infer<typeof ListSuppliersQuery>;

export const SupplierStats = z
  .object({
    total_suppliers: z.int().meta({ description: 'Suppliers not deleted' }),
    active_suppliers: z.int(),
    total_outstanding: Money,
    deliveries_this_month: z.int().meta({ description: 'Deliveries dated this month (organisation time zone), all stores, not cancelled' }),
    payments_this_month: Money.meta({ description: 'TZS paid to suppliers this month (organisation time zone), all stores' }),
  })
  .meta({ id: 'SupplierStats' });
export type SupplierStats = z.infer<typeof SupplierStats>;

export const DeliveryStatus = z.enum(['expected', 'delivered', 'partial', 'returned', 'cancelled']).meta({
  id: 'DeliveryStatus',
  description: 'expected → delivered | partial | cancelled; partial → delivered | returned | cancelled; delivered → returned',
});
export type DeliveryStatus = z.infer<typeof DeliveryStatus>;

export const DeliveryLine = z
  .object({
    id: z.uuid(),
    product_id: z.uuid(),
    product_name: z.string(),
    qty: z.number().meta({ description: "In the product's unit (whole for a piece product)" }),
    unit_cost: Money,
    update_cost: z.boolean(),
    lot_number: z.string().nullable(),
    expiry_date: DateString.nullable(),
    pack: z
      .object({ id: z.uuid(), units: z.number().meta({ description: "What one pack holds, in the product's unit, as recorded" }) })
      .nullable()
      .meta({
        description: 'Delivered in packs: qty and unit_cost are per pack, and the stock added is qty × units; null: in the product’s unit',
      }),
  })
  .meta({ id: 'DeliveryLine' });

export const Delivery = z
  .object({
    id: z.uuid(),
    supplier_id: z.uuid(),
    supplier_name: z.string(),
    store_id: z.uuid(),
    invoice_number: z.string().nullable(),
    delivery_date: Timestamp,
    items_count: z.int(),
    total_value: Money,
    paid_amount: Money,
    balance: Money.meta({ description: 'What is still owed on it: 0 unless delivered or partial and not marked paid' }),
    status: DeliveryStatus,
    is_paid: z.boolean(),
    notes: z.string().nullable(),
    lines: z.array(DeliveryLine),
    stock_added_at: Timestamp.nullable().meta({ description: 'When its lines were added to the store stock (set once)' }),
    created_by: z.uuid().nullable(),
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .meta({ id: 'Delivery' });
export type Delivery = z.infer<typeof Delivery>;

export const DeliveryLineInput = z.object({
  product_id: z.uuid(),
  qty: QuantityInput,
  unit_cost: MoneyInput.meta({ description: "TZS per one of the product's unit (a piece, a kg, a litre)" }),
  update_cost: z.boolean().optional().meta({ description: "true: set the product's cost_price to unit_cost when the stock is added" }),
  lot_number: LotNumber.optional().meta({
    description: 'Batch-tracked products: the lot printed on the pack (required once the delivery is delivered)',
  }),
  expiry_date: DateString.optional().meta({
    description: 'Batch-tracked products: the lot’s expiry date, YYYY-MM-DD (required with lot_number)',
  }),
  pack_id: z.uuid().optional().meta({
    description: "One of the product's packs: qty counts packs and unit_cost is one pack's; a carton of 24 delivered adds 24 to stock",
  }),
});
export type DeliveryLineInput = z.infer<typeof DeliveryLineInput>;

const deliveryFields = {
  invoice_number: z.string().trim().max(100).nullable(),
  delivery_date: z.iso.datetime({ offset: true }).meta({ description: 'ISO 8601; default now' }),
  items_count: z
    .int()
    .min(0)
    .max(10_000_000)
    .meta({ description: 'Default: the sum of the lines’ qty, a line of a measured product (kg, l…) counting as one item' }),
  total_value: MoneyInput.meta({
    description: 'TZS; default: the sum of qty × unit_cost of the lines (a measured line rounded half up to the shilling)',
  }),
  status: DeliveryStatus,
  is_paid: z.boolean().meta({ description: 'true: settled outside Duka (nothing more is owed on it)' }),
  notes: z.string().trim().max(2000).nullable(),
  lines: z
    .array(DeliveryLineInput)
    .max(500)
    .meta({ description: 'What arrives; added to the active store stock once, when the delivery becomes `delivered`' }),
};
export const UpdateDeliveryInput = z.object(deliveryFields).partial().meta({ id: 'UpdateDeliveryInput' });
export type UpdateDeliveryInput = z.infer<typeof UpdateDeliveryInput>;
/** POST /suppliers/:id/deliveries: the supplier comes from the path. */
export const CreateSupplierDeliveryInput = UpdateDeliveryInput.meta({ id: 'CreateSupplierDeliveryInput' });
export type CreateSupplierDeliveryInput = z.infer<typeof CreateSupplierDeliveryInput>;
export const CreateDeliveryInput = UpdateDeliveryInput.extend({ supplier_id: z.uuid() }).meta({ id: 'CreateDeliveryInput' });
export type CreateDeliveryInput = z.infer<typeof CreateDeliveryInput>;

export const ListDeliveriesQuery = PageQuery.extend({
  unpaid: QueryBool.optional().meta({ description: 'true: still owed (delivered or partial, not paid); false: paid' }),
  supplier: z.uuid().optional(),
});
export type ListDeliveriesQuery = z.infer<typeof ListDeliveriesQuery>;

export const SupplierPaymentMethod = PayoutMethod.meta({ id: 'SupplierPaymentMethod' });

export const SupplierPayment = z
  .object({
    id: z.uuid(),
    supplier_id: z.uuid(),
    supplier_name: z.string(),
    delivery_id: z.uuid().nullable().meta({ description: 'Set when paid against one delivery' }),
    store_id: z.uuid(),
    amount: Money,
    payment_method: SupplierPaymentMethod,
    reference: z.string().nullable(),
    notes: z.string().nullable(),
    paid_at: Timestamp,
    created_by: z.uuid().nullable(),
    created_at: Timestamp,
    allocations: z.array(z.object({ delivery_id: z.uuid(), amount: Money })).meta({ description: 'Deliveries it paid, oldest first' }),
  })
  .meta({ id: 'SupplierPayment' });
export type SupplierPayment = z.infer<typeof SupplierPayment>;

export const RecordSupplierPaymentInput = z
  .object({
    amount: MoneyInput.refine((v) => v > 0, 'must be greater than 0').meta({ description: 'TZS; at most what is owed' }),
    payment_method: SupplierPaymentMethod,
    reference: z.string().trim().max(100).optional(),
    notes: z.string().trim().max(1000).optional(),
  })
  .meta({ id: 'RecordSupplierPaymentInput' });
export type RecordSupplierPaymentInput = z.infer<typeof RecordSupplierPaymentInput>;

export const ListSupplierPaymentsQuery = PageQuery.extend({ supplier: z.uuid().optional() });
export type ListSupplierPaymentsQuery = z.infer<typeof ListSupplierPaymentsQuery>;
