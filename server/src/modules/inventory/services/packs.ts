/**
 * A product's packs as the products service writes them (issue 51): the list sent replaces the
 * product's, each pack's `units` taken in the product's unit and kept in its counts, and every
 * barcode the product answers to (its own and its packs') held by nothing else of the organisation.
 */
import { newId, type PackInput, quantityFault, toCents, toCount, type Unit, unitScale } from '@duka/shared';
import type { Insertable } from 'kysely';
import type { ProductPackRow, ProductPackTable } from '../../../db/tables/inventory.table.js';
import type { ServiceContext } from '../../../lib/context.js';
import { DuplicateError, ValidationError } from '../../../lib/errors.js';
import { barcodeHolders, replacePacks } from '../packs.queries.js';

/** The rows of `input` for the product: a pack sent with the id of one of its packs keeps it. */
export function packRows(
  at: { orgId: string; productId: string; unit: Unit; now: number },
  input: PackInput[],
  existing: ProductPackRow[],
): Insertable<ProductPackTable>[] {
  const had = new Map(existing.map((p) => [p.id, p]));
  return input.map((p, i) => {
    const fault = quantityFault(p.units, at.unit);
    if (fault) throw new ValidationError(`packs.${i}.units`, fault);
    const units = toCount(p.units, at.unit);
    if (units <= unitScale(at.unit))
      throw new ValidationError(`packs.${i}.units`, `a pack holds more than one ${at.unit} (got ${p.units})`);
    const kept = p.id ? had.get(p.id) : undefined;
    if (p.id && !kept) throw new ValidationError(`packs.${i}.id`, 'is not a pack of this product (leave it out for a new pack)');
    const row = {
      name: p.name,
      units,
      barcode: p.barcode ?? null,
      selling_price: p.selling_price == null ? null : toCents(p.selling_price),
    };
    // A pack sent back as it was keeps its time: a pushed sale's pack price is judged by when the pack last changed.
    const same = kept && (['name', 'units', 'barcode', 'selling_price'] as const).every((k) => kept[k] === row[k]);
    return {
      org_id: at.orgId,
      id: kept?.id ?? newId(),
      product_id: at.productId,
      ...row,
      created_at: kept?.created_at ?? at.now,
      updated_at: same ? kept.updated_at : at.now,
    };
  });
}

/**
 * 409 when a barcode the product will answer to is another's: another product's, another product's
 * pack's, or the product's own barcode on one of its packs. (Two products' barcodes, and two packs',
 * are also refused by their unique indexes.)
 */
export async function assertBarcodesFree(
  ctx: ServiceContext,
  at: { orgId: string; productId: string },
  barcodes: { product: string | null; packs: Array<string | null> },
): Promise<void> {
  const packCodes = barcodes.packs.map((code, i) => ({ code, field: `packs.${i}.barcode` }));
  const own = packCodes.find((p) => p.code !== null && p.code === barcodes.product);
  if (own) throw new DuplicateError(own.field, `barcode ${own.code} is the product's own barcode`);
  const wanted = [{ code: barcodes.product, field: 'barcode' }, ...packCodes].filter((w): w is { code: string; field: string } => !!w.code);
  const held = await barcodeHolders(
    ctx.db,
    at.orgId,
    at.productId,
    wanted.map((w) => w.code),
  );
  const clash = wanted.find((w) => held.some((h) => h.barcode === w.code));
  if (clash) {
    const holder = held.find((h) => h.barcode === clash.code)!.holder;
    throw new DuplicateError(clash.field, `barcode ${clash.code} is already ${holder}'s`);
  }
}

/** Write the product's packs (the list replaces its packs). */
export async function savePacks(ctx: ServiceContext, at: { orgId: string; productId: string }, rows: Insertable<ProductPackTable>[]) {
  await replacePacks(ctx.db, at, rows);
}
