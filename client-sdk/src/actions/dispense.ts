/**
 * The pharmacy rules on the till's sale (issue 14), the shared rules the server applies, so a till
 * refuses offline what the server refuses online, with the same code, field and message:
 *
 * 1. `checkAddo`, in a store whose outlet type is `addo`, against the till's copy of the ADDO list
 *    (first, as on the server: no prescription makes an unlisted medicine sellable in an ADDO).
 *    A till that has never fetched the list refuses every medicine there (`NOT_READY`): an empty
 *    copy would say "not on the list" of medicines that may well be on it;
 * 2. `checkPrescription`: a `pom` or `controlled` line needs a prescription on the sale;
 * 3. `allocateFefo` for each batch-tracked line over the replica's batches, on the day of the sale
 *    in the organisation's time zone. Units no sellable batch holds are refused (`INSUFFICIENT_STOCK`
 *    naming the line), unlike plain stock, which a till may oversell: the receipt must print the lot
 *    every unit came from, and a till cannot name one for units it knows of no batch for.
 *
 * Only the first breach is thrown, as the server refuses online.
 */
import {
  addoMatchKey,
  allocateFefo,
  type BatchAllocation,
  checkAddo,
  checkPrescription,
  type Organisation,
  type Prescription,
  type Product,
  type Store,
  localDate,
} from '@duka/shared';
import { TillError } from '../errors.js';
import type { LocalExec } from '../local/db.js';
import { getMeta } from '../local/meta.js';
import * as reads from '../reads.js';

export interface DispenseInput {
  /** The sale's merged lines (`mergeSaleLines`), each with its product from the replica. */
  lines: Array<{ index: number; product_id: string; qty: number }>;
  products: Map<string, Product>;
  org: Organisation;
  store: Store;
  prescription: Prescription | undefined;
  /** When the sale is made, epoch ms (till clock). */
  at: number;
}

/** Refuses the sale (TillError) or answers the batches each batch-tracked line takes, by product. */
export async function checkDispensing(db: LocalExec, input: DispenseInput): Promise<Map<string, BatchAllocation[]>> {
  const today = localDate(input.at, input.org.timezone);
  const lines = input.lines.map((l) => ({ ...l, product: input.products.get(l.product_id)! }));
  const fail = (b: { code: TillError['code']; message: string; field?: string } | undefined) => {
    if (b) throw new TillError(b.code, b.message, b.field);
  };

  if (input.store.outlet_type === 'addo') {
    const medicines = lines.filter((l) => l.product.schedule != null);
    if (medicines.length && (await getMeta(db, 'addo_list_version')) === undefined) {
      const field = `lines.${medicines[0]!.index}.product_id`;
      throw new TillError(
        'NOT_READY',
        'this till has not loaded the ADDO list yet: sync once while online before selling medicines',
        field,
      );
    }
    // Only the entries that could match these medicines; the rule itself decides.
    const keys = medicines.flatMap(({ product: p }) =>
      p.generic_name && p.strength && p.dosage_form
        ? [addoMatchKey({ generic_name: p.generic_name, strength: p.strength, dosage_form: p.dosage_form })]
        : [],
    );
    fail(
      checkAddo({
        outlet_type: input.store.outlet_type,
        lines: lines.map((l) => ({ index: l.index, product: { product_id: l.product_id, ...l.product } })),
        permitted: await reads.addoEntries(db, keys),
      })[0],
    );
  }

  fail(
    checkPrescription({
      lines: lines.map((l) => ({ index: l.index, product_id: l.product_id, name: l.product.name, schedule: l.product.schedule })),
      prescription: input.prescription ?? null,
      today,
    })[0],
  );

  const tracked = lines.filter((l) => l.product.track_batches && !l.product.is_service);
  const allocations = new Map<string, BatchAllocation[]>();
  if (!tracked.length) return allocations;
  const batches = await reads.batchesOf(
    db,
    tracked.map((l) => l.product_id),
  );
  for (const l of tracked) {
    const fefo = allocateFefo({
      index: l.index,
      product: { product_id: l.product_id, name: l.product.name },
      qty: l.qty,
      batches: batches.get(l.product_id)!.map((b) => ({
        batch_id: b.id,
        lot_number: b.lot_number,
        expiry_date: b.expiry_date,
        qty_on_hand: b.qty_on_hand,
        status: b.status,
        received_at: Date.parse(b.received_at) || 0,
      })),
      today,
    });
    fail(fefo.breaches[0]);
    allocations.set(l.product_id, fefo.allocations);
  }
  return allocations;
}
