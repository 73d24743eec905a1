/**
 * The medicine rules of a pharmacy's sale (issue 14), the shared rules the server applies, so a
 * till refuses offline what the server refuses online:
 *
 * - `checkRules`: `checkPrescription`, a `pom` or `controlled` line needs a prescription on the sale;
 * - `takeLots`: `allocateFefo` for each batch-tracked line over the replica's batches, on the day of
 *   the sale in the organisation's time zone. Units no sellable batch holds are refused
 *   (`INSUFFICIENT_STOCK` naming the line), unlike plain stock, which a till may oversell: the
 *   receipt must print the lot every unit came from, and a till cannot name one for units it knows
 *   of no batch for.
 */
import { allocateFefo, type BatchAllocation, checkPrescription, localDate } from '@duka/shared';
import type { LocalExec } from '../../../local/db.js';
import * as reads from '../../../reads.js';
import type { ResolvedSale } from '../draft.js';
import { refuse, type SalePolicy } from './sale-policy.js';

/** The day the sale is made in the organisation's time zone: prescriptions and lots are judged by it. */
export const saleDay = (sale: ResolvedSale): string => localDate(sale.at, sale.shop.org.timezone);

async function checkPrescriptions(_db: LocalExec, sale: ResolvedSale): Promise<void> {
  const lines = sale.lines.map((l) => {
    const p = sale.products.get(l.product_id)!;
    return { index: l.index, product_id: l.product_id, name: p.name, schedule: p.schedule };
  });
  // The day is worked out (a time-zone conversion) only if the rule reads it: a sale with a prescription.
  const input = {
    lines,
    prescription: sale.input.prescription ?? null,
    get today() {
      return saleDay(sale);
    },
  };
  refuse(checkPrescription(input)[0]);
}

async function fefoLots(db: LocalExec, sale: ResolvedSale): Promise<Map<string, BatchAllocation[]>> {
  // One line per product: a box and loose strips of a medicine take their lots together (issue 51).
  const tracked = perProduct(sale).filter((l) => {
    const p = sale.products.get(l.product_id)!;
    return p.track_batches && !p.is_service;
  });
  const allocations = new Map<string, BatchAllocation[]>();
  if (!tracked.length) return allocations;
  // In counts, as the lines are (issue 51).
  const batches = await reads.batchCountsOf(
    db,
    tracked.map((l) => l.product_id),
  );
  for (const l of tracked) {
    const fefo = allocateFefo({
      index: l.index,
      product: { product_id: l.product_id, name: sale.products.get(l.product_id)!.name, unit: sale.products.get(l.product_id)!.unit },
      qty: l.qty,
      batches: batches.get(l.product_id)!.map((b) => ({
        batch_id: b.id,
        lot_number: b.lot_number,
        expiry_date: b.expiry_date,
        qty_on_hand: b.qty_on_hand,
        status: b.status,
        received_at: Date.parse(b.received_at) || 0,
      })),
      today: saleDay(sale),
    });
    refuse(fefo.breaches[0]);
    allocations.set(l.product_id, fefo.allocations);
  }
  return allocations;
}

/** The sale's lines summed per product (counts), named by the first. */
function perProduct(sale: ResolvedSale): Array<{ index: number; product_id: string; qty: number }> {
  const merged = new Map<string, { index: number; product_id: string; qty: number }>();
  for (const l of sale.lines) {
    const seen = merged.get(l.product_id);
    merged.set(l.product_id, { index: seen?.index ?? l.index, product_id: l.product_id, qty: (seen?.qty ?? 0) + l.qty });
  }
  return [...merged.values()];
}

export const medicinePolicy: SalePolicy = { checkRules: checkPrescriptions, takeLots: fefoLots };
