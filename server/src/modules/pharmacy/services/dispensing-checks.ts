/**
 * The pharmacy rules on a sale (issue 14), read and applied in one place for `recordSale` (online
 * and pushed): the shared `checkAddo` (a store whose outlet type is `addo` sells only medicines on
 * the ADDO list in force) and `checkPrescription` (a `pom` or `controlled` line needs a
 * prescription, in any store: a medicine is a medicine). The ADDO breaches come first: no
 * prescription makes an unlisted medicine sellable in an ADDO. `recordSale` turns the breaches into
 * its answer: online the first is refused, pushed each is booked as its conflict.
 *
 * A sale without a medicine line and without a prescription reads nothing; an ADDO check reads only
 * the list entries matching its medicines.
 */
import { type AddoBreach, addoMatchKey, checkAddo, checkPrescription, type Prescription, type PrescriptionBreach } from '@duka/shared';
import type { ProductRow } from '../../../db/tables/inventory.table.js';
import type { ServiceContext } from '../../../lib/context.js';

export interface DispensingInput {
  /** The selling store's outlet type (the caller read the store already). */
  outletType: string | null;
  /** The day the sale was made (the till's day for an offline sale), in the organisation's time zone. */
  today: string;
  /** The sale's merged lines. */
  lines: ReadonlyArray<{ index: number; product_id: string }>;
  products: ReadonlyMap<string, ProductRow>;
  prescription?: Prescription | null;
}

export async function checkDispensing(tx: ServiceContext, input: DispensingInput): Promise<Array<AddoBreach | PrescriptionBreach>> {
  const lines = input.lines.flatMap((l) => {
    const p = input.products.get(l.product_id);
    return p ? [{ index: l.index, p }] : [];
  });
  const medicines = lines.filter(({ p }) => p.schedule != null);
  if (medicines.length === 0 && !input.prescription) return [];

  const breaches: Array<AddoBreach | PrescriptionBreach> = [];
  if (medicines.length > 0) {
    if (input.outletType === 'addo') {
      breaches.push(
        ...checkAddo({
          outlet_type: input.outletType,
          lines: medicines.map(({ index, p }) => ({ index, product: { product_id: p.id, name: p.name, generic_name: p.generic_name, strength: p.strength, dosage_form: p.dosage_form, schedule: p.schedule } })),
          permitted: await permittedAmong(tx, medicines.map(({ p }) => p)),
        }),
      );
    }
  }
  breaches.push(
    ...checkPrescription({
      lines: lines.map(({ index, p }) => ({ index, product_id: p.id, name: p.name, schedule: p.schedule })),
      prescription: input.prescription,
      today: input.today,
    }),
  );
  return breaches;
}

/** The entries of the ADDO list in force that match any of these products (by `addoMatchKey`, indexed). */
async function permittedAmong(tx: ServiceContext, products: ProductRow[]) {
  const keys = products.flatMap((p) => (p.generic_name && p.strength && p.dosage_form ? [addoMatchKey({ generic_name: p.generic_name, strength: p.strength, dosage_form: p.dosage_form })] : []));
  if (keys.length === 0) return [];
  return tx.db.selectFrom('addo_medicines').select(['generic_name', 'strength', 'dosage_form']).where('match_key', 'in', keys).where('version_removed', 'is', null).execute();
}
