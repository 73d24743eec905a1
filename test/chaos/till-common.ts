/** What a simulated till process does the same in the chaos run and the soak: retrying like a cashier, and its end-of-run report. */
import type { Till } from '@duka/client-sdk';
import type { TillReport, WorkerPayment, WorkerSale } from './protocol.js';

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Keep trying `fn` through refused and cut connections: a cashier would press the button again. */
export async function persist<T>(what: string, fn: () => Promise<T>, untilMs = 120_000): Promise<T> {
  const until = Date.now() + untilMs;
  for (;;) {
    try {
      return await fn();
    } catch (err) {
      if (Date.now() > until) throw new Error(`${what}: still failing after ${untilMs} ms: ${String(err)}`);
      await sleep(150);
    }
  }
}

/**
 * What the till recorded and what its replica shows after a last pull, for the end check
 * (check.ts): each sale's store receipt number, the replica's stock and price of `productIds`,
 * its customers' balances, what is still queued and what the server refused. Syncing stops.
 */
export async function tillReport(
  till: Till,
  o: { productIds: string[]; sales: WorkerSale[]; payments: WorkerPayment[]; counts: TillReport['counts'] },
): Promise<TillReport> {
  await persist('final pull', () => till.syncNow(), 60_000);
  till.stopSync();
  const replica: TillReport['replica'] = {};
  for (const id of o.productIds) {
    const p = await till.product(id);
    replica[id] = { stock: await till.stock(id), selling_price: p?.selling_price ?? null };
  }
  const status = till.status();
  let numbered = 0;
  for (const sale of o.sales) {
    const local = await till.transaction(sale.id);
    if (local?.sync_state === 'synced' && local.number !== null) numbered++;
    sale.receipt_number = local?.receipt_number ?? null;
  }
  const customers: TillReport['customers'] = {};
  for (const c of await till.customers({ limit: 100 })) customers[c.id] = c.outstanding_balance;
  return {
    deviceId: till.deviceId,
    sales: o.sales,
    payments: o.payments,
    customers,
    counts: o.counts,
    replica,
    pending: status.pending,
    rejected: (await till.rejected()).map((m) => ({ type: m.type, error: `${m.error?.code}: ${m.error?.message}` })),
    syncedOnReplica: numbered,
  };
}
