/**
 * FEFO, first expiry first out (issue 14): which batches a sale line of a batch-tracked product
 * takes its units from, the one implementation behind the server's sale, the push of an offline
 * sale and the till's own `sell`.
 *
 * - A batch is sellable when its status is `sellable` and it is not past expiry (`batchExpired`:
 *   the expiry date itself is past), even before the midnight job has marked it `expired`.
 * - Sellable batches are taken in order of expiry date, then of receipt (the one received first,
 *   as Odoo orders by removal date then by incoming date), then lot number and id, so every caller
 *   picks the same; a line spans batches when the first does not hold enough.
 * - `preferred` is the till's own allocation, sent with an offline sale on push. The box that left
 *   the shelf is the one that left, so each preferred batch keeps as many of its units as it still
 *   holds, whatever its status now (only a disposed batch, destroyed on record, keeps none); the
 *   rest is allocated FEFO. A unit kept on a batch that is no longer sellable is still booked, and
 *   raised as a `dispensed_unsellable_batch` conflict for the owner.
 * - What no sellable batch holds is the `shortfall`, with an `INSUFFICIENT_STOCK` breach carrying an
 *   `oversold` conflict: online the sale is refused; offline it was made, and the caller books it.
 *
 * Quantities are counts (issue 51: a tablet, or a millilitre of a litre product); what a cashier
 * reads (a breach's message and its conflict's detail) is in the product's unit.
 */
import type { ErrorCode } from '../errors.js';
import type { ConflictKind, SaleConflict } from '../conflicts.js';
import { fromCount, type Unit } from '../inventory/units.js';
import { batchExpired } from './batch-rules.js';
import type { BatchStatus } from './pharmacy-rules.schemas.js';

export interface FefoBatch {
  batch_id: string;
  lot_number: string;
  /** `YYYY-MM-DD`. */
  expiry_date: string;
  qty_on_hand: number;
  status: BatchStatus;
  /** When the batch was received, epoch ms: the older of two batches with one expiry goes first. */
  received_at: number;
}

export interface BatchAllocation {
  batch_id: string;
  lot_number: string;
  expiry_date: string;
  qty: number;
}

export interface FefoBreach {
  code: Extract<ErrorCode, 'INSUFFICIENT_STOCK' | 'INVALID_STATE'>;
  /** `lines.N.qty` for a shortfall, `lines.N.allocations` for a till allocation on a batch no longer sellable. */
  field: string;
  message: string;
  /** Always present: an offline sale that breaks this is booked with the conflict recorded. */
  conflict: SaleConflict & { kind: Extract<ConflictKind, 'oversold' | 'dispensed_unsellable_batch'> };
}

export interface FefoInput {
  /** Position of the line in the sale as sent, to name it. */
  index: number;
  /** `unit`: the product's (a piece when left out), to word the breaches. */
  product: { product_id: string; name: string; unit?: Unit };
  qty: number;
  /** The product's batches in the selling store, any status. */
  batches: FefoBatch[];
  /** `YYYY-MM-DD` in the organisation's time zone: the day the sale was made. */
  today: string;
  /** The till's own allocation of this line, on push. */
  preferred?: Array<{ batch_id: string; qty: number }>;
}

export interface FefoResult {
  /** One per batch, preferred batches first, then in FEFO order; they add up to `qty − shortfall`. */
  allocations: BatchAllocation[];
  /** Units no batch could give. */
  shortfall: number;
  breaches: FefoBreach[];
}

/** Sellable batches first to last: expiry date, then received first, then lot number, then id. */
export function fefoOrder<B extends FefoBatch>(batches: B[], today: string): B[] {
  const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  return batches
    .filter((b) => isSellable(b, today))
    .sort(
      (a, b) =>
        cmp(a.expiry_date, b.expiry_date) ||
        a.received_at - b.received_at ||
        cmp(a.lot_number, b.lot_number) ||
        cmp(a.batch_id, b.batch_id),
    );
}

export function isSellable(batch: Pick<FefoBatch, 'status' | 'expiry_date'>, today: string): boolean {
  return batch.status === 'sellable' && !batchExpired(batch.expiry_date, today);
}

export function allocateFefo(input: FefoInput): FefoResult {
  if (!Number.isInteger(input.qty) || input.qty <= 0) throw new RangeError('qty must be a positive integer');
  const { index, product, today } = input;
  const left = new Map(input.batches.map((b) => [b.batch_id, Math.max(0, b.qty_on_hand)]));
  const taken = new Map<string, number>();
  let wanted = input.qty;
  const take = (b: FefoBatch, qty: number) => {
    left.set(b.batch_id, left.get(b.batch_id)! - qty);
    taken.set(b.batch_id, (taken.get(b.batch_id) ?? 0) + qty);
    wanted -= qty;
  };

  const byId = new Map(input.batches.map((b) => [b.batch_id, b]));
  const unsellable = new Map<string, number>();
  for (const p of input.preferred ?? []) {
    const batch = byId.get(p.batch_id);
    if (!batch || batch.status === 'disposed' || p.qty <= 0) continue;
    const qty = Math.min(p.qty, wanted, left.get(batch.batch_id)!);
    if (qty <= 0) continue;
    take(batch, qty);
    if (!isSellable(batch, today)) unsellable.set(batch.batch_id, (unsellable.get(batch.batch_id) ?? 0) + qty);
  }
  for (const batch of fefoOrder(input.batches, today)) {
    if (wanted === 0) break;
    const qty = Math.min(wanted, left.get(batch.batch_id)!);
    if (qty > 0) take(batch, qty);
  }

  const breaches: FefoBreach[] = [];
  const unit = product.unit ?? 'piece';
  const inUnit = (count: number) => fromCount(count, unit);
  for (const [batchId, count] of unsellable) {
    const b = byId.get(batchId)!;
    const status = b.status === 'sellable' ? 'expired' : b.status;
    const qty = inUnit(count);
    const message = `${unit === 'piece' ? qty : `${qty} ${unit}`} ${product.name} dispensed from lot ${b.lot_number} (expiry ${b.expiry_date}), ${status} at the time`;
    const detail = { batch_id: b.batch_id, lot_number: b.lot_number, expiry_date: b.expiry_date, status, qty };
    breaches.push({
      code: 'INVALID_STATE',
      field: `lines.${index}.allocations`,
      message,
      conflict: { kind: 'dispensed_unsellable_batch', product_id: product.product_id, message, detail },
    });
  }
  if (wanted > 0) {
    const allocated = input.qty - wanted;
    const available = allocated - [...unsellable.values()].reduce((s, q) => s + q, 0);
    const message = `not enough stock of ${product.name}: ${inUnit(available)} available`;
    const detail = { qty: inUnit(input.qty), allocated: inUnit(allocated), shortfall: inUnit(wanted) };
    breaches.push({
      code: 'INSUFFICIENT_STOCK',
      field: `lines.${index}.qty`,
      message,
      conflict: { kind: 'oversold', product_id: product.product_id, message, detail },
    });
  }
  const allocations = [...taken].map(([batchId, qty]) => {
    const b = byId.get(batchId)!;
    return { batch_id: b.batch_id, lot_number: b.lot_number, expiry_date: b.expiry_date, qty };
  });
  return { allocations, shortfall: wanted, breaches };
}
