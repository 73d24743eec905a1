/**
 * POST /inventory/products/import (issue 54): a catalogue CSV checked whole, then created whole.
 * Every row goes through createProduct, the one place a product's rules live, inside ONE
 * transaction (its products, opening stock, adjustments and change-log rows commit together or
 * not at all); before any write, every row is checked (the product schema, quantities in its
 * unit, barcodes and SKUs repeated in the file or already the organisation's, the plan's product
 * limit) so the owner sees every problem at once. A keyed request is replayed by the route's
 * Idempotency-Key middleware.
 */
import {
  CATALOGUE_IMPORT_MAX_ROWS,
  type ErrorItem,
  type ImportProductsInput,
  type ImportProductsPreview,
  type ImportProductsResult,
  newId,
} from '@duka/shared';
import { withTransaction } from '../../../db/transaction.js';
import { requirePermission, requireStore } from '../../../lib/auth/authorize.js';
import type { AuthedContext } from '../../../lib/context.js';
import { ServiceError } from '../../../lib/errors.js';
import type { Language } from '../../../lib/language.js';
import { checkPlanAllows } from '../../billing/billing.exports.js';
import { barcodeHolders } from '../packs.queries.js';
import { type CatalogueRow, previewOf, readCatalogue, rowField, rowInput } from './catalogue-csv.js';
import { createCategory } from './categories.js';
import { createProduct } from './products.js';

const PREVIEW_ROWS = 20;
const CHUNK = 500;

function chunks<T>(list: T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += CHUNK) out.push(list.slice(i, i + CHUNK));
  return out;
}

/** Barcodes and SKUs repeated within the file or already held in the organisation (by a product, or a pack's barcode). */
async function duplicates(ctx: AuthedContext, orgId: string, rows: CatalogueRow[]): Promise<ErrorItem[]> {
  const errors: ErrorItem[] = [];
  const codes = { barcode: new Map<string, number>(), sku: new Map<string, number>() };
  for (const r of rows)
    for (const field of ['barcode', 'sku'] as const) {
      const code = r.input[field];
      if (!code) continue;
      const first = codes[field].get(code);
      if (first === undefined) codes[field].set(code, r.row);
      else errors.push({ code: 'DUPLICATE', field: rowField(r.row, field), message: `${field} ${code} is also on row ${first}` });
    }
  const held = new Map<string, string>();
  for (const part of chunks([...codes.barcode.keys()]))
    for (const h of await barcodeHolders(ctx.db, orgId, newId(), part)) held.set(h.barcode, h.holder);
  const heldSku = new Map<string, string>();
  for (const part of chunks([...codes.sku.keys()]))
    for (const p of await ctx.db
      .selectFrom('products')
      .select(['sku', 'name'])
      .where('org_id', '=', orgId)
      .where('sku', 'in', part)
      .execute())
      heldSku.set(p.sku!, p.name);
  for (const [field, holders] of [
    ['barcode', held],
    ['sku', heldSku],
  ] as const)
    for (const [code, row] of codes[field]) {
      const holder = holders.get(code);
      if (holder) errors.push({ code: 'DUPLICATE', field: rowField(row, field), message: `${field} ${code} is already ${holder}'s` });
    }
  return errors;
}

/** The file read and every row checked, nothing written; the `stock` permission first, dry run or not. */
async function check(ctx: AuthedContext, orgId: string, csv: string, language: Language) {
  requirePermission(ctx, 'stock');
  const { header, records } = readCatalogue(csv);
  if (records.length === 0)
    throw new ServiceError('VALIDATION_ERROR', 'the file has no product rows', {
      errors: [{ code: 'VALIDATION_ERROR', field: 'csv', message: 'has no product rows under its header' }],
    });
  if (records.length > CATALOGUE_IMPORT_MAX_ROWS)
    throw new ServiceError(
      'PAYLOAD_TOO_LARGE',
      `the file has ${records.length} products; import at most ${CATALOGUE_IMPORT_MAX_ROWS.toLocaleString('en')} at a time (split the file)`,
    );
  const rows: CatalogueRow[] = [];
  const errors: ErrorItem[] = [];
  records.forEach((record, i) => {
    const out = rowInput(header, record, i + 2, language);
    if ('row' in out) rows.push(out.row);
    else errors.push(...out.errors);
  });
  errors.push(...(await duplicates(ctx, orgId, rows)));
  errors.sort((a, b) => rowOf(a) - rowOf(b));
  return { rows, records: records.length, errors };
}

const rowOf = (e: ErrorItem) => Number(/^rows\[(\d+)\]/.exec(e.field ?? '')?.[1] ?? 0);

/** A dry run: how the file would import, every problem named, nothing written. */
export async function previewImport(
  ctx: AuthedContext,
  input: ImportProductsInput,
  language: Language = 'en',
): Promise<ImportProductsPreview> {
  const { orgId } = requireStore(ctx);
  const { rows, records, errors } = await check(ctx, orgId, input.csv, language);
  try {
    await checkPlanAllows(ctx, orgId, 'products', records);
  } catch (err) {
    if (!(err instanceof ServiceError)) throw err;
    errors.push({ code: err.code, field: 'csv', message: err.message });
  }
  const bad = new Set(errors.map(rowOf));
  return {
    rows: records,
    valid: rows.filter((r) => !bad.has(r.row)).length,
    errors,
    preview: rows.slice(0, PREVIEW_ROWS).map(previewOf),
  };
}

/** Every row created in one transaction, or none: any problem answers 400 with all of them. */
export async function importProducts(
  ctx: AuthedContext,
  input: ImportProductsInput,
  language: Language = 'en',
): Promise<ImportProductsResult> {
  const { orgId } = requireStore(ctx);
  const { rows, errors } = await check(ctx, orgId, input.csv, language);
  if (errors.length)
    throw new ServiceError(
      'VALIDATION_ERROR',
      `${errors.length} problem${errors.length === 1 ? '' : 's'} in the file; nothing was imported`,
      {
        errors,
      },
    );
  await checkPlanAllows(ctx, orgId, 'products', rows.length);
  return withTransaction(ctx, async (tx) => {
    const categories = new Map(
      (await tx.db.selectFrom('categories').select(['id', 'name']).where('org_id', '=', orgId).execute()).map((c) => [
        c.name.toLowerCase(),
        c.id,
      ]),
    );
    let categoriesCreated = 0;
    for (const r of rows) {
      let categoryId: string | undefined;
      if (r.category) {
        categoryId = categories.get(r.category.toLowerCase());
        if (!categoryId) {
          categoryId = (await inRow(r.row, () => createCategory(tx, { name: r.category! }))).id;
          categories.set(r.category.toLowerCase(), categoryId);
          categoriesCreated++;
        }
      }
      await inRow(r.row, () => createProduct(tx, { ...r.input, ...(categoryId ? { category_id: categoryId } : {}) }));
    }
    return { created: rows.length, categories_created: categoriesCreated };
  });
}

/** A refusal of one row's write, its fields named as that row's. */
async function inRow<T>(row: number, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (!(err instanceof ServiceError)) throw err;
    const items = err.extra.errors?.length ? err.extra.errors : [{ code: err.code, message: err.message }];
    throw new ServiceError(err.code, `row ${row}: ${err.message}; nothing was imported`, {
      ...err.extra,
      // The Swahili named the field outside the row: a Swahili answer gets the code's sentence instead.
      swahili: undefined,
      errors: items.map((e) => ({ ...e, field: rowField(row, e.field ?? 'name') })),
    });
  }
}
