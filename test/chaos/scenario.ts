/**
 * The chaos run: a real server process, several tills in their own processes behind a faulty
 * network, the server killed and restarted on the same data, the owner changing prices and stock
 * while the tills are cut off. Then the network heals, every till drains its queue, and the run
 * checks what a shop owner would: every sale once, stock and money exact, every price
 * difference on the conflict list. `runChaos` returns the figures and the list of what failed.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ChaosProxy, type Faults, NO_FAULTS } from './proxy.js';
import type { FromTill, TillReport, ToTill } from './protocol.js';
import { Rng } from './rng.js';
import { ServerProcess } from './server-process.js';

export interface ChaosOptions {
  seed: number;
  tills: number;
  /** Sales per till. */
  sales: number;
  /** How long each till takes to make its sales (the outages and kills are spread over it). */
  durationMs: number;
  /** Postgres connection string; SQLite in a temp data dir when absent. */
  databaseUrl?: string;
  faults?: Faults;
  log?: (line: string) => void;
}

export interface ChaosResult {
  failures: string[];
  figures: Record<string, number | string>;
}

export const DEFAULT_FAULTS: Faults = { refuse: 0.05, cutRequest: 0.01, cutReply: 0.03, delay: 0.1, maxDelayMs: 250 };

const PASSWORD = 'chaos-2026-duka';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

/** The owner's REST client, straight to the server (never through the proxy). */
class Owner {
  token = '';
  identifier = '';
  constructor(private readonly api: string) {}
  async call(method: string, p: string, body?: unknown, retried = false): Promise<any> {
    const res = await fetch(this.api + p, {
      method,
      headers: { 'content-type': 'application/json', ...(this.token ? { authorization: `Bearer ${this.token}` } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = (await res.json()) as any;
    if (res.status === 401 && this.identifier && !retried) {
      // The access tokens of this run live 90 s: sign in again, as the owner's browser would.
      const login = await this.call('POST', '/auth/login', { identifier: this.identifier, password: PASSWORD }, true);
      this.token = login.data.access_token ?? login.data.tokens?.access_token;
      return this.call(method, p, body, true);
    }
    if (!res.ok) throw new Error(`${method} ${p} → ${res.status}: ${JSON.stringify(json.errors ?? json)}`);
    return json;
  }
  /** Every page of a list whose items sit at `data[key]` (or `data` itself). */
  async all(p: string, key?: string): Promise<any[]> {
    const out: any[] = [];
    for (let page = 1; ; page++) {
      const sep = p.includes('?') ? '&' : '?';
      const r = await this.call('GET', `${p}${sep}page=${page}&page_size=100`);
      out.push(...(key ? r.data[key] : r.data));
      if (page >= (r.meta?.total_pages ?? 1)) return out;
    }
  }
}

class TillProcess {
  readonly child: ChildProcess;
  private readonly waiters = new Map<string, Array<(m: FromTill) => void>>();
  failure: string | null = null;
  report: TillReport | null = null;
  constructor(
    readonly name: string,
    onFailure: (name: string, error: string) => void,
  ) {
    this.child = fork(path.join(import.meta.dirname, 'till-worker.ts'), [], {
      execArgv: ['--import', 'tsx'],
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    });
    let stderr = '';
    this.child.stderr!.on('data', (d) => (stderr = (stderr + d).slice(-5000)));
    this.child.on('message', (m: FromTill) => {
      if (m.type === 'failed') {
        this.failure = m.error;
        onFailure(name, m.error);
      }
      if (m.type === 'report') this.report = m.report;
      for (const w of this.waiters.get(m.type) ?? []) w(m);
      this.waiters.delete(m.type);
    });
    this.child.on('exit', (code) => {
      if (code && !this.failure) onFailure(name, `exited with ${code}: ${stderr}`);
    });
  }
  send(m: ToTill) {
    this.child.send(m);
  }
  next(type: FromTill['type'], timeoutMs: number): Promise<FromTill> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${this.name}: no "${type}" after ${timeoutMs} ms`)), timeoutMs);
      const list = this.waiters.get(type) ?? [];
      list.push((m) => {
        clearTimeout(timer);
        resolve(m);
      });
      this.waiters.set(type, list);
    });
  }
}

const localDate = (ms: number) => new Date(ms + 3 * 3_600_000).toISOString().slice(0, 10);

export async function runChaos(o: ChaosOptions): Promise<ChaosResult> {
  const log = o.log ?? (() => {});
  const started = Date.now();
  const rng = new Rng(o.seed);
  const dir = mkdtempSync(path.join(tmpdir(), 'duka-chaos-'));
  const env: Record<string, string> = {
    DATA_DIR: path.join(dir, 'server'),
    JWT_SECRET: 'chaos-secret-chaos-secret-chaos-secret-01',
    RATE_LIMIT_AUTH_PER_MIN: '100000',
    RATE_LIMIT_USER_PER_MIN: '1000000',
    // Short-lived access tokens, so tills refresh several times through the faulty network.
    ACCESS_TOKEN_TTL: '90',
    ...(o.databaseUrl ? { DATABASE_URL: o.databaseUrl } : {}),
  };
  const server = new ServerProcess(await freePort(), env);
  const proxy = new ChaosProxy(server.port, o.seed, NO_FAULTS);
  const workerErrors: string[] = [];
  const tills: TillProcess[] = [];
  try {
    await server.start();
    const proxyPort = await proxy.listen();
    const owner = new Owner(`${server.url}/api/v1`);

    // The shop: an owner, a dozen products (two nearly sold out, so tills oversell), five customers.
    const phone = `07${[1, 5, 6, 8][o.seed % 4]}${String(1_000_000 + (o.seed % 8_999_999)).padStart(7, '0')}`;
    const reg = await owner.call('POST', '/auth/register', {
      first_name: 'Asha',
      last_name: 'Mushi',
      phone,
      email: `owner.${o.seed}@chaos.test`,
      password: PASSWORD,
      confirm_password: PASSWORD,
      shop: { name: 'Chaos Duka', business_type: 'retail', region: 'dar-es-salaam', district: 'Kinondoni' },
    });
    owner.token = reg.data.tokens.access_token;
    owner.identifier = phone;
    const startStock = new Map<string, number>();
    const initialPrice = new Map<string, number>();
    for (let i = 0; i < 12; i++) {
      const price = (i + 1) * 500 + 250 * (i % 3);
      const stock = i < 2 ? 15 : 5000;
      const p = await owner.call('POST', '/inventory/products', { name: `Bidhaa ${i + 1}`, sku: `CH-${i + 1}`, cost_price: Math.round(price * 0.7), selling_price: price, stock });
      startStock.set(p.data.id, stock);
      initialPrice.set(p.data.id, price);
    }
    const productIds = [...startStock.keys()];
    for (let i = 0; i < 5; i++) {
      await owner.call('POST', '/customers', { name: `Mteja ${i + 1}`, credit_limit: i === 0 ? 20_000 : 0 });
    }

    // The tills: each in its own process, signed in and loaded through the (still healthy) proxy.
    for (let i = 0; i < o.tills; i++) {
      tills.push(new TillProcess(`till ${i + 1}`, (name, error) => workerErrors.push(`${name}: ${error}`)));
    }
    const base = `http://127.0.0.1:${proxyPort}/api/v1`;
    await Promise.all(
      tills.map((t, i) => {
        const ready = t.next('ready', 120_000);
        t.send({
          type: 'start',
          baseUrl: base,
          dbPath: path.join(dir, `till-${i + 1}.db`),
          deviceName: `Counter ${i + 1}`,
          identifier: phone,
          password: PASSWORD,
          seed: o.seed * 1000 + i,
          sales: o.sales,
          durationMs: o.durationMs,
          drainTimeoutMs: 180_000,
          productIds,
        });
        return ready;
      }),
    );
    log(`${o.tills} tills ready after ${Date.now() - started} ms`);

    // Selling under chaos, with a timeline of outages (owner edits meanwhile) and server kills.
    proxy.setFaults(o.faults ?? DEFAULT_FAULTS);
    const priceChanges: Array<{ product_id: string; price: number; before: number; after: number }> = [];
    const adjustments = new Map<string, number>();
    let adjustmentCount = 0;
    const sold = Promise.all(tills.map((t) => t.next('sold', o.durationMs * 4 + 120_000)));
    for (const t of tills) t.send({ type: 'go' });
    const D = o.durationMs;
    const started0 = Date.now();
    const outage = async (at: number) => {
      await sleep(Math.max(0, started0 + at * D - Date.now()));
      proxy.down();
      const until = Date.now() + Math.max(2_000, 0.06 * D);
      for (const id of [rng.pick(productIds), rng.pick(productIds)]) {
        const current = priceChanges.filter((c) => c.product_id === id).at(-1)?.price ?? initialPrice.get(id)!;
        const price = current + rng.pick([-250, 250, 500]);
        const before = Date.now();
        await owner.call('PATCH', `/inventory/products/${id}`, { selling_price: price });
        priceChanges.push({ product_id: id, price, before, after: Date.now() });
      }
      const id = rng.pick(productIds.slice(2));
      const qty = rng.pick([-7, 12, 30]);
      await owner.call('POST', `/inventory/products/${id}/adjust`, { qty_change: qty, reason: 'count' });
      adjustments.set(id, (adjustments.get(id) ?? 0) + qty);
      adjustmentCount++;
      await sleep(Math.max(0, until - Date.now()));
      proxy.up();
      log(`outage at ${Math.round(at * 100)}% over`);
    };
    const kill = async (at: number) => {
      await sleep(Math.max(0, started0 + at * D - Date.now()));
      await server.kill();
      await sleep(1_000 + rng.int(0, 1_000));
      await server.start();
      log(`server killed and restarted at ${Math.round(at * 100)}%`);
    };
    await outage(0.12);
    await kill(0.3);
    await outage(0.45);
    await kill(0.62);
    await outage(0.78);
    await sold;
    const sellingMs = Date.now() - started0;
    log(`all tills sold after ${sellingMs} ms`);

    // The network heals: every till drains its queue, then takes a last pull.
    proxy.heal();
    const drainStart = Date.now();
    await Promise.all(tills.map((t) => { const d = t.next('drained', 200_000); t.send({ type: 'drain' }); return d; }));
    const drainMs = Date.now() - drainStart;
    await Promise.all(tills.map((t) => { const r = t.next('report', 120_000); t.send({ type: 'report' }); return r; }));
    const reports = tills.map((t) => t.report!);

    // What the server holds, read as the owner reads it.
    const today = Date.now();
    const transactions = await owner.all(`/pos/transactions?date_from=${localDate(started - 86_400_000)}&date_to=${localDate(today + 86_400_000)}`);
    const products = await owner.all('/inventory/products');
    const conflicts = await owner.all('/sync/conflicts');

    const failures = [...workerErrors, ...check({ reports, transactions, products, conflicts, startStock, initialPrice, priceChanges, adjustments })];
    if (proxy.counts.cutRequest === 0) failures.push('chaos: no request was cut mid-way');
    if (proxy.counts.cutReply === 0) failures.push('chaos: no reply was lost after its request reached the server');
    if (proxy.counts.refused === 0) failures.push('chaos: no connection was refused');
    if (proxy.counts.refusedWhileDown === 0) failures.push('chaos: no till met a full outage');
    if (server.kills < 2) failures.push(`chaos: the server was killed ${server.kills} times, not 2`);
    const relogins = reports.reduce((s, r) => s + r.counts.relogins, 0);
    if (relogins > 0) failures.push(`${relogins} times a till was signed out by the network and had to sign in again`);

    const all = reports.flatMap((r) => r.sales);
    const byKind = (k: string) => conflicts.filter((c) => c.kind === k).length;
    return {
      failures,
      figures: {
        dialect: o.databaseUrl ? 'postgres' : 'sqlite',
        seed: o.seed,
        tills: o.tills,
        'sales recorded by tills': all.length,
        refunds: reports.reduce((s, r) => s + r.counts.refunds, 0),
        voids: reports.reduce((s, r) => s + r.counts.voids, 0),
        'server transactions': transactions.length,
        'conflicts: stale_price': byKind('stale_price'),
        'conflicts: price_mismatch': byKind('price_mismatch'),
        'conflicts: oversold': byKind('oversold'),
        'conflicts: credit_limit': byKind('credit_limit'),
        'owner price changes': priceChanges.length,
        'owner stock adjustments': adjustmentCount,
        'server kills': server.kills,
        'proxy connections': proxy.counts.connections,
        'refused': proxy.counts.refused,
        'refused while down': proxy.counts.refusedWhileDown,
        'requests cut mid-way': proxy.counts.cutRequest,
        'replies lost': proxy.counts.cutReply,
        'chunks delayed': proxy.counts.delayed,
        'till sync errors while draining': reports.reduce((s, r) => s + r.counts.syncErrors, 0),
        're-logins': reports.reduce((s, r) => s + r.counts.relogins, 0),
        'selling ms': sellingMs,
        'drain ms': drainMs,
        'total ms': Date.now() - started,
      },
    };
  } catch (err) {
    return { failures: [...workerErrors, `the run stopped: ${err instanceof Error ? err.stack : String(err)}`, `server output:\n${server.output().slice(-3000)}`], figures: {} };
  } finally {
    for (const t of tills) t.child.kill('SIGKILL');
    await proxy.close().catch(() => {});
    await server.stop().catch(() => {});
    rmSync(dir, { recursive: true, force: true });
  }
}

interface Evidence {
  reports: TillReport[];
  transactions: any[];
  products: any[];
  conflicts: any[];
  startStock: Map<string, number>;
  initialPrice: Map<string, number>;
  priceChanges: Array<{ product_id: string; price: number; before: number; after: number }>;
  adjustments: Map<string, number>;
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
    if (t.client_receipt_number !== s.client_receipt_number) fail(`sale ${s.id}: server has receipt ${t.client_receipt_number}, till printed ${s.client_receipt_number}`);
    if (t.total !== s.total) fail(`sale ${s.client_receipt_number}: till took ${s.total}, server booked ${t.total}`);
    const expected = s.reversed ?? (s.payment_method === 'Credit' ? 'credit' : 'paid');
    if (t.status !== expected) fail(`sale ${s.client_receipt_number}: server status ${t.status}, expected ${expected}`);
    receiptNumbers.add(s.client_receipt_number);
  }
  if (receiptNumbers.size !== sales.length) fail(`tills printed ${sales.length} sales but only ${receiptNumbers.size} distinct receipt numbers`);
  const tillIds = new Set(sales.map((s) => s.id));
  for (const t of e.transactions) {
    if (!tillIds.has(t.id) || t.source !== 'offline') fail(`server transaction ${t.receipt_number} has no till origin`);
  }
  const clientNumbers = e.transactions.map((t) => t.client_receipt_number);
  if (new Set(clientNumbers).size !== clientNumbers.length) fail('two server transactions carry the same till receipt number');

  // Stock: start − sold + refunded and voided + the owner's adjustments, on the server and on every till.
  const expectedStock = new Map(e.startStock);
  for (const s of sales) {
    for (const l of s.lines) {
      const back = s.reversed ? l.qty : 0;
      expectedStock.set(l.product_id, expectedStock.get(l.product_id)! - l.qty + back);
    }
  }
  for (const [id, qty] of e.adjustments) expectedStock.set(id, expectedStock.get(id)! + qty);
  const serverProducts = new Map(e.products.map((p) => [p.id, p]));
  for (const [id, qty] of expectedStock) {
    const p = serverProducts.get(id);
    if (p.stock !== qty) fail(`${p.name}: server stock ${p.stock}, expected ${qty}`);
    for (const r of e.reports) {
      const local = r.replica[id];
      if (local?.stock !== p.stock) fail(`${p.name}: till ${r.deviceId} shows stock ${local?.stock}, server ${p.stock}`);
      if (local?.selling_price !== p.selling_price) fail(`${p.name}: till ${r.deviceId} shows price ${local?.selling_price}, server ${p.selling_price}`);
    }
  }

  // Every line charged at a price other than the one in force is on the conflict list, and only those.
  const priceConflicts = new Set(e.conflicts.filter((c) => c.kind === 'stale_price' || c.kind === 'price_mismatch').map((c) => `${c.transaction_id}/${c.product_id}`));
  let differences = 0;
  let ambiguous = 0;
  for (const s of sales) {
    const at = Date.parse(s.created_at);
    for (const l of s.lines) {
      const changes = e.priceChanges.filter((c) => c.product_id === l.product_id);
      if (changes.some((c) => c.before <= at && at <= c.after)) {
        ambiguous++;
        continue;
      }
      const inForce = changes.filter((c) => c.after < at).at(-1)?.price ?? e.initialPrice.get(l.product_id)!;
      const key = `${s.id}/${l.product_id}`;
      if (l.unit_price !== inForce) {
        differences++;
        if (!priceConflicts.has(key)) fail(`sale ${s.client_receipt_number}: charged ${l.unit_price} for a product priced ${inForce}, and no conflict says so`);
      } else if (priceConflicts.has(key)) {
        fail(`sale ${s.client_receipt_number}: a price conflict for a line charged at the price in force`);
      }
    }
  }
  if (priceConflicts.size < differences) fail(`${differences} price differences but ${priceConflicts.size} price conflicts`);
  void ambiguous;

  // Nothing left behind on any till.
  for (const r of e.reports) {
    if (r.pending !== 0) fail(`till ${r.deviceId} still has ${r.pending} mutations queued`);
    if (r.rejected.length) fail(`till ${r.deviceId} had mutations refused: ${JSON.stringify(r.rejected.slice(0, 3))}`);
    if (r.syncedOnReplica !== r.sales.length) fail(`till ${r.deviceId}: ${r.sales.length - r.syncedOnReplica} of its sales show no store number`);
  }
  return failures;
}
