/**
 * The soak (issue 19): a real server process and a town's worth of tills for a long time, watched
 * the way an operator would watch it. Shops of a few tills each (pool-worker.ts: the SDK, many
 * tills to a process) sell at a shop's rhythm, lose their network and get it back, pull, and
 * hold a websocket; their owners browse reports and analytics and book deliveries. Every
 * `sampleMs` the run scrapes the server's GET /metrics (on its METRICS_PORT) and samples the
 * pools; every second it times the readiness probe; every `rowMs` it prints a row. At the end
 * every till drains its queue, and the run fails on what rules.ts finds (memory growing, a p99
 * drifting up, a queue that stopped draining, the event loop stalling) and on what the chaos
 * run's end check finds per shop (every sale once, receipt numbers gapless, stock exact on the
 * server and every replica).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort, PASSWORD, WorkerProcess } from '../chaos/actors.js';
import { check, readLastNumbers } from '../chaos/check.js';
import { ServerProcess } from '../chaos/server-process.js';
import { sleep } from '../chaos/till-common.js';
import { formatRow, Recorder, type Row, scrape } from './measure.js';
import type { FromPool, PoolSample, PoolTill, Rhythm, ToPool } from './protocol.js';
import { DEFAULT_LIMITS, judge, type Limits } from './rules.js';
import { browse, openShop, type Shop } from './shops.js';
import { LOAD_RUN_LIMITS } from '../../server/src/env.js';

export interface SoakOptions {
  seed: number;
  tills: number;
  /** How long the tills sell. */
  durationMs: number;
  /** Postgres connection string; SQLite in a temp data dir when absent. */
  databaseUrl?: string;
  tillsPerShop?: number;
  /** Processes the tills are spread over (default: one per 125 tills, at least 2). */
  pools?: number;
  rhythm?: Partial<Rhythm>;
  /** Mean pause between an owner's page views, ms. */
  browseMs?: number;
  rowMs?: number;
  sampleMs?: number;
  limits?: Partial<Limits>;
  log?: (line: string) => void;
}

export interface SoakResult {
  failures: string[];
  rows: Row[];
  figures: Record<string, number | string>;
}

export const DEFAULT_RHYTHM: Rhythm = { paceMs: 6_000, outageEveryMs: 240_000, outageMs: 20_000 };

const localDate = (ms: number) => new Date(ms + 3 * 3_600_000).toISOString().slice(0, 10);

export async function runSoak(o: SoakOptions): Promise<SoakResult> {
  const log = o.log ?? (() => {});
  const limits = { ...DEFAULT_LIMITS, ...o.limits };
  const rhythm = { ...DEFAULT_RHYTHM, ...o.rhythm };
  const rowMs = o.rowMs ?? 60_000;
  const sampleMs = o.sampleMs ?? 5_000;
  const perShop = o.tillsPerShop ?? 4;
  const began = Date.now();
  const dir = mkdtempSync(path.join(tmpdir(), 'duka-soak-'));
  const metricsPort = await freePort();
  const server = new ServerProcess(await freePort(), {
    DATA_DIR: path.join(dir, 'server'),
    METRICS_PORT: String(metricsPort),
    JWT_SECRET: 'soak-secret-soak-secret-soak-secret-0001',
    ...LOAD_RUN_LIMITS,
    NODE_ENV: 'production',
    ...(o.databaseUrl ? { DATABASE_URL: o.databaseUrl } : {}),
  });
  const errors: string[] = [];
  const pools: Array<WorkerProcess<ToPool, FromPool>> = [];
  const rows: Row[] = [];
  try {
    await server.start();
    const api = [`${server.url}/api/v1`];

    // The town: shops opened a few at a time (each registration is a password hash).
    const shops: Shop[] = [];
    const nShops = Math.ceil(o.tills / perShop);
    for (let i = 0; i < nShops; i += 4)
      shops.push(...(await Promise.all(Array.from({ length: Math.min(4, nShops - i) }, (_, k) => openShop(api, o.seed, i + k)))));
    const tills: PoolTill[] = Array.from({ length: o.tills }, (_, i) => {
      const shop = shops[Math.floor(i / perShop)]!;
      const n = (i % perShop) + 1;
      return {
        name: `${shop.name} till ${n}`,
        dbPath: path.join(dir, `till-${i + 1}.db`),
        deviceName: `Counter ${n}`,
        identifier: shop.phone,
        password: PASSWORD,
        seed: o.seed * 10_000 + i,
        productIds: shop.productIds,
      };
    });
    const nPools = Math.min(o.tills, o.pools ?? Math.max(2, Math.ceil(o.tills / 125)));
    for (let p = 0; p < nPools; p++)
      pools.push(
        new WorkerProcess<ToPool, FromPool>(`pool ${p + 1}`, path.join(import.meta.dirname, 'pool-worker.ts'), (name, error) =>
          errors.push(`${name}: ${error}`),
        ),
      );
    await Promise.all(
      pools.map((pool, p) => {
        const ready = pool.next('ready', 60_000 + o.tills * 2_000);
        pool.send({ type: 'start', serverPort: server.port, tills: tills.filter((_, i) => i % nPools === p) });
        return ready;
      }),
    );
    log(`${o.tills} tills in ${nShops} shops on ${nPools} processes ready after ${Math.round((Date.now() - began) / 1000)} s`);

    // Selling, watched.
    const started = Date.now();
    const until = started + o.durationMs;
    const rec = new Recorder(started);
    const sold = Promise.all(pools.map((pool) => pool.next('sold', o.durationMs + 300_000)));
    for (const pool of pools) pool.send({ type: 'go', durationMs: o.durationMs, rhythm });
    let selling = true;
    const owners = Promise.all(
      shops.map((shop, i) =>
        browse(
          shop,
          o.seed * 100 + i,
          until,
          o.browseMs ?? 20_000,
          (at, ms) => rec.latency('owner', at, ms),
          (e) => errors.push(e),
        ),
      ),
    );
    const seconds = () => Math.round((Date.now() - started) / 1000);
    let notReady = 0;
    const probe = (async () => {
      while (selling) {
        const t0 = performance.now();
        const ok = await fetch(`${server.url}/health/ready`, { signal: AbortSignal.timeout(30_000) }).then(
          (r) => r.ok,
          () => false,
        );
        if (!ok && notReady++ === 0) errors.push(`the readiness probe failed at ${seconds()} s`);
        rec.latency('ready', Date.now(), performance.now() - t0);
        await sleep(1_000);
      }
    })();
    const sampler = (async () => {
      let rowFrom = 0;
      while (selling) {
        await sleep(sampleMs);
        const at = Date.now();
        try {
          const samples = await Promise.all(
            pools.map((pool) => {
              const s = pool.next('sample', 60_000);
              pool.send({ type: 'sample' });
              return s;
            }),
          );
          rec.pools(
            at,
            samples.map((s) => s.sample as PoolSample),
          );
          rec.scrapes.push(await scrape(`http://127.0.0.1:${metricsPort}/metrics`, at - started, !o.databaseUrl));
        } catch (err) {
          errors.push(`sampling at ${seconds()} s: ${String(err)}`);
          return;
        }
        if (at - started - rowFrom >= rowMs) {
          const row = rec.row(rowFrom, at - started);
          if (rows.length === 0) log(formatRow(row, true));
          log(formatRow(row));
          rows.push(row);
          rowFrom = at - started;
        }
      }
    })();
    // A till process that failed will never say it sold: stop at the first failure rather than wait out the timeout.
    let watch: NodeJS.Timeout | undefined;
    const failed = new Promise<void>((resolve) => (watch = setInterval(() => errors.length && resolve(), 1_000)));
    try {
      await Promise.race([sold.then(() => owners), failed]);
    } finally {
      clearInterval(watch);
      selling = false;
    }
    await Promise.all([probe, sampler]);
    if (errors.length) throw new Error(`stopped after ${seconds()} s`);
    const sellingMs = Date.now() - started;

    // Every queue drains, then every till takes a last pull and reports.
    const drainStart = Date.now();
    await Promise.all(
      pools.map((pool) => {
        const d = pool.next('drained', 300_000);
        pool.send({ type: 'drain', timeoutMs: 240_000 });
        return d;
      }),
    );
    const drainMs = Date.now() - drainStart;
    const reports = (
      await Promise.all(
        pools.map((pool) => {
          const r = pool.next('reports', 300_000);
          pool.send({ type: 'report' });
          return r;
        }),
      )
    ).flatMap((m) => m.reports);

    const period = `date_from=${localDate(began - 86_400_000)}&date_to=${localDate(Date.now() + 86_400_000)}`;
    const lastNumbers = await readLastNumbers(o.databaseUrl ? { url: o.databaseUrl } : { sqliteFile: path.join(dir, 'server', 'duka.db') });
    const ended: string[] = [];
    let transactions = 0;
    for (const shop of shops) {
      const own = reports.filter((r) => r.name.startsWith(`${shop.name} till`));
      const txs = await shop.owner.all(`/pos/transactions?${period}`);
      transactions += txs.length;
      const found = check({
        reports: own,
        transactions: txs,
        products: await shop.owner.all('/inventory/products'),
        conflicts: await shop.owner.all('/sync/conflicts'),
        startStock: shop.startStock,
        initialPrice: shop.initialPrice,
        priceChanges: [],
        adjustments: shop.adjustments,
        lastNumbers,
      });
      ended.push(...found.map((f) => `${shop.name}: ${f}`));
    }
    const series = rec.series(o.durationMs);
    const failures = [...errors, ...judge(series, limits), ...ended];
    const all = reports.flatMap((r) => r.sales);
    return {
      failures,
      rows,
      figures: {
        dialect: o.databaseUrl ? 'postgres' : 'sqlite',
        seed: o.seed,
        tills: o.tills,
        shops: nShops,
        'till processes': nPools,
        'sales made': all.length,
        voids: reports.reduce((n, r) => n + r.counts.voids, 0),
        refunds: reports.reduce((n, r) => n + r.counts.refunds, 0),
        'server transactions': transactions,
        'deliveries booked': shops.reduce((n, s) => n + s.deliveries, 0),
        'owner page views': series.latencies.owner!.length,
        'pushes timed': series.latencies.push!.length,
        'readiness probes': series.latencies.ready!.length,
        'scrapes of /metrics': rec.scrapes.length,
        'selling ms': sellingMs,
        'drain ms': drainMs,
        'total ms': Date.now() - began,
      },
    };
  } catch (err) {
    return {
      failures: [
        ...errors,
        `the soak stopped: ${err instanceof Error ? err.stack : String(err)}`,
        `server output:\n${server.output().slice(-3000)}`,
      ],
      rows,
      figures: { 'total ms': Date.now() - began },
    };
  } finally {
    for (const pool of pools) pool.child.kill('SIGKILL');
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
