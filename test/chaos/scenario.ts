/**
 * The chaos run: a real server process, several tills in their own processes behind a faulty
 * network, the server killed and restarted on the same data, the owner changing prices and stock
 * while the tills are cut off. Then the network heals, every till drains its queue, and the run
 * checks what a shop owner would: every sale once, stock and money exact, every price
 * difference on the conflict list, receipt numbers gapless. The shop's tills also sell by the kilo,
 * by the carton and paid two ways, and refund part of some sales over REST (till-shop.ts); all the
 * shop's money falls in one shift, whose report is checked per method. With `servers` > 1, several server
 * processes share one PostgreSQL database: each store's tills are split between them, some pinned
 * to one and some behind a load balancer without stickiness (a server picked per request), and
 * the crashes kill every server in turn. `runChaos` returns the figures and what failed.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Owner, PASSWORD, TillProcess } from './actors.js';
import { check, readLastNumbers } from './check.js';
import { checkPharmacy, deliverDuringOutage, openPharmacy } from './pharmacy.js';
import { checkCredit, readCredit } from './credit.js';
import { checkScaleShop, openScaleShop, sellScaleShop } from './scale-shop.js';
import { checkFiscal, fiscalise, startFiscalTra } from './fiscal.js';
import { ChaosProxy, type Faults, NO_FAULTS } from './proxy.js';
import { Rng } from './rng.js';
import { routeOf, ServerFleet, spread } from './server-process.js';
import { LOAD_RUN_LIMITS } from '../../server/src/env.js';
import { toCount } from '@duka/shared';

export interface ChaosOptions {
  seed: number;
  tills: number;
  /** Tills of the pharmacy (another organisation, selling batch-tracked medicines); default a third of `tills`, at least 1. */
  pharmacyTills?: number;
  /** Sales per pharmacy till (default `sales`). */
  pharmacySales?: number;
  /** Sales per till. */
  sales: number;
  /** Sales of the scale shop's till (weighed, split-tender and pack sales: scale-shop.ts); default a fifth of `sales`. */
  scaleSales?: number;
  /** How long each till takes to make its sales (the outages and kills are spread over it). */
  durationMs: number;
  /** Postgres connection string; SQLite in a temp data dir when absent. */
  databaseUrl?: string;
  /** Server processes on the one database (default 1; more need Postgres). */
  servers?: number;
  /**
   * The servers reach Postgres through this pooler URL (their DATABASE_URL), `databaseUrl` being
   * the database itself (their DATABASE_DIRECT_URL, and what the end checks read).
   */
  pooledUrl?: string;
  /** A real load balancer in front of the servers; the tills not pinned to one server go through it. */
  balancer?: (ports: number[]) => Promise<{ port: number; stop(): Promise<void> }>;
  /** More settings for every server (object storage). */
  serverEnv?: Record<string, string>;
  faults?: Faults;
  log?: (line: string) => void;
}

export interface ChaosResult {
  failures: string[];
  figures: Record<string, number | string>;
}

export const DEFAULT_FAULTS: Faults = { refuse: 0.05, cutRequest: 0.01, cutReply: 0.03, delay: 0.1, maxDelayMs: 250 };

/** The float of the shop's one shift, TZS. */
const OPENING_FLOAT = 100_000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const localDate = (ms: number) => new Date(ms + 3 * 3_600_000).toISOString().slice(0, 10);

export async function runChaos(o: ChaosOptions): Promise<ChaosResult> {
  const log = o.log ?? (() => {});
  const started = Date.now();
  const rng = new Rng(o.seed);
  const dir = mkdtempSync(path.join(tmpdir(), 'duka-chaos-'));
  // The retail shop fiscalises: a fake TRA in this process, which the servers post receipts to.
  const fiscal = await startFiscalTra();
  const env: Record<string, string> = {
    ...fiscal.env,
    JWT_SECRET: 'chaos-secret-chaos-secret-chaos-secret-01',
    ...LOAD_RUN_LIMITS,
    // Short-lived access tokens, so tills refresh several times through the faulty network.
    ACCESS_TOKEN_TTL: '90',
    ...(o.databaseUrl ? { DATABASE_URL: o.pooledUrl ?? o.databaseUrl } : {}),
    ...(o.pooledUrl && o.databaseUrl ? { DATABASE_DIRECT_URL: o.databaseUrl } : {}),
    ...o.serverEnv,
  };
  const fleet = await ServerFleet.create(o.servers ?? 1, (i) => path.join(dir, `server-${i + 1}`), env);
  const proxy = new ChaosProxy(o.seed, NO_FAULTS);
  let balancer: { port: number; stop(): Promise<void> } | null = null;
  const workerErrors: string[] = [];
  const tills: TillProcess[] = [];
  try {
    await fleet.start();
    balancer = o.balancer ? await o.balancer(fleet.servers.map((s) => s.port)) : null;
    const owner = new Owner(fleet.urls);

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
    await fiscalise(owner, reg.data.store_id, fiscal);
    const startStock = new Map<string, number>();
    const initialPrice = new Map<string, number>();
    for (let i = 0; i < 12; i++) {
      const price = (i + 1) * 500 + 250 * (i % 3);
      const stock = i < 2 ? 15 : 5000;
      const p = await owner.call('POST', '/inventory/products', {
        name: `Bidhaa ${i + 1}`,
        sku: `CH-${i + 1}`,
        cost_price: Math.round(price * 0.7),
        selling_price: price,
        stock,
      });
      startStock.set(p.data.id, stock);
      initialPrice.set(p.data.id, price);
    }
    const productIds = [...startStock.keys()];
    // Issue 51: sugar and beans by the kilo, soda by the bottle or the carton of 24 (stock in counts: grams, bottles).
    const packPrices = new Map<string, number>();
    for (const body of [
      { name: 'Sukari', sku: 'CH-KG-1', unit: 'kg', selling_price: 3200, cost_price: 2750, stock: 5000 },
      { name: 'Maharage', sku: 'CH-KG-2', unit: 'kg', selling_price: 2750, cost_price: 2100, stock: 4000.5 },
      {
        name: 'Soda',
        sku: 'CH-PK-1',
        selling_price: 1000,
        cost_price: 700,
        stock: 30_000,
        packs: [{ name: 'Katoni', units: 24, selling_price: 22_000 }],
      },
    ]) {
      const p = (await owner.call('POST', '/inventory/products', body)).data;
      startStock.set(p.id, toCount(p.stock, p.unit));
      initialPrice.set(p.id, p.selling_price);
      for (const pack of p.packs) packPrices.set(pack.id, pack.selling_price);
    }
    // The tills sell all fifteen; the owner's price changes and adjustments keep to the first twelve.
    const tillProductIds = [...startStock.keys()];
    for (let i = 0; i < 5; i++) {
      await owner.call('POST', '/customers', { name: `Mteja ${i + 1}`, credit_limit: i === 0 ? 20_000 : 0 });
    }
    // One shift takes the whole run's money (every till is the owner's session): its report is checked to the shilling.
    const shift = (await owner.call('POST', '/pos/shifts', { opening_float: OPENING_FLOAT })).data;

    // The pharmacy: its lots sized from what its tills will sell (1.5 units of each medicine a sale).
    const pharmacyTills = o.pharmacyTills ?? Math.max(1, Math.round(o.tills / 3));
    const pharmacySales = o.pharmacySales ?? o.sales;
    const demand = Math.round(pharmacyTills * pharmacySales * 1.4);
    const pharmacy = await openPharmacy(fleet.urls, o.seed, demand);
    for (let i = 0; i < 2; i++) await pharmacy.owner.call('POST', '/customers', { name: `Mgonjwa wa mkopo ${i + 1}` });
    // Issue 51: a third shop selling by the kilo, by the crate and paid two ways, its till on a route of its own.
    const scaleShop = await openScaleShop(fleet.urls, o.seed);
    const scaleRoute = await proxy.listen(
      routeOf(
        0,
        fleet.servers.map((s) => s.port),
        balancer?.port,
      ),
    );

    // The tills: each in its own process, signed in and loaded through the (still healthy) proxy.
    for (let i = 0; i < o.tills + pharmacyTills; i++) {
      tills.push(
        new TillProcess(i < o.tills ? `till ${i + 1}` : `pharmacy till ${i - o.tills + 1}`, (name, error) =>
          workerErrors.push(`${name}: ${error}`),
        ),
      );
    }
    const schedules = Object.fromEntries(pharmacy.medicines.map((m) => [m.id, m.schedule]));
    const routes = await Promise.all(
      tills.map((_, i) =>
        proxy.listen(
          routeOf(
            i < o.tills ? i : i - o.tills + fleet.servers.length,
            fleet.servers.map((s) => s.port),
            balancer?.port,
          ),
        ),
      ),
    );
    await Promise.all(
      tills.map((t, i) => {
        const ready = t.next('ready', 120_000);
        t.send({
          type: 'start',
          baseUrl: `http://127.0.0.1:${routes[i]!.port}/api/v1`,
          connectionPerRequest: routes[i]!.targets.length > 1,
          dbPath: path.join(dir, `till-${i + 1}.db`),
          deviceName: `Counter ${i + 1}`,
          identifier: i < o.tills ? phone : pharmacy.phone,
          password: PASSWORD,
          seed: o.seed * 1000 + i,
          sales: i < o.tills ? o.sales : pharmacySales,
          durationMs: o.durationMs,
          drainTimeoutMs: 180_000,
          ...(i < o.tills ? { productIds: tillProductIds } : { productIds: pharmacy.medicines.map((m) => m.id), pharmacy: { schedules } }),
        });
        return ready;
      }),
    );
    log(`${o.tills} + ${pharmacyTills} pharmacy tills on ${fleet.servers.length} server(s) ready after ${Date.now() - started} ms`);

    // Selling under chaos, with a timeline of outages (owner edits meanwhile) and server kills.
    proxy.setFaults(o.faults ?? DEFAULT_FAULTS);
    const priceChanges: Array<{ product_id: string; price: number; before: number; after: number }> = [];
    const adjustments = new Map<string, number>();
    let adjustmentCount = 0;
    const sold = Promise.all(tills.map((t) => t.next('sold', o.durationMs * 4 + 120_000)));
    for (const t of tills) t.send({ type: 'go' });
    const scaleApi = `http://127.0.0.1:${scaleRoute.port}/api/v1`;
    const scaleSold = sellScaleShop(scaleShop, scaleApi, o.seed * 1000 + 999, o.scaleSales ?? Math.round(o.sales / 5), o.durationMs);
    const D = o.durationMs;
    const started0 = Date.now();
    let outages = 0;
    const outage = async (at: number) => {
      await sleep(Math.max(0, started0 + at * D - Date.now()));
      proxy.down();
      await deliverDuringOutage(pharmacy, ++outages, Math.max(5, Math.round(demand * 0.05)));
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
      await fleet.crash(() => 1_000 + rng.int(0, 1_000));
      log(`${fleet.servers.length > 1 ? 'every server in turn' : 'server'} killed and restarted at ${Math.round(at * 100)}%`);
    };
    await outage(0.12);
    await kill(0.3);
    await outage(0.45);
    await kill(0.62);
    await outage(0.78);
    await sold;
    const scaleSales = await scaleSold;
    const sellingMs = Date.now() - started0;
    log(`all tills sold after ${sellingMs} ms`);

    // The network heals: every till drains its queue, then takes a last pull.
    proxy.heal();
    const drainStart = Date.now();
    await Promise.all(
      tills.map((t) => {
        const d = t.next('drained', 200_000);
        t.send({ type: 'drain' });
        return d;
      }),
    );
    const drainMs = Date.now() - drainStart;
    await Promise.all(
      tills.map((t) => {
        const r = t.next('report', 120_000);
        t.send({ type: 'report' });
        return r;
      }),
    );
    const reports = tills.slice(0, o.tills).map((t) => t.report!);
    const pharmacyReports = tills.slice(o.tills).map((t) => t.report!);

    // What the server holds, read as the owner reads it.
    const today = Date.now();
    const period = `date_from=${localDate(started - 86_400_000)}&date_to=${localDate(today + 86_400_000)}`;
    const transactions = await owner.all(`/pos/transactions?${period}`);
    const products = await owner.all('/inventory/products');
    const conflicts = await owner.all('/sync/conflicts');
    const credit = await readCredit(owner);
    const shiftReport = (await owner.call('GET', `/pos/shifts/${shift.id}`)).data.report;
    const rx = {
      transactions: await pharmacy.owner.all(`/pos/transactions?${period}`),
      products: await pharmacy.owner.all('/inventory/products'),
      conflicts: await pharmacy.owner.all('/sync/conflicts'),
    };
    const rxCredit = await readCredit(pharmacy.owner);
    const medicines = pharmacy.medicines.map((m) => m.id);
    const dbOpts = o.databaseUrl ? { url: o.databaseUrl } : { sqliteFile: path.join(dir, 'server-1', 'duka.db') };
    const rxCheck = await checkPharmacy(pharmacy, pharmacyReports, period, dbOpts);
    const lastNumbers = await readLastNumbers(dbOpts);
    const fiscalCheck = checkFiscal(transactions, fiscal);
    const scaleCheck = await checkScaleShop(scaleShop, scaleSales, period);

    const failures = [
      ...workerErrors,
      ...check({
        reports,
        transactions,
        products,
        conflicts,
        startStock,
        initialPrice,
        packPrices,
        priceChanges,
        adjustments,
        lastNumbers,
        shift: { report: shiftReport, openingFloat: OPENING_FLOAT },
      }),
      ...check({
        reports: pharmacyReports,
        ...rx,
        startStock: new Map(medicines.map((id) => [id, 0])),
        initialPrice: new Map(rx.products.map((p) => [p.id, p.selling_price])),
        priceChanges: [],
        adjustments: pharmacy.received,
        refundsToStock: false,
        lastNumbers,
      }).map((f) => `pharmacy: ${f}`),
      ...rxCheck.failures.map((f) => `pharmacy: ${f}`),
      ...checkCredit(reports, transactions, credit),
      ...fiscalCheck.failures,
      ...scaleCheck.failures,
      ...checkCredit(pharmacyReports, rx.transactions, rxCredit).map((f) => `pharmacy: ${f}`),
      // Enough lots, prices never changed, a prescription with every prescription medicine: nothing for the owner to review.
      ...rx.conflicts.map((c) => `pharmacy: unexpected ${c.kind} conflict: ${c.message}`).slice(0, 10),
    ];
    if (proxy.counts.cutRequest === 0) failures.push('chaos: no request was cut mid-way');
    if (proxy.counts.cutReply === 0) failures.push('chaos: no reply was lost after its request reached the server');
    if (proxy.counts.refused === 0) failures.push('chaos: no connection was refused');
    if (proxy.counts.refusedWhileDown === 0) failures.push('chaos: no till met a full outage');
    for (const [i, s] of fleet.servers.entries())
      if (s.kills < 2) failures.push(`chaos: server ${i + 1} was killed ${s.kills} times, not 2`);
    failures.push(
      ...spread(
        tills.map((t, i) => ({ name: t.name, route: routes[i]! })),
        fleet.servers.map((s) => s.port),
        balancer?.port,
      ),
    );
    const relogins = [...reports, ...pharmacyReports].reduce((s, r) => s + r.counts.relogins, 0);
    if (relogins > 0)
      failures.push(
        `${relogins} times a till was signed out by the network and had to sign in again (${tills
          .filter((t) => t.report!.counts.relogins)
          .map((t) => `${t.name}: ${t.report!.counts.relogins}`)
          .join(', ')})`,
      );

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
        'refunds of part of a sale': reports.reduce((s, r) => s + (r.counts.partRefunds ?? 0), 0),
        'weighed lines': all.reduce((n, s) => n + s.lines.filter((l) => l.counts !== undefined && l.counts !== l.qty).length, 0),
        'pack lines': all.reduce((n, s) => n + s.lines.filter((l) => l.pack_id).length, 0),
        'split-tender sales': all.filter((s) => Object.keys(s.parts ?? {}).length > 1).length,
        'split-tender sales with a credit part': all.filter((s) => s.parts?.Credit && Object.keys(s.parts).length > 1).length,
        'shift expected cash': shiftReport.methods.find((m: { method: string }) => m.method === 'Cash')?.expected,
        voids: reports.reduce((s, r) => s + r.counts.voids, 0),
        'credit payments': reports.reduce((s, r) => s + r.counts.payments, 0),
        'credit payments the till refused': reports.reduce((s, r) => s + r.counts.paymentsRefused, 0),
        'credit tabs': credit.reduce((n, p) => n + p.tabs.length, 0),
        'server transactions': transactions.length,
        'conflicts: stale_price': byKind('stale_price'),
        'conflicts: price_mismatch': byKind('price_mismatch'),
        'conflicts: oversold': byKind('oversold'),
        'conflicts: credit_limit': byKind('credit_limit'),
        'owner price changes': priceChanges.length,
        'owner stock adjustments': adjustmentCount,
        servers: fleet.servers.length,
        'server kills': fleet.servers.reduce((n, s) => n + s.kills, 0),
        'transactions retried after a deadlock': fleet.servers.reduce((n, s) => n + s.deadlocks, 0),
        ...Object.fromEntries(
          fleet.servers.map((s, i) => [`connections to server ${i + 1}`, routes.reduce((n, r) => n + (r.connections.get(s.port) ?? 0), 0)]),
        ),
        'tills switching server per request': routes.filter((r) => r.targets.length > 1).length,
        'tills behind the load balancer': balancer ? routes.filter((r) => r.targets[0] === balancer!.port).length : 0,
        'switches of server between requests': routes.reduce((n, r) => n + r.switches, 0),
        'proxy connections': proxy.counts.connections,
        'refused': proxy.counts.refused,
        'refused while down': proxy.counts.refusedWhileDown,
        'requests cut mid-way': proxy.counts.cutRequest,
        'replies lost': proxy.counts.cutReply,
        'chunks delayed': proxy.counts.delayed,
        'till sync errors while draining': [...reports, ...pharmacyReports].reduce((s, r) => s + r.counts.syncErrors, 0),
        're-logins': [...reports, ...pharmacyReports].reduce((s, r) => s + r.counts.relogins, 0),
        'pharmacy tills': pharmacyTills,
        'pharmacy sales': pharmacyReports.reduce((s, r) => s + r.sales.length, 0),
        'pharmacy sales with a prescription': pharmacyReports.reduce((s, r) => s + r.sales.filter((x) => x.patient).length, 0),
        'pharmacy refunds': pharmacyReports.reduce((s, r) => s + r.counts.refunds, 0),
        'pharmacy voids': pharmacyReports.reduce((s, r) => s + r.counts.voids, 0),
        'pharmacy credit payments': pharmacyReports.reduce((s, r) => s + r.counts.payments, 0),
        'pharmacy sales refused for want of a lot': pharmacyReports.reduce((s, r) => s + r.counts.lotRefusals, 0),
        'pharmacy server transactions': rx.transactions.length,
        'pharmacy deliveries': pharmacy.deliveries,
        'pharmacy conflicts': rx.conflicts.length,
        ...rxCheck.figures,
        ...fiscalCheck.figures,
        ...scaleCheck.figures,
        'selling ms': sellingMs,
        'drain ms': drainMs,
        'total ms': Date.now() - started,
      },
    };
  } catch (err) {
    return {
      failures: [
        ...workerErrors,
        `the run stopped: ${err instanceof Error ? err.stack : String(err)}`,
        `server output:\n${fleet.output()}`,
      ],
      figures: {
        servers: fleet.servers.length,
        'server kills': fleet.servers.reduce((n, s) => n + s.kills, 0),
        'transactions retried after a deadlock': fleet.servers.reduce((n, s) => n + s.deadlocks, 0),
        'total ms': Date.now() - started,
      },
    };
  } finally {
    for (const t of tills) t.child.kill('SIGKILL');
    await proxy.close().catch(() => {});
    await balancer?.stop().catch(() => {});
    await fleet.stop();
    await fiscal.tra.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
