/**
 * Selling on the till: priced by the shared pricing function from the replica's products, written
 * with its queued `sale.create` and the local stock it takes in one local transaction, numbered
 * `{store code}-{till code}-{till seq}`. It works the same with the network down; the server gives
 * the sale its store number when the queue is pushed.
 */
import {
  changeFor,
  checkSale,
  checkTender,
  mergeSaleLines,
  newId,
  PaymentMethod,
  Prescription,
  priceSale,
  pricedProduct,
  SaleCreatePayload,
  fromCents,
  toBasisPoints,
  toCents,
  toReceiptLine,
} from '@duka/shared';
import { TillError } from '../errors.js';
import type { Undo } from '../local/effects.js';
import { moveBatches, moveOutstanding, moveStocks } from '../local/effects.js';
import { compiledOnce } from '../local/compiled.js';
import { nextCounters } from '../local/meta.js';
import { enqueue } from '../queue.js';
import * as reads from '../reads.js';
import type { Receipt, SellInput } from '../types.js';
import { type ActionCtx, invalid, may, shopOf } from './context.js';
import { checkDispensing } from './dispense.js';
import { shiftMovement } from './shifts.js';

const insertSale = compiledOnce(['id', 'created_at', 'client_receipt_number', 'status', 'data'], (db, v) =>
  db.insertInto('transactions').values({ ...v, number: null, receipt_number: null, sync_state: 'pending' }),
);

/** `id`: the sale's id, new unless the sale takes over one already given (a mobile-money push paid in cash instead). */
export async function sell(ctx: ActionCtx, input: SellInput, id: string = newId()): Promise<Receipt> {
  if (!Array.isArray(input.lines) || input.lines.length === 0)
    throw new TillError('VALIDATION_ERROR', 'lines must have at least one line', 'lines');
  input.lines.forEach((l, i) => {
    if (!Number.isInteger(l.qty) || l.qty < 1)
      throw new TillError('VALIDATION_ERROR', `lines.${i}.qty must be a whole number of at least 1`, `lines.${i}.qty`);
  });
  if (!PaymentMethod.safeParse(input.payment_method).success)
    throw new TillError('VALIDATION_ERROR', 'payment_method is not a payment method', 'payment_method');
  if (input.prescription !== undefined) {
    // Its fields first, as the server validates the body before any rule.
    const rx = Prescription.safeParse(input.prescription);
    if (!rx.success) throw invalid({ ...rx.error.issues[0]!, path: ['prescription', ...rx.error.issues[0]!.path] });
  }

  const receipt = await ctx.db.transaction().execute(async (trx) => {
    const { org, store, tillCode, user } = await shopOf(trx);
    const lines = mergeSaleLines(input.lines);
    const products = await reads.productsByIds(
      trx,
      lines.map((l) => l.product_id),
    );
    const mode = input.price_mode ?? 'retail';
    const discountBp = toBasisPoints(input.discount_pct ?? 0);
    const customer = input.customer_id ? await reads.customerById(trx, input.customer_id) : null;
    // Refused here as the server refuses it online, except past the credit limit: what a customer owes
    // is the server's to know, and it books such an offline sale with a conflict.
    const [breach] = checkSale({
      lines: lines.map((l) => {
        const p = products.get(l.product_id);
        return { index: l.index, product_id: l.product_id, product: p && { name: p.name, active: p.is_active } };
      }),
      business_type: org.business_type,
      price_mode: mode,
      discount_bp: discountBp,
      may_discount: await may(trx, 'discount', user),
      payment_method: input.payment_method,
      customer: customer ? 'found' : input.customer_id ? 'not_found' : 'none',
    });
    if (breach) throw new TillError(breach.code, breach.message, breach.field);
    const at = ctx.now();
    // Prescription, ADDO list, and the batches each batch-tracked line takes (FEFO).
    const lots = await checkDispensing(trx, { lines, products, org, store, prescription: input.prescription, at });

    const sale = priceSale({
      lines: lines.map((l) => ({ product: pricedProduct(products.get(l.product_id)!), qty: l.qty })),
      discount_bp: discountBp,
      price_mode: mode,
      vat_enabled: store.vat_enabled,
    });
    // Refused here, never by the push: a cash sale the till queued is one the server books.
    const tendered = input.cash_tendered === undefined ? undefined : toCents(input.cash_tendered);
    const short = checkTender({ payment_method: input.payment_method, total: sale.total, cash_tendered: tendered });
    if (short) throw new TillError(short.code, `${short.field} ${short.message}`, short.field);
    const counters = await nextCounters(trx, ['receipt_seq', 'last_seq']);
    const clientReceiptNumber = `${store.code}-${tillCode}-${counters.receipt_seq}`;
    const {
      payment_reference,
      payment_phone,
      discount_pct,
      customer_id,
      customer_name,
      customer_phone,
      customer_tin,
      till_number,
      notes,
      price_mode,
      prescription,
      cash_tendered,
    } = input;
    const source = ctx.online() ? 'online' : 'offline';
    const optional = {
      cash_tendered,
      payment_reference,
      payment_phone,
      discount_pct,
      customer_id,
      customer_name,
      customer_phone,
      customer_tin,
      till_number,
      notes,
      price_mode,
      prescription,
    };
    // The sale belongs to the cashier's open shift (its money is in this till's drawer or wallet).
    const inShift = await shiftMovement(trx, { kind: 'sale', method: input.payment_method, amount: sale.total, at });
    const payload = {
      id,
      client_receipt_number: clientReceiptNumber,
      lines: sale.lines.map((l) => {
        const taken = lots.get(l.product_id);
        // The lots the till took: the server keeps them where they still hold the units.
        return {
          product_id: l.product_id,
          qty: l.qty,
          unit_price: fromCents(l.unit_price),
          ...(taken ? { batches: taken.map((b) => ({ batch_id: b.batch_id, qty: b.qty })) } : {}),
        };
      }),
      payment_method: input.payment_method,
      source,
      ...Object.fromEntries(Object.entries(optional).filter(([, v]) => v !== undefined)),
      // Booked to the cashier signed in now, whoever is signed in when the queue is pushed.
      ...(user?.id ? { cashier_id: user.id } : {}),
      ...(inShift.shift_id ? { shift_id: inShift.shift_id } : {}),
    };
    const parsed = SaleCreatePayload.safeParse(payload);
    if (!parsed.success) throw invalid(parsed.error.issues[0]);

    const createdAt = new Date(at).toISOString();
    const receipt: Receipt = {
      id,
      number: null,
      receipt_number: null,
      client_receipt_number: clientReceiptNumber,
      status: input.payment_method === 'Credit' ? 'credit' : 'paid',
      payment_method: input.payment_method,
      payment_reference: input.payment_reference ?? null,
      payment_phone: parsed.data.payment_phone ?? null,
      payment_verification: null,
      price_mode: mode,
      subtotal: fromCents(sale.subtotal),
      discount_pct: input.discount_pct ?? 0,
      discount: fromCents(sale.discount),
      tax: fromCents(sale.tax),
      total: fromCents(sale.total),
      customer_id: customer?.id ?? null,
      customer_name: customer?.name ?? input.customer_name ?? null,
      customer_phone: customer?.phone ?? input.customer_phone ?? null,
      customer_tin: input.customer_tin ?? null,
      till_number: input.till_number ?? null,
      notes: input.notes ?? null,
      cashier_id: user?.id ?? null,
      store_id: store.id,
      source,
      client_created_at: createdAt,
      received_at: null,
      cash_tendered: tendered === undefined ? null : fromCents(tendered),
      change_given: tendered === undefined ? null : fromCents(changeFor(sale.total, tendered)),
      refund_reason: null,
      refunded_at: null,
      void_reason: null,
      voided_at: null,
      created_at: createdAt,
      lines: sale.lines.map((l) => toReceiptLine(l, lots.get(l.product_id) ?? [])),
      // Numbered by the server when the sale reaches it; the till shows it once synced.
      fiscal: null,
      sync_state: 'pending',
    };
    await insertSale(trx, {
      id,
      created_at: createdAt,
      client_receipt_number: clientReceiptNumber,
      status: receipt.status,
      data: JSON.stringify(receipt),
    });

    const undo: Undo = { stock: {}, outstanding: {}, batches: {}, rejectSale: id, movements: inShift.movements };
    const taken: Record<string, number> = {};
    for (const l of sale.lines) {
      if (products.get(l.product_id)!.is_service) continue;
      taken[l.product_id] = -l.qty;
      undo.stock![l.product_id] = l.qty;
    }
    await moveStocks(trx, taken);
    const fromBatches: Record<string, number> = {};
    for (const b of [...lots.values()].flat()) {
      fromBatches[b.batch_id] = -b.qty;
      undo.batches![b.batch_id] = b.qty;
    }
    await moveBatches(trx, fromBatches);
    if (receipt.status === 'credit') {
      await moveOutstanding(trx, customer!.id, sale.total);
      undo.outstanding![customer!.id] = -sale.total;
    }
    await enqueue(trx, 'sale.create', parsed.data, at, undo, counters.last_seq);
    return receipt;
  });
  ctx.queued();
  return receipt;
}
