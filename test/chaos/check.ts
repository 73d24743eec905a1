/** The chaos run's end check of a shop: what a shop owner would check, as a list of what does not hold. */
import { fromCount, type PaymentMethod, refundTender, toCents, toCount } from '@duka/shared';
import { createDb } from '../../server/src/db/create-db.js';
import type { TillReport, WorkerSale } from './protocol.js';

export interface Evidence {
  reports: TillReport[];
  transactions: any[];
  products: any[];
  conflicts: any[];
  /** Counts: pieces, or thousandths of a measured unit. */
  startStock: Map<string, number>;
  initialPrice: Map<string, number>;
  /** Each pack's price: a line sold by the pack is charged it. */
  packPrices?: Map<string, number>;
  priceChanges: Array<{ product_id: string; price: number; before: number; after: number }>;
  adjustments: Map<string, number>;
  /** false in a pharmacy, where refunded units go into quarantine rather than back to stock. */
  refundsToStock?: boolean;
  /** Each store's counter of receipt numbers (`stores.last_number`), read from the database. */
  lastNumbers: Map<string, number>;
  /** The one shift every sale, reversal and credit payment of the shop fell in: its report (TZS) and float. */
  shift?: { report: any; openingFloat: number };
}

/** Every invariant of the issue, as a list of what does not hold. */
export function check(e: Evidence): string[] {
  const failures: string[] = [];
  const fail = (msg: string) => failures.length < 50 && failures.push(msg);
  const sales = e.reports.flatMap((r) => r.sales);
  const server = new Map<string, any>();
  for (const t of e.transactions) {
    if (server.has(t.id)) fail(`transaction ${t.id} listed twice`);
    server.set(t.id, t);
  }

  // Every sale a till recorded is on the server exactly once, with the money the till took.
  const receiptNumbers = new Set<string>();
  for (const s of sales) {
    const t = server.get(s.id);
    if (!t) {
      fail(`sale ${s.client_receipt_number} (${s.id}) never reached the server`);
      continue;
    }
    if (t.client_receipt_number !== s.client_receipt_number)
      fail(`sale ${s.id}: server has receipt ${t.client_receipt_number}, till printed ${s.client_receipt_number}`);
    if (t.total !== s.total) fail(`sale ${s.client_receipt_number}: till took ${s.total}, server booked ${t.total}`);
    const expected = s.reversed ?? (s.payment_method === 'Credit' || s.parts?.Credit ? 'credit' : 'paid');
    if (t.status !== expected) fail(`sale ${s.client_receipt_number}: server status ${t.status}, expected ${expected}`);
    receiptNumbers.add(s.client_receipt_number);
  }
  if (receiptNumbers.size !== sales.length)
    fail(`tills printed ${sales.length} sales but only ${receiptNumbers.size} distinct receipt numbers`);
  const tillIds = new Set(sales.map((s) => s.id));
  for (const t of e.transactions) {
    // A pushed sale carries its till receipt number, whether the till rang it up online or offline (`source`).
    if (!tillIds.has(t.id) || t.client_receipt_number === null) fail(`server transaction ${t.receipt_number} has no till origin`);
  }
  const clientNumbers = e.transactions.map((t) => t.client_receipt_number);
  if (new Set(clientNumbers).size !== clientNumbers.length) fail('two server transactions carry the same till receipt number');
  for (const f of gapless(e.transactions, e.lastNumbers)) fail(f);
  for (const s of sales) {
    const t = server.get(s.id);
    if (t && s.receipt_number !== t.receipt_number)
      fail(`sale ${s.client_receipt_number}: the till shows store receipt ${s.receipt_number}, the server ${t.receipt_number}`);
  }

  // Stock in counts (a piece, a gram of a kilo): start − sold + voided (and refunded, whole or in part, outside a
  // pharmacy) + the owner's adjustments (deliveries, in pieces), on the server and on every till.
  const expectedStock = new Map(e.startStock);
  for (const s of sales) {
    for (const l of s.lines) {
      const counts = l.counts ?? l.qty;
      const back = s.reversed === 'void' || (s.reversed === 'refunded' && e.refundsToStock !== false) ? counts : 0;
      expectedStock.set(l.product_id, expectedStock.get(l.product_id)! - counts + back);
    }
    for (const l of (s.refunds ?? []).flatMap((r) => r.lines)) expectedStock.set(l.product_id, expectedStock.get(l.product_id)! + l.counts);
  }
  for (const [id, qty] of e.adjustments) expectedStock.set(id, expectedStock.get(id)! + qty);
  const serverProducts = new Map(e.products.map((p) => [p.id, p]));
  for (const [id, counts] of expectedStock) {
    const p = serverProducts.get(id);
    if (toCount(p.stock, p.unit ?? 'piece') !== counts)
      fail(`${p.name}: server stock ${p.stock} ${p.unit}, expected ${fromCount(counts, p.unit ?? 'piece')}`);
    for (const r of e.reports) {
      const local = r.replica[id];
      if (local?.stock !== p.stock) fail(`${p.name}: till ${r.deviceId} shows stock ${local?.stock}, server ${p.stock}`);
      if (local?.selling_price !== p.selling_price)
        fail(`${p.name}: till ${r.deviceId} shows price ${local?.selling_price}, server ${p.selling_price}`);
    }
  }

  // Every line charged at a price other than the one in force is on the conflict list, and only those.
  const priceConflicts = new Set(
    e.conflicts.filter((c) => c.kind === 'stale_price' || c.kind === 'price_mismatch').map((c) => `${c.transaction_id}/${c.product_id}`),
  );
  let differences = 0;
  let ambiguous = 0;
  for (const s of sales) {
    const at = Date.parse(s.created_at);
    for (const l of s.lines) {
      if (l.pack_id) {
        // A pack keeps its own price (the owner changes the loose ones only): never a conflict.
        if (l.unit_price !== e.packPrices?.get(l.pack_id))
          fail(`sale ${s.client_receipt_number}: a pack charged ${l.unit_price}, priced ${e.packPrices?.get(l.pack_id)}`);
        if (priceConflicts.has(`${s.id}/${l.product_id}`)) fail(`sale ${s.client_receipt_number}: a price conflict for a pack line`);
        continue;
      }
      const changes = e.priceChanges.filter((c) => c.product_id === l.product_id);
      if (changes.some((c) => c.before <= at && at <= c.after)) {
        ambiguous++;
        continue;
      }
      const inForce = changes.filter((c) => c.after < at).at(-1)?.price ?? e.initialPrice.get(l.product_id)!;
      const key = `${s.id}/${l.product_id}`;
      if (l.unit_price !== inForce) {
        differences++;
        if (!priceConflicts.has(key))
          fail(`sale ${s.client_receipt_number}: charged ${l.unit_price} for a product priced ${inForce}, and no conflict says so`);
      } else if (priceConflicts.has(key)) {
        fail(`sale ${s.client_receipt_number}: a price conflict for a line charged at the price in force`);
      }
    }
  }
  if (priceConflicts.size < differences) fail(`${differences} price differences but ${priceConflicts.size} price conflicts`);
  void ambiguous;

  for (const f of money(sales, server, e.reports, e.shift)) fail(f);

  // Nothing left behind on any till.
  for (const r of e.reports) {
    if (r.pending !== 0) fail(`till ${r.deviceId} still has ${r.pending} mutations queued`);
    if (r.rejected.length) fail(`till ${r.deviceId} had mutations refused: ${JSON.stringify(r.rejected.slice(0, 3))}`);
    if (r.syncedOnReplica !== r.sales.length)
      fail(`till ${r.deviceId}: ${r.sales.length - r.syncedOnReplica} of its sales show no store number`);
  }
  return failures;
}

/**
 * The money: each sale's parts are the till's, by method, and add up to its total; what refunds
 * gave back (`refunded_total`) is the sale's total once refunded whole, else the sum of the refunds
 * of its parts (the shared `refundShare` on the till's receipt), and each line of a sale still sold
 * shows as refunded (`refunded_qty`) exactly the counts its refunds gave back. And the shift the shop's money fell
 * in: each counted method's expected figure is the float (cash), plus the parts paid by it and the
 * credit payments taken by it, less what reversals and refunds of part gave back by it (each part
 * back by its method, a refund of part by the shared `refundTender`).
 */
function money(sales: WorkerSale[], server: Map<string, any>, reports: TillReport[], shift: Evidence['shift']): string[] {
  const failures: string[] = [];
  const flow = new Map<string, number>();
  const move = (method: string, cents: number) => flow.set(method, (flow.get(method) ?? 0) + cents);
  for (const s of sales) {
    const t = server.get(s.id);
    if (!t || !s.parts) continue;
    const paid = Object.fromEntries(t.payments.map((p: { method: string; amount: number }) => [p.method, toCents(p.amount)]));
    const parts = Object.fromEntries(Object.entries(s.parts).map(([m, a]) => [m, toCents(a)]));
    if (JSON.stringify(Object.entries(paid).sort()) !== JSON.stringify(Object.entries(parts).sort()))
      failures.push(
        `sale ${s.client_receipt_number}: the server holds parts ${JSON.stringify(t.payments)}, the till took ${JSON.stringify(s.parts)}`,
      );
    if (Object.values(paid).reduce((n, a) => n + a, 0) !== toCents(t.total))
      failures.push(`sale ${s.client_receipt_number}: its parts do not add up to its total ${t.total}`);
    const refunded = s.reversed === 'refunded' ? toCents(s.total) : (s.refunds ?? []).reduce((n, r) => n + toCents(r.amount), 0);
    if (s.reversed !== 'void' && toCents(t.refunded_total ?? 0) !== refunded)
      failures.push(`sale ${s.client_receipt_number}: refunded_total ${t.refunded_total}, its refunds make ${refunded / 100}`);
    if (s.refunds?.length && !t.lines) failures.push(`sale ${s.client_receipt_number}: refunded in part, but the server lists no lines`);
    if (!s.reversed)
      for (const l of t.lines ?? []) {
        const back = (s.refunds ?? [])
          .flatMap((r) => r.lines)
          .filter((x) => x.product_id === l.product_id && x.pack_id === (l.pack?.id ?? undefined))
          .reduce((n, x) => n + x.counts, 0);
        if (toCount(l.refunded_qty ?? 0, l.unit ?? 'piece') !== back)
          failures.push(
            `sale ${s.client_receipt_number}: ${l.product_name} shows ${l.refunded_qty} refunded, its refunds gave back ${back} counts`,
          );
      }
    for (const [m, a] of Object.entries(parts)) move(m, a);
    if (s.reversed) for (const [m, a] of Object.entries(parts)) move(m, -a);
    const back = new Map<string, number>();
    for (const r of s.refunds ?? []) {
      const given = refundTender(
        toCents(r.amount),
        Object.entries(parts).map(([m, a]) => ({ method: m as PaymentMethod, amount: a, back: back.get(m) ?? 0 })),
        0,
      );
      for (const p of given.parts) {
        back.set(p.method, (back.get(p.method) ?? 0) + p.amount);
        move(p.method, -p.amount);
      }
    }
  }
  if (!shift) return failures;
  for (const p of reports.flatMap((r) => r.payments)) if (p.method) move(p.method, toCents(p.amount));
  for (const m of shift.report.methods as Array<{ method: string; expected: number | null }>) {
    if (m.expected === null) continue;
    const expected = (m.method === 'Cash' ? toCents(shift.openingFloat) : 0) + (flow.get(m.method) ?? 0);
    if (toCents(m.expected) !== expected)
      failures.push(`shift: ${m.method} expected TZS ${m.expected}, the sales, refunds and payments by it make ${expected / 100}`);
  }
  for (const [method, cents] of flow)
    if (cents !== 0 && method !== 'Credit' && !shift.report.methods.some((m: { method: string }) => m.method === method))
      failures.push(`shift: no ${method} line for TZS ${cents / 100} moved by it`);
  return failures;
}

/**
 * Store receipt numbers are gapless whichever server took them: per store, the sales carry exactly
 * 1..n, each receipt number once and spelt from its number, and the store's counter stands at n (a
 * number taken by a push that then rolled back would show as a gap or a counter ahead).
 */
function gapless(transactions: any[], lastNumbers: Map<string, number>): string[] {
  const failures: string[] = [];
  const byStore = new Map<string, any[]>();
  for (const t of transactions) byStore.set(t.store_id, [...(byStore.get(t.store_id) ?? []), t]);
  for (const [store, list] of byStore) {
    const numbers = list.map((t) => t.number).sort((a, b) => a - b);
    const wrong = numbers.findIndex((n, i) => n !== i + 1);
    if (wrong >= 0)
      failures.push(
        `store ${store}: receipt numbers not 1..${numbers.length}: at position ${wrong + 1} comes ${numbers[wrong]} (neighbours ${numbers.slice(Math.max(0, wrong - 2), wrong + 3).join(', ')})`,
      );
    const spelt = list.filter((t) => !String(t.receipt_number).endsWith(`-${String(t.number).padStart(6, '0')}`));
    if (spelt.length)
      failures.push(
        `store ${store}: ${spelt.length} receipt numbers do not spell their number, e.g. ${spelt[0].receipt_number} for ${spelt[0].number}`,
      );
    if (new Set(list.map((t) => t.receipt_number)).size !== list.length) failures.push(`store ${store}: two sales share a receipt number`);
    if (lastNumbers.get(store) !== list.length)
      failures.push(`store ${store}: its counter stands at ${lastNumbers.get(store)} for ${list.length} sales`);
  }
  return failures;
}

/** Each store's receipt counter, straight from the server's database. */
export async function readLastNumbers(dbOpts: { url?: string; sqliteFile?: string }): Promise<Map<string, number>> {
  const handle = createDb({ ...dbOpts, poolSize: 1 });
  try {
    const rows = await handle.db.selectFrom('stores').select(['id', 'last_number']).execute();
    return new Map(rows.map((r) => [r.id, Number(r.last_number)]));
  } finally {
    await handle.close();
  }
}
