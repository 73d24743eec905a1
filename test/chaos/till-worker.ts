/**
 * One till in its own process, driven by the chaos run over IPC. It signs in, loads the shop,
 * then sells on its own seeded script (mixed payment methods, credit, refunds and voids of its
 * own sales) whatever the network does, syncing in the background like a real till. At the end
 * it drains its queue and reports what it recorded and what its replica shows.
 */
import type { LineBatchInput, Prescription } from '@duka/shared';
import { HttpConnector, type SaleLine, Till, TillError } from '@duka/client-sdk';
import { Owner } from './actors.js';
import { Rng } from './rng.js';
import { planSplit, recordLine, refundable, refundPart, shopLine, splitTender } from './till-shop.js';
import { persist, sleep, tillReport } from './till-common.js';
import type { ToTill, FromTill, WorkerPayment, WorkerSale } from './protocol.js';

const send = (m: FromTill) => process.send!(m);

let till: Till;
/** The back office's REST session, through the till's own route: refunds of part of a sale. */
let office: Owner;
let start: Extract<ToTill, { type: 'start' }>;
const sales: WorkerSale[] = [];
const payments: WorkerPayment[] = [];
const counts = {
  sales: 0,
  lotRefusals: 0,
  refunds: 0,
  partRefunds: 0,
  voids: 0,
  payments: 0,
  paymentsRefused: 0,
  relogins: 0,
  syncErrors: 0,
  conflictEvents: 0,
  rejectedEvents: 0,
};
let stopped = false;
/** The organisation's calendar day (Africa/Dar_es_Salaam, UTC+3 all year). */
const today = () => new Date(Date.now() + 3 * 3_600_000).toISOString().slice(0, 10);

/** Fetch on a new connection every time, so the proxy's load balancer picks a server for each request. */
const closing = (input: string, init?: RequestInit) => {
  const headers = new Headers(init?.headers);
  headers.set('connection', 'close');
  return fetch(input, { ...init, headers });
};

async function open(m: Extract<ToTill, { type: 'start' }>) {
  start = m;
  till = await Till.open({
    connector: new HttpConnector({ baseUrl: m.baseUrl, timeoutMs: 6_000, ...(m.connectionPerRequest ? { fetch: closing } : {}) }),
    dbPath: m.dbPath,
    deviceName: m.deviceName,
    autoSync: true,
    syncIntervalMs: 700,
    backoff: { baseMs: 100, maxMs: 1_500 },
  });
  till.on('auth-required', () => {
    // A lost reply to a token refresh leaves the till with a spent refresh token: the cashier signs in again.
    counts.relogins++;
    void persist('login again', () => till.login(m.identifier, m.password));
  });
  till.on('conflict', () => counts.conflictEvents++);
  till.on('rejected', () => counts.rejectedEvents++);
  await persist('login', () => till.login(m.identifier, m.password));
  await persist('first sync', () => till.syncNow());
  office = new Owner([m.baseUrl]);
  office.identifier = m.identifier;
  send({ type: 'ready' });
}

async function sellAll() {
  const rng = new Rng(start.seed);
  const paceMs = start.durationMs / start.sales;
  const customers = (await till.customers({ limit: 100 })).map((c) => c.id);
  const payers = customers.slice(0, Math.ceil(customers.length / 2));
  // Issue 51: the shop's tills sell by the kilo and by the carton, take split tender and refund part of a sale; a pharmacy's do not.
  const shop = !start.pharmacy;
  const catalogue = new Map(await Promise.all(start.productIds.map(async (id) => [id, await till.product(id)] as const)));
  while (counts.sales < start.sales && !stopped) {
    await sleep(rng.int(Math.floor(paceMs / 2), Math.ceil(paceMs * 1.5)));
    const move = rng.weighted(
      shop ? { sale: 85, refund: 4, part: 4, void: 3, payment: 4 } : { sale: 88, refund: 5, part: 0, void: 3, payment: 4 },
    );
    if (move === 'payment') {
      const owing = payers.filter((c) => sales.some((x) => x.customer_id === c && x.reversed === null && !x.locked));
      if (owing.length) await pay(rng, rng.pick(owing));
      continue;
    }
    if (move === 'part') {
      const candidates = refundable(sales);
      if (candidates.length && (await refundPart(rng, till, office, rng.pick(candidates)))) counts.partRefunds++;
      continue;
    }
    // A credit sale of a customer who pays may have taken a payment through another till: it can only be refunded (checkReversal).
    // A sale the back office refunded part of is left alone: its goods are partly back already.
    const open = sales.filter(
      (s) =>
        s.reversed === null && !s.locked && !s.refunds?.length && (move === 'refund' || !s.customer_id || !payers.includes(s.customer_id)),
    );
    if (move !== 'sale' && open.length > 0) {
      const target = rng.pick(open);
      const receipt =
        move === 'refund' ? await till.refund(target.id, 'customer returned it') : await till.void(target.id, 'rung up by mistake');
      target.reversed = receipt.status as 'refunded' | 'void';
      counts[move === 'refund' ? 'refunds' : 'voids']++;
      continue;
    }
    const products = [...start.productIds];
    const lines: SaleLine[] = [];
    for (let n = rng.int(1, 4); n > 0 && products.length; n--) {
      const product_id = products.splice(rng.int(0, products.length - 1), 1)[0]!;
      lines.push(shop ? shopLine(rng, catalogue.get(product_id) ?? null, product_id) : { product_id, qty: rng.int(1, 3) });
    }
    const method = rng.weighted(
      shop
        ? { Cash: 40, 'M-Pesa': 20, 'Tigo Pesa': 7, Bank: 6, Credit: 14, Split: 13 }
        : { Cash: 45, 'M-Pesa': 25, 'Tigo Pesa': 8, Bank: 7, Credit: 15, Split: 0 },
    );
    const split = method === 'Split' ? planSplit(rng, rng.chance(0.35) && customers.length ? rng.pick(customers) : undefined) : null;
    const customer = method === 'Credit' ? rng.pick(customers) : split?.customer;
    const prescription = start.pharmacy ? prescriptionFor(rng, lines) : undefined;
    const sell = async () =>
      till.sell({
        lines,
        ...(split
          ? { payments: await splitTender(till, split, lines, counts.sales) }
          : { payment_method: method as Exclude<typeof method, 'Split'> }),
        ...(customer ? { customer_id: customer } : {}),
        ...(method === 'M-Pesa' ? { payment_reference: `MP${counts.sales}` } : {}),
        ...(prescription ? { prescription } : {}),
      });
    let receipt;
    try {
      receipt = await sell().catch((err) => {
        // A pull changed a price between the count and the charge: the cashier counts the parts again.
        if (split && err instanceof TillError && err.field === 'payments') return sell();
        throw err;
      });
    } catch (err) {
      // A pharmacy till refuses what none of the lots it knows holds, as a cashier would be told.
      if (start.pharmacy && err instanceof TillError && err.code === 'INSUFFICIENT_STOCK') {
        // A till that runs out of every lot would try for ever: that is a bug in the run's stock.
        if (++counts.lotRefusals > start.sales) throw new Error(`${counts.lotRefusals} sales refused for want of a lot`);
        continue;
      }
      throw err;
    }
    // The lots the till took (its own FEFO), as its receipt prints them and its push sends them.
    const lots = new Map<string, LineBatchInput[]>(
      receipt.lines
        .filter((l) => l.batches.length)
        .map((l) => [l.product_id, l.batches.map((b) => ({ batch_id: b.batch_id, qty: b.qty }))]),
    );
    sales.push({
      id: receipt.id,
      client_receipt_number: receipt.client_receipt_number!,
      created_at: receipt.created_at,
      payment_method: receipt.payment_method,
      ...(customer ? { customer_id: customer } : {}),
      total: receipt.total,
      lines: receipt.lines.map(recordLine).map((l) => (lots.has(l.product_id) ? { ...l, batches: lots.get(l.product_id) } : l)),
      parts: Object.fromEntries((receipt.payments ?? []).map((p) => [p.method, p.amount])),
      ...(prescription ? { patient: prescription.patient_name } : {}),
      reversed: null,
    });
    counts.sales++;
    if (counts.sales % 50 === 0) send({ type: 'progress', sales: counts.sales });
  }
  send({ type: 'sold', sales: counts.sales });
}

/**
 * A customer pays part of what they owe for this till's credit sales. Other tills take payments
 * from the same customer, and the server spreads each over the customer's oldest tabs whoever
 * sold them, so a till pays only against its own credit sales and never reverses those it paid
 * against (they are locked): then no push can pay more than the customer owes on the server.
 */
async function pay(rng: Rng, customerId: string) {
  for (const s of sales) if (s.customer_id === customerId && s.reversed === null) s.locked = true;
  // What this till put on the customer's credit: a credit sale's total, a split sale's credit part.
  const covered = sales
    .filter((s) => s.customer_id === customerId && s.locked)
    .reduce((n, s) => n + (s.payment_method === 'Credit' ? s.total : (s.parts?.Credit ?? 0)), 0);
  const paid = payments.filter((p) => p.customer_id === customerId).reduce((n, p) => n + p.amount, 0);
  const amount = Math.floor((covered - paid) * rng.pick([0.3, 0.6, 1]));
  if (amount < 1) return;
  try {
    const reference = `${start.deviceName} P${payments.length + counts.paymentsRefused + 1}`;
    const method = rng.pick(['Cash', 'M-Pesa'] as const);
    await till.recordCreditPayment({ customer_id: customerId, amount, method, reference });
    payments.push({ reference, customer_id: customerId, amount, method });
    counts.payments++;
  } catch (err) {
    // The replica, as last synced, says the customer owes less than this till's own credit sales cover.
    if (err instanceof TillError && err.code === 'OVERPAYMENT') {
      counts.paymentsRefused++;
      return;
    }
    throw err;
  }
}

/** A sale with a prescription-only or controlled medicine carries a prescription. */
function prescriptionFor(rng: Rng, lines: Array<{ product_id: string }>): Prescription | undefined {
  const needed = lines.some((l) => ['pom', 'controlled'].includes(start.pharmacy!.schedules[l.product_id] ?? ''));
  if (!needed) return undefined;
  return {
    patient_name: `Mgonjwa ${counts.sales + 1}`,
    patient_age: rng.int(1, 90),
    patient_sex: rng.pick(['female', 'male'] as const),
    prescriber_name: 'Dkt. Neema Mollel',
    prescriber_registration_number: 'MCT-4411',
    facility: 'Zahanati ya Mwenge',
    date_written: today(),
  };
}

/** Sync until the queue is empty and a sync finished cleanly. */
async function drain() {
  await persist(
    'drain',
    async () => {
      try {
        await till.syncNow();
      } catch (err) {
        counts.syncErrors++;
        throw err;
      }
      const s = till.status();
      if (s.pending > 0 || s.authRequired) throw new Error(`still ${s.pending} pending`);
    },
    start.drainTimeoutMs,
  );
  send({ type: 'drained' });
}

async function report() {
  send({ type: 'report', report: await tillReport(till, { productIds: start.productIds, sales, payments, counts }) });
  await till.close();
}

process.on('message', (m: ToTill) => {
  const run = async () => {
    if (m.type === 'start') await open(m);
    else if (m.type === 'go') await sellAll();
    else if (m.type === 'drain') await drain();
    else if (m.type === 'report') await report();
    else if (m.type === 'exit') process.exit(0);
  };
  run().catch((err) => {
    send({ type: 'failed', error: err instanceof Error ? `${err.message}\n${err.stack}` : String(err) });
  });
});
process.on('disconnect', () => {
  stopped = true;
  process.exit(0);
});
