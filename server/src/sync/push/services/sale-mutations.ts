/**
 * The `sale.create` mutations of a push, reconciled as a set (issue 17): what they need is read
 * once (their products, price history and cashiers here; stock, lots, customers and the store's
 * numbers in `recordSales`), each sale is worked out in memory with the rules `POST /pos/sale`
 * uses, and all are written together. A sale that breaks a rule is rejected alone; its neighbours
 * are booked as if it had never come.
 */
import {
  changeFor,
  checkTender,
  decodeScaleBarcode,
  fromCents,
  type LineBatchInput,
  type Mutation,
  type MutationResult,
  type PaymentsBreach,
  quantityFault,
  type SaleConflict,
  scaleLine,
  splitTender,
  type TenderBreach,
  type TenderPart,
  toBasisPoints,
  toCents,
  toCount,
} from '@duka/shared';
import type { ProductRow } from '../../../db/tables/inventory.table.js';
import type { DeviceRow } from '../../../db/tables/sync.table.js';
import type { PendingCommit } from '../../../db/transaction.js';
import { requireStore } from '../../../lib/auth/authorize.js';
import type { AuthedContext } from '../../../lib/context.js';
import { ServiceError, ValidationError } from '../../../lib/errors.js';
import { orgPacksById, orgProductsById } from '../../../modules/inventory/inventory.exports.js';
import { priceLines, readScaleLabels, recordSales, type SaleRequest, type ScaleLabels } from '../../../modules/pos/pos.exports.js';
import { recordConflicts } from './conflicts.js';
import { parsePayload, type SalePayload } from './mutators.js';
import { priceHistory, reconcilePackPrices, reconcilePrices } from './reconcile.js';
import { SaleClock } from './sale-clock.js';

const rejected = (m: Mutation, err: ServiceError): MutationResult => ({
  id: m.id,
  seq: m.seq,
  status: 'rejected',
  error: { code: err.code, message: err.message },
});

/**
 * A sale is booked to the user whose session pushed it, never to whoever the till names: a till's
 * payload is the till's word, the token is the server's. A till that names another member of the
 * organisation (a cashier who signed out before the queue drained, or a forged payload) gets its
 * sale booked all the same, and the difference is recorded for the owner.
 */
function cashierConflict(pusher: string, named: string | undefined, member: Map<string, string>): SaleConflict | undefined {
  if (!named || named === pusher) return undefined;
  const who = (id: string) => member.get(id) || 'a former user';
  return {
    kind: 'cashier_mismatch',
    message: `the till named ${who(named)} as the cashier, but ${who(pusher)} sent the sale; it is booked to ${who(pusher)}`,
    detail: { named_cashier_id: named, booked_cashier_id: pusher },
  };
}

/** Apply a run of consecutive `sale.create` mutations of one device; results in their order. */
export async function applySales(
  tx: AuthedContext & { pending: PendingCommit },
  device: DeviceRow,
  mutations: Mutation[],
  now: number,
  /** Options every sale of the run takes too (an exchange's new sale: the refund's parts it mirrors). */
  extra: Pick<SaleRequest['opts'], 'mirrored'> = {},
): Promise<MutationResult[]> {
  const { orgId, storeId } = requireStore(tx);
  const results: Array<MutationResult | undefined> = mutations.map(() => undefined);
  const valid: Array<{ i: number; m: Mutation; p: SalePayload; at: number; tillAt: number; clock?: SaleConflict }> = [];
  const clock = new SaleClock(now, device.last_sale_at);
  mutations.forEach((m, i) => {
    try {
      const p = parsePayload(m, 'sale.create');
      const tillAt = Date.parse(m.created_at);
      const { at, conflict } = clock.judge(tillAt);
      valid.push({ i, m, p, at, tillAt, clock: conflict });
    } catch (err) {
      if (!(err instanceof ServiceError)) throw err;
      results[i] = rejected(m, err);
    }
  });
  const pusher = tx.actor.userId;
  const others = [...new Set(valid.flatMap((v) => (v.p.cashier_id && v.p.cashier_id !== pusher ? [v.p.cashier_id] : [])))];
  const productIds = [...new Set(valid.flatMap((v) => v.p.lines.map((l) => l.product_id)))];
  const ats = valid.map((v) => v.at);
  const packIds = valid.flatMap((v) => v.p.lines.flatMap((l) => (l.pack_id ? [l.pack_id] : [])));
  const [members, products, packs, prices, labels] = await Promise.all([
    // Names only for a till that names someone else as the cashier (issue 53: a till naming its
    // pusher, or no one, reads no user; the pusher's session was checked as a member already).
    others.length
      ? tx.db
          .selectFrom('users')
          .select(['id', 'first_name', 'last_name'])
          .where('id', 'in', [pusher, ...others])
          .where('org_id', '=', orgId)
          .execute()
      : [],
    orgProductsById(tx, orgId, productIds),
    orgPacksById(tx.db, orgId, packIds),
    priceHistory(tx.db, orgId, productIds, Math.min(...ats), Math.max(...ats)),
    // Only a push with a scale label reads them (a price label's amount is in the till's total).
    readScaleLabels(
      tx,
      orgId,
      valid.map((v) => ({ input: { lines: v.p.lines } })),
    ),
  ]);
  const member = new Map(members.map((u) => [u.id, `${u.first_name} ${u.last_name}`.trim()]));

  const requests: SaleRequest[] = [];
  const sent: Array<{ i: number; m: Mutation; priceConflicts: SaleConflict[] }> = [];
  for (const { i, m, p, at, tillAt, clock: clockConflict } of valid) {
    const { cashier_id: named, source, shift_id: _shift, ...sold } = p;
    if (named && named !== pusher && !member.has(named)) {
      results[i] = rejected(m, new ValidationError('payload.cashier_id', 'is not a member of this organisation'));
      continue;
    }
    const tender = tillTender(p, products, labels);
    if ('breach' in tender) {
      results[i] = rejected(m, new ValidationError(`payload.${tender.breach.field}`, tender.breach.message));
      continue;
    }
    // A pack line's price is one pack's (issue 51), judged by the same rule against the pack's prices.
    const priced = reconcilePrices(
      p.lines.filter((l) => !l.pack_id),
      at,
      products,
      prices,
    );
    const packLines = p.lines.flatMap((l) => (l.pack_id ? [{ ...l, pack_id: l.pack_id }] : []));
    const packed = reconcilePackPrices(packLines, at, products, packs, prices);
    priced.conflicts.push(...packed.conflicts);
    const cashier = cashierConflict(tx.actor.userId, named, member);
    if (cashier) priced.conflicts.push(cashier);
    if (clockConflict) priced.conflicts.push(clockConflict);
    // The lots the till took, per product (a product on two lines is one line on the server).
    const lineBatches = new Map<string, LineBatchInput[]>();
    for (const l of p.lines) if (l.batches?.length) lineBatches.set(l.product_id, [...(lineBatches.get(l.product_id) ?? []), ...l.batches]);
    requests.push({
      input: {
        ...sold,
        lines: p.lines.map((l) => ({
          product_id: l.product_id,
          qty: l.qty,
          ...(l.scale_barcode ? { scale_barcode: l.scale_barcode } : {}),
          ...(l.pack_id ? { pack_id: l.pack_id } : {}),
        })),
      },
      opts: {
        // A till older than the field does not say: it could only sell offline then.
        source: source ?? 'offline',
        occurredAt: at,
        clientCreatedAt: tillAt,
        changeGiven: tender.change,
        tillParts: tender.parts,
        clientReceiptNumber: p.client_receipt_number,
        deviceId: device.id,
        unitPrices: priced.unitPrices,
        packPrices: packed.packPrices.size ? packed.packPrices : undefined,
        cashierId: tx.actor.userId,
        lineBatches,
        shiftId: p.shift_id,
        ...extra,
      },
    });
    sent.push({ i, m, priceConflicts: priced.conflicts });
  }

  const outcomes = await recordSales(tx, requests, products);
  for (const [k, outcome] of outcomes.entries()) {
    const { i, m, priceConflicts } = sent[k]!;
    if (!outcome.ok) {
      results[i] = rejected(m, outcome.error);
      continue;
    }
    const { row, replayed } = outcome.sale;
    const conflicts = replayed ? [] : [...priceConflicts, ...outcome.sale.conflicts];
    if (conflicts.length) {
      await recordConflicts(
        tx,
        { orgId, storeId, deviceId: device.id, mutationId: m.id, transactionId: row.id, receipt: row.receipt_number },
        conflicts,
      );
    }
    results[i] = {
      id: m.id,
      seq: m.seq,
      status: 'applied',
      result: {
        transaction_id: row.id,
        number: row.number,
        receipt_number: row.receipt_number,
        status: row.status,
        total: fromCents(row.total),
      },
      ...(conflicts.length
        ? { conflicts: conflicts.map((c) => ({ kind: c.kind, message: c.message, ...(c.product_id ? { product_id: c.product_id } : {}) })) }
        : {}),
    };
  }
  // Written with the device's last seq at the end of the push (push.ts), one statement for both;
  // only once every write above has succeeded, so a set refused as a whole leaves it as it was.
  device.last_sale_at = clock.lastSaleAt;
  return results.map((r) => r!);
}

/**
 * A pushed cash sale's tender, judged against its total at the till's own prices (its lines' quantities counted in their products' units): the change the
 * cashier handed over was counted from those, whatever the server books (a `price_mismatch` is
 * booked at the catalogue's price). A product the shop lacks leaves it to the sale's rules to refuse.
 * Priced by the sale pipeline's `priceLines` stage, each line as sent at its own price, so a pricing
 * rule changed there judges the tender too (VAT is inside the prices: it leaves the total as it is).
 */
function tillTender(
  p: SalePayload,
  products: Map<string, ProductRow>,
  labels: ScaleLabels,
): { change?: number; parts?: TenderPart[] } | { breach: TenderBreach | PaymentsBreach } {
  // A line the sale's rules refuse (a product the shop lacks, a quantity its unit cannot take) is theirs to name.
  const unitOf = (productId: string) => products.get(productId)?.unit;
  if (p.cash_tendered === undefined && !p.payments) return {};
  if (p.lines.some((l) => !unitOf(l.product_id) || quantityFault(l.qty, l.pack_id ? 'piece' : unitOf(l.product_id)!))) return {};
  const total = tillTotal(p, products, labels);
  if (p.payments) {
    const split = splitTender(
      total,
      p.payments.map((part) => ({ ...part, amount: toCents(part.amount) })),
    );
    return 'field' in split ? { breach: split } : { change: split.change ?? undefined, parts: split.parts };
  }
  const tendered = toCents(p.cash_tendered!);
  const breach = checkTender({ payment_method: p.payment_method!, total, cash_tendered: tendered });
  return breach ? { breach } : { change: changeFor(total, tendered) };
}

/**
 * The sale's total at the till's own prices, each line's quantity counted in its product's unit; a
 * price label's line at the label's printed amount, as the till charged it.
 */
function tillTotal(p: SalePayload, products: Map<string, ProductRow>, labels: ScaleLabels): number {
  const unitOf = (productId: string) => products.get(productId)!.unit;
  const { total } = priceLines(
    { set: { products, store: { vat_enabled: 0 } }, request: { opts: {} } },
    {
      // A pack line is its packs at the till's price of one: its units leave the total as it is.
      lines: p.lines.map((l) => ({
        product_id: l.product_id,
        qty: l.pack_id ? l.qty : toCount(l.qty, unitOf(l.product_id)!),
        unit_price: toCents(l.unit_price),
        ...(l.pack_id ? { pack: { row: { id: l.pack_id, units: 1, selling_price: null }, packs: l.qty } } : {}),
        ...labelPart(l, labels),
      })),
      discountBp: toBasisPoints(p.discount_pct ?? 0),
      priceMode: p.price_mode ?? 'retail',
    },
  );
  return total;
}

/** A price label's line: its whole quantity charged the printed amount (cents); nothing for any other line (or a label the sale's rules will refuse). */
function labelPart(l: SalePayload['lines'][number], labels: ScaleLabels): { label?: { qty: number; amount: number } } {
  const label = l.scale_barcode ? decodeScaleBarcode(l.scale_barcode, labels.config) : null;
  const product = label && labels.byCode.get(label.item_code);
  if (!label || !product || product.id !== l.product_id) return {};
  const sold = scaleLine(label, { unit: product.unit, unitPrice: Number(product.selling_price) });
  if (!('amount' in sold) || sold.amount === undefined || quantityFault(l.qty, product.unit)) return {};
  return { label: { qty: toCount(l.qty, product.unit), amount: sold.amount } };
}
