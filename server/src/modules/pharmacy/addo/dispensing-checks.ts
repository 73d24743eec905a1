/**
 * The pharmacy rules on a sale (issue 14), read and applied in one place for `recordSale` (online
 * and pushed): the shared `checkAddo` (a store whose outlet type is `addo` sells only medicines on
 * the ADDO list in force) and `checkPrescription` (a `pom` or `controlled` line needs a
 * prescription, in any store: a medicine is a medicine). The ADDO breaches come first: no
 * prescription makes an unlisted medicine sellable in an ADDO. `recordSale` turns the breaches into
 * its answer: online the first is refused, pushed each is booked as its conflict.
 *
 * The check reads nothing: the ADDO list entries matching the sale's medicines are read by the
 * caller with `addoPermitted`, once for a whole pushed batch of sales.
 */
import {
  type AddoBreach,
  type AddoEntry,
  addoMatchKey,
  checkAddo,
  checkPrescription,
  type Prescription,
  type PrescriptionBreach,
} from '@duka/shared';
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
  /** The ADDO list entries in force matching the products (`addoPermitted`); read only for an ADDO. */
  permitted: ReadonlyArray<AddoEntry>;
}

export function checkDispensing(input: DispensingInput): Array<AddoBreach | PrescriptionBreach> {
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
          lines: medicines.map(({ index, p }) => ({
            index,
            product: {
              product_id: p.id,
              name: p.name,
              generic_name: p.generic_name,
              strength: p.strength,
              dosage_form: p.dosage_form,
              schedule: p.schedule,
            },
          })),
          permitted: [...input.permitted],
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
export async function addoPermitted(tx: ServiceContext, products: Iterable<ProductRow>): Promise<AddoEntry[]> {
  const keys = [...products].flatMap((p) =>
    p.schedule != null && p.generic_name && p.strength && p.dosage_form
      ? [addoMatchKey({ generic_name: p.generic_name, strength: p.strength, dosage_form: p.dosage_form })]
      : [],
  );
  if (keys.length === 0) return [];
  return tx.db
    .selectFrom('addo_medicines')
    .select(['generic_name', 'strength', 'dosage_form'])
    .where('match_key', 'in', keys)
    .where('version_removed', 'is', null)
    .execute();
}
