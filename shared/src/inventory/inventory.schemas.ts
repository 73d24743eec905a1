import { z } from 'zod';
import { ActiveFilter, Money, MoneyInput, orNull, PercentInput, QueryBool, Timestamp } from '../common.js';
import { PageQuery } from '../envelope.js';
import { DosageForm, DrugSchedule } from '../pharmacy/pharmacy.schemas.js';
import { TaxCode } from '../fiscal/fiscal.schemas.js';
import { quantityFault, Unit } from './units.js';
import { PackListInput, ProductPack } from './packs.schemas.js';

/** An expiry alert window in days (about two years at most), for a product and for the organisation's default alike. */
export const ExpiryAlertDays = z.int().min(1).max(730);

export const Category = z
  .object({
    id: z.uuid(),
    name: z.string(),
    description: z.string().nullable(),
    sort_order: z.int(),
    is_active: z.boolean(),
    product_count: z.int(),
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .meta({ id: 'Category' });
export type Category = z.infer<typeof Category>;

const categoryFields = {
  name: z.string().trim().min(1).max(100),
  description: z.string().trim().max(500).nullable(),
  sort_order: z.int().min(0).max(100_000),
  is_active: z.boolean(),
};
export const CreateCategoryInput = z
  .object({
    ...categoryFields,
    description: categoryFields.description.optional(),
    sort_order: categoryFields.sort_order.optional(),
    is_active: categoryFields.is_active.optional(),
  })
  .meta({ id: 'CreateCategoryInput' });
export const UpdateCategoryInput = z.object(categoryFields).partial().meta({ id: 'UpdateCategoryInput' });
export type CreateCategoryInput = z.infer<typeof CreateCategoryInput>;
export type UpdateCategoryInput = z.infer<typeof UpdateCategoryInput>;

export const Product = z
  .object({
    id: z.uuid(),
    name: z.string(),
    category_id: z.uuid().nullable(),
    sku: z.string().nullable(),
    barcode: z.string().nullable(),
    scale_code: z.string().nullable().meta({
      description:
        "The item code the shop's scales print in their EAN-13 labels (digits, unique in the organisation); null: not sold by scale label",
    }),
    cost_price: Money,
    selling_price: Money,
    wholesale_price: Money.nullable(),
    wholesale_min_qty: z.number().nullable().meta({ description: "In the product's unit" }),
    unit: Unit,
    stock: z.number().meta({ description: "Level in the caller's active store, in the product's unit (whole for a piece product)" }),
    reorder_point: z.number().meta({ description: "In the product's unit" }),
    packs: z.array(ProductPack).default([]).meta({ description: 'The packs it is bought and sold in (stock stays in its unit)' }),
    stock_in_packs: z.string().nullable().meta({
      description:
        "`stock` said in the product's packs for people to read: every pack that fits, largest first, then the loose rest in the product's unit (`3 × Crate of 24 + 5`, `2 × Sack 25 kg + 10.5 kg`; under one pack, zero or below: the level alone, `20`); null when it has no packs (or is a service). Compute with `stock`, never parse it",
      example: '3 × Crate of 24 + 5',
    }),
    image: z.string().nullable().meta({
      description:
        "The image's URL: an uploaded file's address is built when answering (PUBLIC_URL + path, or the path alone without PUBLIC_URL)",
    }),
    tax_rate: z.number().meta({ description: 'VAT percent contained in the price', example: 18 }),
    tax_code: orNull(TaxCode).meta({
      description: 'TRA tax code on fiscal receipts; null: A when the store charges VAT and tax_rate > 0, else C',
    }),
    description: z.string().nullable(),
    is_service: z.boolean(),
    is_active: z.boolean(),
    is_low_stock: z.boolean().meta({ description: 'stock at or below reorder_point (never for services)' }),
    generic_name: z
      .string()
      .nullable()
      .meta({ description: 'International non-proprietary name, e.g. paracetamol; set on every medicine' }),
    strength: z.string().nullable().meta({ example: '500 mg' }),
    dosage_form: DosageForm.nullable(),
    schedule: DrugSchedule.nullable().meta({
      description: 'Set: the product is a medicine (`otc`, `pom` prescription-only, `controlled`); null: not a medicine',
    }),
    track_batches: z.boolean().meta({ description: 'Stock is held in batches with lot and expiry' }),
    expiry_alert_days: z.int().nullable().meta({ description: "The product's own alert window in days; null: the organisation's default" }),
    effective_expiry_alert_days: z.int().nullable().meta({
      description: "The window in force: the product's own or the organisation's default; null when the product does not track batches",
    }),
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .meta({ id: 'Product' });
export type Product = z.infer<typeof Product>;

/** What a scanned shop-scale label sells (issue 51): the till adds a line of `qty`, charged `amount` when the label printed a price. */
export const ScaleLabelSale = z
  .object({
    barcode: z.string().meta({ description: "The label as scanned: send it as the sale line's `scale_barcode`" }),
    qty: z.number().meta({ description: "In the product's unit, up to 3 decimals (the label's weight, or what its price buys)" }),
    amount: Money.nullable().meta({ description: "A price label: the line's amount, the label's price exactly; null for a weight label" }),
  })
  .meta({ id: 'ScaleLabelSale' });
export type ScaleLabelSale = z.infer<typeof ScaleLabelSale>;

/**
 * A product found by a code a scanner read: by a pack's barcode, `scanned_pack` is the pack (a sale
 * line of it names its id); by a shop-scale label, `scale_label` is what the label sells.
 */
export const ScannedProduct = Product.extend({
  scanned_pack: ProductPack.nullable().meta({ description: "The pack whose barcode was scanned; null: the product's own barcode or SKU" }),
  scale_label: ScaleLabelSale.optional(),
}).meta({ id: 'ScannedProduct' });
export type ScannedProduct = z.infer<typeof ScannedProduct>;

const IN_UNIT =
  "In the product's unit: whole for a piece product, up to 3 decimals for a measured one (kg, g, l, ml, m; at most 1,000,000 units)";

/** Every writable product field; PATCH takes any subset, create adds defaults in the service. */
const productFields = {
  name: z.string().trim().min(1).max(200),
  category_id: z.uuid().nullable(),
  sku: z.string().trim().min(1).max(64).nullable(),
  barcode: z.string().trim().min(1).max(64).nullable(),
  scale_code: z
    .string()
    .trim()
    .regex(/^\d{1,7}$/, 'must be 1 to 7 digits, as the scale prints it')
    .nullable()
    .meta({
      description: "The item code in the scales' labels, with its leading zeros as printed (e.g. `00042`); unique in the organisation",
    }),
  cost_price: MoneyInput,
  selling_price: MoneyInput,
  wholesale_price: MoneyInput.nullable(),
  wholesale_min_qty: z.number().positive().max(1_000_000).nullable().meta({ description: IN_UNIT }),
  stock: z.number().min(0).max(1_000_000_000).meta({ description: IN_UNIT }),
  reorder_point: z.number().min(0).max(1_000_000_000).meta({ description: IN_UNIT }),
  unit: Unit.meta({
    description: 'piece (default), or a measure: kg, g, l, ml, m. Cannot change once the product has a stock movement or a sale line (409)',
  }),
  image: z
    .string()
    .trim()
    .min(1)
    .max(1000)
    .refine((v) => (/^https?:\/\//i.test(v) ? URL.canParse(v) : /^(\/\S*|[A-Za-z0-9][A-Za-z0-9._/-]*)$/.test(v)), {
      message: "must be an http(s) URL, or an upload's url or key (POST /uploads)",
    })
    .nullable()
    .meta({
      description:
        'An upload of the organisation (its `url`, relative or absolute, or its `key`): kept by its key, answered as its address on this server now; or any http(s) URL, kept as given',
    }),
  tax_rate: PercentInput,
  packs: PackListInput,
  tax_code: TaxCode.nullable().meta({
    description: 'TRA tax code for fiscal receipts (A needs tax_rate 18, the others 0); null: from the store and tax_rate',
  }),
  description: z.string().trim().max(2000).nullable(),
  is_service: z.boolean(),
  is_active: z.boolean(),
  generic_name: z.string().trim().min(1).max(200).nullable().meta({ description: 'Required with a schedule' }),
  strength: z.string().trim().min(1).max(50).nullable().meta({ example: '250 mg/5 ml' }),
  dosage_form: DosageForm.nullable(),
  schedule: DrugSchedule.nullable().meta({ description: 'Makes the product a medicine; needs a generic_name; not for a service' }),
  track_batches: z.boolean().meta({
    description:
      'Defaults to true when the product gets a schedule; cannot change while the product has stock in a store, nor be true for a service',
  }),
  expiry_alert_days: ExpiryAlertDays.nullable().meta({
    description: "Days before expiry a batch raises an alert; null: the organisation's default",
  }),
};
export const UpdateProductInput = z.object(productFields).partial().meta({ id: 'UpdateProductInput' });
export const CreateProductInput = UpdateProductInput.required({ name: true }).meta({ id: 'CreateProductInput' });
export type CreateProductInput = z.infer<typeof CreateProductInput>;
export type UpdateProductInput = z.infer<typeof UpdateProductInput>;

export const ListProductsQuery = PageQuery.extend({
  search: z.string().trim().max(100).optional().meta({
    description: 'Name, SKU or generic name contains, any case; 1 or 2 letters or digits: a word of one of them starts with it',
  }),
  category_id: z.uuid().optional(),
  status: ActiveFilter.optional(),
  low_stock: QueryBool.optional(),
});
export type ListProductsQuery = z.infer<typeof ListProductsQuery>;

export const StockAdjustment = z
  .object({
    id: z.uuid(),
    product_id: z.uuid(),
    store_id: z.uuid(),
    qty_change: z.number().meta({ description: "In the product's unit (whole for a piece product)" }),
    qty_after: z.number().meta({ description: "The store's level after it, in the product's unit" }),
    reason: z.string(),
    note: z.string().nullable(),
    adjusted_by: z.uuid().nullable(),
    created_at: Timestamp,
  })
  .meta({ id: 'StockAdjustment' });
export type StockAdjustment = z.infer<typeof StockAdjustment>;

/**
 * Added (positive) or taken (negative) by an adjustment, REST or sync, in the product's unit; never
 * 0. Whole for a piece product, up to 3 decimals for a measured one: the server checks it against
 * the product's unit (`quantityFault`), which only it knows.
 */
export const QtyChange = z
  .number()
  .min(-1_000_000_000)
  .max(1_000_000_000)
  .refine((n) => n !== 0, 'must not be 0')
  .refine((n) => quantityFault(n, 'kg') === null, 'at most 3 decimals')
  .meta({ multipleOf: 0.001, description: "In the product's unit: whole for a piece product, up to 3 decimals for a measured one" });

export const AdjustStockInput = z
  .object({
    qty_change: QtyChange,
    reason: z.string().trim().min(1).max(100).meta({ example: 'damaged' }),
    note: z.string().trim().max(500).optional(),
    batch_id: z.uuid().optional().meta({
      description:
        "The lot adjusted: required for a batch-tracked product (one of the active store's sellable lots of it), refused for any other",
    }),
  })
  .meta({ id: 'AdjustStockInput' });
export type AdjustStockInput = z.infer<typeof AdjustStockInput>;

export const AdjustmentsQuery = z.object({ limit: z.coerce.number().int().min(1).max(200).default(50) });
