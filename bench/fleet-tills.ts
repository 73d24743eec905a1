/**
 * The fleet benchmark's load generator, a process of its own (so that its CPU is not the server's):
 * `node --import tsx bench/fleet-tills.ts <plan.json> <result.json>`. Light tills speaking the sync
 * protocol over fetch and `ws`, not the SDK. Each till, open loop: sales arrive as a Poisson process
 * (a push of 1-5 sales every `meanGapMs` on average); a push carries everything queued, one push in
 * flight per till (the SDK's upload lock), then a pull from the till's cursor; a websocket held; now
 * and then an outage (socket dropped, sales queue) followed by one catch-up push. A push's latency
 * runs from the time its oldest sale was due (rung up, or the till back online), so a queue building
 * behind a slow server is counted, not hidden (coordinated omission).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { PROTOCOL_HEADER, PROTOCOL_VERSION } from '@duka/shared';
import WebSocket from 'ws';
import { cpuMs } from './lib.js';

export interface FleetPlan {
  base: string;
  /** The server's processes (one, or the instances behind the balancer): their CPU is summed. */
  serverPids: number[];
  seed: number;
  warmupMs: number;
  measureMs: number;
  meanGapMs: number;
  /** Chance per till per minute of an outage, and its length. */
  outagePerMin: number;
  outageMs: number;
  /** Per organisation: its products, `[id, price in TZS]`. */
  catalogues: Array<Array<[string, number]>>;
  tills: FleetTillState[];
  /** The websocket's `accept` query parameter (empty: none, a till of before `stocks`). */
  accept: string;
}

export interface FleetTillState {
  id: string;
  token: string;
  catalogue: number;
  /** The last seq pushed, and the pull cursor (carried from one run to the next). */
  seq: number;
  cursor?: string;
}

export interface FleetResult {
  push: number[];
  pull: number[];
  sales: number;
  pushes: number;
  outages: number;
  errors: { push: number; pull: number; ws: number };
  /** A few error messages, to say what went wrong. */
  samples: string[];
  /** What the server said each request in the window did with the database (x-db-statements, x-db-ms, x-db-wait-ms). */
  db: { push: DbSays; pull: DbSays };
  serverCpuMs: number;
  generatorCpuMs: number;
  /** The generator's event-loop delay p99 in the window, ms: how late its own timers and reads ran. */
  generatorLagMs: number;
  seconds: number;
  tills: FleetTillState[];
}

export interface DbSays {
  statements: number[];
  ms: number[];
  waitMs: number[];
}

const dbSays = (): DbSays => ({ statements: [], ms: [], waitMs: [] });

function noteDb(to: DbSays, res: Response) {
  const [n, ms, wait] = ['x-db-statements', 'x-db-ms', 'x-db-wait-ms'].map((h) => Number(res.headers.get(h) ?? NaN));
  if (Number.isFinite(n)) to.statements.push(n!);
  if (Number.isFinite(ms)) to.ms.push(ms!);
  if (Number.isFinite(wait)) to.waitMs.push(wait!);
}

/** mulberry32: a small seeded generator, one per till so a till's schedule does not depend on N. */
function rng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Queued {
  mutation: { id: string; seq: number; type: 'sale.create'; created_at: string; payload: unknown };
  /** performance.now() when it was due to be sent. */
  due: number;
}

export async function runFleet(plan: FleetPlan): Promise<FleetResult> {
  const wsBase = `${plan.base.replace(/^http/, 'ws')}/api/v1/sync/ws`;
  const out: FleetResult = {
    push: [],
    pull: [],
    sales: 0,
    pushes: 0,
    outages: 0,
    errors: { push: 0, pull: 0, ws: 0 },
    samples: [],
    db: { push: dbSays(), pull: dbSays() },
    serverCpuMs: 0,
    generatorCpuMs: 0,
    generatorLagMs: 0,
    seconds: plan.measureMs / 1000,
    tills: plan.tills,
  };
  const fail = (kind: keyof FleetResult['errors'], message: string, counted: boolean) => {
    if (!counted) return;
    out.errors[kind]++;
    if (out.samples.length < 10) out.samples.push(`${kind}: ${message}`);
  };
  const serverCpu = () => plan.serverPids.reduce((sum, pid) => sum + cpuMs(pid), 0);
  let stopping = false;
  let pushing = 0;
  const sockets = new Set<WebSocket>();

  const connect = (till: FleetTillState, counted: () => boolean) =>
    new Promise<WebSocket | null>((resolve) => {
      const accept = plan.accept ? `&accept=${encodeURIComponent(plan.accept)}` : '';
      const ws = new WebSocket(`${wsBase}?access_token=${till.token}${accept}`, { perMessageDeflate: false, handshakeTimeout: 30_000 });
      let hello = false;
      ws.on('message', (data) => {
        if (!hello && data.toString().startsWith('{"type":"hello"')) {
          hello = true;
          sockets.add(ws);
          resolve(ws);
        }
      });
      ws.on('error', (e) => {
        fail('ws', e.message, counted());
        if (!hello) resolve(null);
      });
      ws.on('close', (code) => {
        sockets.delete(ws);
        if (!hello) resolve(null);
        else if (!stopping && !dropped.has(ws)) fail('ws', `closed ${code}`, counted());
      });
    });

  // Every socket first (100 handshakes at a time): the run measures tills at work, not a fleet connecting.
  const held = new Map<FleetTillState, WebSocket | null>();
  let next = 0;
  await Promise.all(
    Array.from({ length: 100 }, async () => {
      while (next < plan.tills.length) {
        const till = plan.tills[next++]!;
        held.set(till, await connect(till, () => true));
      }
    }),
  );

  const t0 = performance.now();
  const from = t0 + plan.warmupMs;
  const until = from + plan.measureMs;
  const inWindow = (t: number) => t >= from && t < until;
  let cpuFrom = { server: 0, generator: 0 };
  const lag = monitorEventLoopDelay({ resolution: 10 });
  const windowStart = setTimeout(() => {
    cpuFrom = { server: serverCpu(), generator: cpuMs(process.pid) };
    lag.enable();
  }, plan.warmupMs);
  const dropped = new WeakSet<WebSocket>();

  const tillLoop = (till: FleetTillState, index: number) =>
    new Promise<void>((done) => {
      const random = rng(plan.seed * 100_003 + index);
      const exp = (mean: number) => -Math.log(1 - random()) * mean;
      const catalogue = plan.catalogues[till.catalogue]!;
      const headers = {
        authorization: `Bearer ${till.token}`,
        'content-type': 'application/json',
        [PROTOCOL_HEADER]: String(PROTOCOL_VERSION),
      };
      const queue: Queued[] = [];
      let seq = till.seq;
      let offlineUntil = 0;
      let busy = false;

      const sale = (due: number): Queued => {
        const lines = [0, 1, 2].map(() => {
          const [product_id, price] = catalogue[Math.floor(random() * catalogue.length)]!;
          return { product_id, qty: 1 + Math.floor(random() * 2), unit_price: price };
        });
        seq++;
        const payload = { id: crypto.randomUUID(), client_receipt_number: `F${index + 1}-${seq}`, lines, payment_method: 'Cash' };
        return { mutation: { id: crypto.randomUUID(), seq, type: 'sale.create', created_at: new Date().toISOString(), payload }, due };
      };

      const pull = async () => {
        for (let page = 0; page < 20; page++) {
          const start = performance.now();
          const url = `${plan.base}/api/v1/sync/pull${till.cursor ? `?cursor=${encodeURIComponent(till.cursor)}` : ''}`;
          const res = await fetch(url, { headers });
          const body = (await res.json()) as { data?: { cursor: string; has_more: boolean } };
          if (inWindow(start)) {
            out.pull.push(performance.now() - start);
            noteDb(out.db.pull, res);
          }
          if (res.status !== 200 || !body.data) return fail('pull', `${res.status} ${JSON.stringify(body).slice(0, 200)}`, inWindow(start));
          till.cursor = body.data.cursor;
          if (!body.data.has_more) return;
        }
      };

      // Send everything queued, then pull; again while sales arrived meanwhile (one push in flight per till).
      const drain = async () => {
        if (busy || stopping || queue.length === 0 || performance.now() < offlineUntil - 1) return;
        busy = true;
        while (queue.length > 0 && !stopping) {
          const batch = queue.splice(0, 500);
          const due = Math.min(...batch.map((q) => q.due));
          const counted = inWindow(due);
          pushing++;
          try {
            const res = await fetch(`${plan.base}/api/v1/sync/push`, {
              method: 'POST',
              headers,
              body: JSON.stringify({ device_id: till.id, mutations: batch.map((q) => q.mutation) }),
            });
            const body = (await res.json()) as {
              data?: { results: Array<{ status: string; error?: { message: string } }>; last_applied_seq: number };
            };
            // The next run goes on from the server's last seq (sales still queued at the end are dropped).
            if (body.data) till.seq = body.data.last_applied_seq;
            if (counted) {
              out.push.push(performance.now() - due);
              noteDb(out.db.push, res);
            }
            const bad = body.data?.results.find((r) => r.status !== 'applied' && r.status !== 'duplicate');
            if (res.status !== 200 || !body.data || bad) {
              fail('push', `${res.status} ${JSON.stringify(bad ?? body).slice(0, 200)}`, counted);
              if (res.status !== 200) queue.unshift(...batch);
              break;
            }
            if (counted) {
              out.pushes++;
              out.sales += batch.length;
            }
            await pull();
          } catch (e) {
            fail('push', (e as Error).message, counted);
            queue.unshift(...batch);
            break;
          } finally {
            pushing--;
          }
        }
        busy = false;
      };

      const tick = () => {
        const now = performance.now();
        // An outage: the socket drops and sales queue for a minute, then one catch-up push.
        if (now >= offlineUntil && random() < (plan.outagePerMin * plan.meanGapMs) / 60_000) {
          offlineUntil = now + plan.outageMs;
          if (inWindow(now)) out.outages++;
          const ws = held.get(till);
          if (ws) {
            dropped.add(ws);
            ws.terminate();
          }
          setTimeout(async () => {
            held.set(till, await connect(till, () => inWindow(performance.now())));
            for (const q of queue) q.due = Math.max(q.due, offlineUntil);
            void drain();
          }, plan.outageMs);
        }
        const count = 1 + Math.floor(random() * 5);
        for (let i = 0; i < count; i++) queue.push(sale(now));
        void drain();
        schedule();
      };
      // The next sale comes after an exponential gap, whatever the server is doing (open loop).
      const schedule = () => {
        const now = performance.now();
        const gap = exp(plan.meanGapMs);
        if (now + gap >= until) setTimeout(done, until - now);
        else setTimeout(tick, gap);
      };
      schedule();
    });

  await Promise.all(plan.tills.map(tillLoop));
  clearTimeout(windowStart);
  out.serverCpuMs = serverCpu() - cpuFrom.server;
  out.generatorCpuMs = cpuMs(process.pid) - cpuFrom.generator;
  lag.disable();
  out.generatorLagMs = Math.round(lag.percentile(99) / 1e6);
  stopping = true;
  // Let pushes in flight finish (seconds, behind an overloaded server), so that the seqs carried to the next run are the server's.
  for (let waited = 0; pushing > 0 && waited < 120_000; waited += 100) await new Promise((r) => setTimeout(r, 100));
  for (const ws of sockets) ws.terminate();
  return out;
}

if (process.argv[1]?.endsWith('fleet-tills.ts')) {
  const [planFile, resultFile] = process.argv.slice(2);
  const result = await runFleet(JSON.parse(readFileSync(planFile!, 'utf8')) as FleetPlan);
  writeFileSync(resultFile!, JSON.stringify(result));
  process.exit(0);
}
