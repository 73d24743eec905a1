/** The organisation-wide catalogue; `stock` is always the caller's active store's level. */
import { checkTaxCode, newId, type TaxCode, toBasisPoints, toCents } from '@duka/shared';
import type { CreateProductInput, Product, ScannedProduct, UpdateProductInput } from '@duka/shared';
import type { Updateable } from 'kysely';
import { noteChange } from '../../../db/change-log.js';
import { uniqueViolationField } from '../../../db/dialect.js';
import { withTransaction } from '../../../db/transaction.js';
import { recordAudit } from '../../../lib/audit.js';
import type { AuthedContext, ServiceContext } from '../../../lib/context.js';
import { DuplicateError, NotFoundError, ValidationError } from '../../../lib/errors.js';
import type { ProductTable } from '../../../db/tables/inventory.table.js';
import {
  findCategory,
  findProduct,
  insertProduct,
  type ProductWithStock,
  productsWithStock,
  recordPrice,
  toProduct,
} from '../inventory.queries.js';
import { imageColumns } from './product-image.js';
import { packByBarcode, packsOf, replacePacks } from '../packs.queries.js';
import { assertBarcodesFree, packRows } from './packs.js';
import { productByScaleLabel } from './scale-label.js';
import { assertMedicine, assertStockAllowsTracking, STOCK_NEEDS_BATCH, trackBatchesOf } from './medicine.js';
import { changeStockLevel } from '../../stock-levels/stock-levels.exports.js';
import { insertAdjustment } from './stock.js';
import { assertUnitMayChange, type ProductCounts, productCounts } from './product-units.js';
import { requirePower, requireStore } from '../../../lib/auth/authorize.js';
import { checkPlanAllows } from '../../billing/billing.exports.js';

function rethrowDuplicate(err: unknown): never {
  const field = uniqueViolationField(err);
  if (field === 'sku' || field === 'barcode' || field === 'scale_code')
    throw new DuplicateError(field, `another product already has this ${field}`);
  throw err;
}

/**
 * The stored columns for the fields present in `input` (money to cents, percent to basis points,
 * flags to 0/1, quantities to counts of the product's unit: `counts`).
 */
function columns(input: UpdateProductInput, counts: ProductCounts, trackBatches: boolean | undefined): Updateable<ProductTable> {
  const flag = (v: boolean | undefined) => (v === undefined ? undefined : v ? 1 : 0);
  const cents = (v: number | null | undefined) => (v == null ? v : toCents(v));
  const out: Updateable<ProductTable> = {
    name: input.name,
    category_id: input.category_id,
    sku: input.sku,
    barcode: input.barcode,
    scale_code: input.scale_code,
    cost_price: cents(input.cost_price) as number | undefined,
    selling_price: cents(input.selling_price) as number | undefined,
    wholesale_price: cents(input.wholesale_price),
    wholesale_min_qty: counts.wholesale_min_qty,
    unit: counts.unit,
    tax_rate: input.tax_rate === undefined ? undefined : toBasisPoints(input.tax_rate),
    tax_code: input.tax_code,
    reorder_point: counts.reorder_point,
    description: input.description,
    is_service: flag(input.is_service),
    is_active: flag(input.is_active),
    generic_name: input.generic_name,
    strength: input.strength,
    dosage_form: input.dosage_form,
    schedule: input.schedule,
    track_batches: flag(trackBatches),
    expiry_alert_days: input.expiry_alert_days,
  };
  return Object.fromEntries(Object.entries(out).filter(([, v]) => v !== undefined));
}

function assertTaxCode(taxCode: TaxCode | null, taxRateBp: number) {
  const problem = checkTaxCode(taxCode, taxRateBp);
  if (problem) throw new ValidationError('tax_code', problem);
}

async function assertCategory(ctx: AuthedContext, orgId: string, categoryId: string | null | undefined) {
  if (categoryId && !(await findCategory(ctx.db, orgId, categoryId))) throw new NotFoundError('category');
}

/** The product as answered, with its packs (read through `ctx`: inside a write, its transaction). */
async function answer(ctx: ServiceContext, row: ProductWithStock): Promise<Product> {
  const packs = await packsOf(ctx.db, row.org_id, [row.id]);
  return toProduct(row, ctx.config, packs.get(row.id) ?? []);
}

export async function getProduct(ctx: AuthedContext, id: string): Promise<Product> {
  const { orgId, storeId } = requireStore(ctx);
  const row = await findProduct(ctx.db, orgId, storeId, id);
  if (!row) throw new NotFoundError('product');
  return answer(ctx, row);
}

/** By barcode first, then by SKU, then by a pack's barcode (saying which pack), then as a shop-scale label (with what the label sells), as a scanner at the till needs. */
export async function getProductByCode(ctx: AuthedContext, code: string): Promise<ScannedProduct> {
  const { orgId, storeId } = requireStore(ctx);
  const row =
    (await productsWithStock(ctx.db, orgId, storeId).where('p.barcode', '=', code).executeTakeFirst()) ??
    (await productsWithStock(ctx.db, orgId, storeId).where('p.sku', '=', code).executeTakeFirst());
  if (row) return { ...(await answer(ctx, row)), scanned_pack: null };
  const pack = await packByBarcode(ctx.db, orgId, code);
  const packed = pack && (await findProduct(ctx.db, orgId, storeId, pack.product_id));
  if (packed) {
    const product = await answer(ctx, packed);
    return { ...product, scanned_pack: product.packs.find((p) => p.id === pack.id)! };
  }
  const labelled = await productByScaleLabel(ctx, { orgId, storeId }, code);
  if (!labelled) throw new NotFoundError('product');
  return { ...(await answer(ctx, labelled.row)), scanned_pack: null, scale_label: labelled.scale_label };
}

export async function createProduct(ctx: AuthedContext, input: CreateProductInput): Promise<Product> {
  const { orgId, storeId } = requireStore(ctx);
  await assertCategory(ctx, orgId, input.category_id);
  await checkPlanAllows(ctx, orgId, 'products');
  const counts = productCounts(input, null);
  const stock = counts.stock ?? 0;
  if (stock !== 0) requirePower(ctx, 'adjust_stock');
  if (input.is_service && stock > 0) throw new ValidationError('stock', 'must be 0 for a service');
  const trackBatches = trackBatchesOf(null, input);
  assertMedicine(null, input, trackBatches ?? false);
  assertTaxCode(input.tax_code ?? null, input.tax_rate === undefined ? 1800 : toBasisPoints(input.tax_rate));
  if (trackBatches && stock > 0) throw new ValidationError('stock', STOCK_NEEDS_BATCH);
  const image = await imageColumns(ctx, orgId, input.image);
  try {
    return await withTransaction(ctx, async (tx) => {
      const now = tx.clock.now();
      const id = newId();
      await insertProduct(tx.db, { id, orgId, name: input.name, fields: { ...columns(input, counts, trackBatches), ...image }, now });
      const row = (await findProduct(tx.db, orgId, storeId, id))!;
      const packs = packRows({ orgId, productId: id, unit: row.unit, now }, input.packs ?? [], []);
      await assertBarcodesFree(tx, { orgId, productId: id }, { product: row.barcode, packs: packs.map((p) => p.barcode ?? null) });
      if (packs.length) await replacePacks(tx.db, { orgId, productId: id }, packs);
      await recordPrice(tx, row);
      let level = 0;
      if (stock > 0) {
        level = await changeStockLevel(tx, { orgId, storeId, productId: id, productName: row.name, delta: stock });
        await insertAdjustment(tx, { productId: id, qtyChange: stock, qtyAfter: level, reason: 'initial_stock' });
      }
      noteChange(tx, orgId, { entity: 'product', id });
      await recordAudit(tx, { action: 'product.create', description: `Added product ${row.name}`, entity: 'product', entityId: id });
      return answer(tx, { ...row, stock: level });
    });
  } catch (err) {
    rethrowDuplicate(err);
  }
}

/**
 * On update: `packs` sent replaces the product's packs; with a new barcode or packs, every barcode
 * the product then answers to is checked free (`assertBarcodesFree`).
 */
async function updatePacks(tx: ServiceContext, after: ProductWithStock, input: UpdateProductInput, now: number) {
  if (input.packs === undefined && input.barcode == null) return;
  const at = { orgId: after.org_id, productId: after.id };
  const existing = (await packsOf(tx.db, at.orgId, [at.productId])).get(at.productId) ?? [];
  const packs = input.packs === undefined ? existing : packRows({ ...at, unit: after.unit, now }, input.packs, existing);
  await assertBarcodesFree(tx, at, { product: after.barcode, packs: packs.map((p) => p.barcode ?? null) });
  if (input.packs !== undefined) await replacePacks(tx.db, at, packs);
}

const PRICE_FIELDS = ['selling_price', 'wholesale_price', 'cost_price', 'tax_rate'] as const;

/** Prices, stock and removal are powers (shared/staff/powers.ts); every other field is free. */
function assertMayChange(ctx: AuthedContext, before: ProductWithStock, set: Updateable<ProductTable>, stock: number | undefined) {
  const differs = (a: unknown, b: unknown) => (a == null || b == null ? a !== b : Number(a) !== Number(b));
  const taxCodeChanges = set.tax_code !== undefined && set.tax_code !== before.tax_code;
  if (taxCodeChanges || [...PRICE_FIELDS, 'wholesale_min_qty' as const].some((f) => set[f] !== undefined && differs(set[f], before[f])))
    requirePower(ctx, 'change_price');
  if (stock !== undefined && stock !== Number(before.stock)) requirePower(ctx, 'adjust_stock');
  if (set.is_active === 0 && before.is_active === 1) requirePower(ctx, 'remove_product');
}

/** Any product field; a price change writes a price-history row, a new `stock` an adjustment. */
export async function updateProduct(ctx: AuthedContext, id: string, input: UpdateProductInput): Promise<Product> {
  const { orgId, storeId } = requireStore(ctx);
  const before = await findProduct(ctx.db, orgId, storeId, id);
  if (!before) throw new NotFoundError('product');
  await assertCategory(ctx, orgId, input.category_id);
  const counts = productCounts(input, before);
  const isService = input.is_service ?? before.is_service === 1;
  if (isService && counts.stock !== undefined && counts.stock > 0) throw new ValidationError('stock', 'must be 0 for a service');
  const trackBatches = trackBatchesOf(before, input);
  const trackedAfter = trackBatches ?? before.track_batches === 1;
  assertMedicine(before, input, trackedAfter);
  assertTaxCode(
    input.tax_code === undefined ? before.tax_code : input.tax_code,
    input.tax_rate === undefined ? before.tax_rate : toBasisPoints(input.tax_rate),
  );
  if (trackedAfter && counts.stock !== undefined && counts.stock !== Number(before.stock))
    throw new ValidationError('stock', STOCK_NEEDS_BATCH);
  const set = { ...columns(input, counts, trackBatches), ...(await imageColumns(ctx, orgId, input.image)) };
  assertMayChange(ctx, before, set, counts.stock);
  try {
    return await withTransaction(ctx, async (tx) => {
      // Checked inside the transaction, so a sale or delivery committing meanwhile is seen.
      await assertStockAllowsTracking(tx.db, orgId, id, { trackedBefore: before.track_batches === 1, trackedAfter });
      await assertUnitMayChange(tx.db, orgId, before, counts.unit);
      const now = tx.clock.now();
      if (Object.keys(set).length)
        await tx.db
          .updateTable('products')
          .set({ ...set, updated_at: now })
          .where('org_id', '=', orgId)
          .where('id', '=', id)
          .execute();
      let after: ProductWithStock = (await findProduct(tx.db, orgId, storeId, id))!;
      await updatePacks(tx, after, input, now);
      if (PRICE_FIELDS.some((f) => after[f] !== before[f])) await recordPrice(tx, after);
      if (counts.stock !== undefined && counts.stock !== Number(after.stock)) {
        const delta = counts.stock - Number(after.stock);
        const level = await changeStockLevel(tx, { orgId, storeId, productId: id, productName: after.name, delta, allowNegative: true });
        await insertAdjustment(tx, {
          productId: id,
          qtyChange: delta,
          qtyAfter: level,
          reason: 'correction',
          note: 'stock set on the product',
        });
        after = { ...after, stock: level };
      }
      noteChange(tx, orgId, { entity: 'product', id });
      await recordAudit(tx, { action: 'product.update', description: `Updated product ${after.name}`, entity: 'product', entityId: id });
      return answer(tx, after);
    });
  } catch (err) {
    rethrowDuplicate(err);
  }
}

/**
 * A product with history (sales or stock adjustments) is deactivated so the history stays
 * readable; one without is removed. Either way the answer is 204.
 */
export async function deleteProduct(ctx: AuthedContext, id: string): Promise<void> {
  const { orgId, storeId } = requireStore(ctx);
  const product = await findProduct(ctx.db, orgId, storeId, id);
  if (!product) throw new NotFoundError('product');
  requirePower(ctx, 'remove_product');
  await withTransaction(ctx, async (tx) => {
    const [sale, adjustment] = await Promise.all([
      tx.db
        .selectFrom('transaction_lines')
        .select('id')
        .where('org_id', '=', orgId)
        .where('product_id', '=', id)
        .limit(1)
        .executeTakeFirst(),
      tx.db
        .selectFrom('stock_adjustments')
        .select('id')
        .where('org_id', '=', orgId)
        .where('product_id', '=', id)
        .limit(1)
        .executeTakeFirst(),
    ]);
    if (sale || adjustment) {
      await tx.db
        .updateTable('products')
        .set({ is_active: 0, updated_at: tx.clock.now() })
        .where('org_id', '=', orgId)
        .where('id', '=', id)
        .execute();
      noteChange(tx, orgId, { entity: 'product', id });
      await recordAudit(tx, {
        action: 'product.deactivate',
        description: `Deactivated product ${product.name} (it has history)`,
        entity: 'product',
        entityId: id,
      });
      return;
    }
    await replacePacks(tx.db, { orgId, productId: id }, []);
    await tx.db.deleteFrom('product_prices').where('org_id', '=', orgId).where('product_id', '=', id).execute();
    const stocked = await tx.db
      .deleteFrom('product_stock')
      .where('org_id', '=', orgId)
      .where('product_id', '=', id)
      .returning('store_id')
      .execute();
    for (const { store_id } of stocked) noteChange(tx, orgId, { entity: 'stock', id, op: 'delete', storeId: store_id });
    await tx.db.deleteFrom('products').where('org_id', '=', orgId).where('id', '=', id).execute();
    noteChange(tx, orgId, { entity: 'product', id, op: 'delete' });
    await recordAudit(tx, { action: 'product.delete', description: `Deleted product ${product.name}`, entity: 'product', entityId: id });
  });
}
