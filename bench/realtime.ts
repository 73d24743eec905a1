/**
 * Pull, bootstrap and realtime benchmarks (issue 5): an unchanged pull, a bootstrap of about
 * 100,000 rows, poke latency from a sale's commit to many connected websockets (one process, and
 * across two processes on Postgres), and the server's memory with many idle websockets.
 * Run by `npm run bench`; prints its rows into the same table. `wsCeiling` measures the same poke
 * fan-out on a bare `ws` server (ws-ceiling-server.ts), the best this machine and client allow.
 *
 * Sizes (environment): BENCH_WS_CLIENTS (2000), BENCH_WS_IDLE_CLIENTS (5000), BENCH_WS_USERS (4),
 * BENCH_POKE_SALES (20), BENCH_BOOTSTRAP_PRODUCTS (50000: products plus as many stock rows),
 * BENCH_BOOTSTRAP_WALKS (3). Client counts are capped to what the open-file limit allows.
 */
import { type ChildProcess, spawnSync } from 'node:child_process';
import { newId } from '@duka/shared';
import { sql } from 'kysely';
import WebSocket from 'ws';
import { createDb } from '../server/src/db/create-db.js';
import { freePort, measure, registerOwner, type Row, rssMiB, startProcess, stopProcess } from './lib.js';

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const envInt = (name: string, dflt: number) => {
  const n = Number(process.env[name] ?? dflt);
  return Number.isInteger(n) && n > 0 ? n : dflt;
};
const fmt = (n: number) => n.toLocaleString('en-US');

export interface RealtimeSetup {
  base: string;
  /** The server process (for its RSS) and the environment it was started with (for a second one). */
  server: ChildProcess;
  env: Record<string, string>;
  database: string;
  dbOpts: { url?: string; sqliteFile?: string };
  /** The benchmark account's sign-in. */
  account: { phone: string; password: string };
  seconds: number;
}

type Json = Record<string, any>;

async function getJson(url: string, token: string): Promise<{ status: number; body: Json }> {
  const res = await fetch(url, { headers: { authorization: `Bearer ${token}` }, signal: AbortSignal.timeout(30_000) });
  return { status: res.status, body: (await res.json()) as Json };
}

async function login(base: string, account: { phone: string; password: string }): Promise<string> {
  const res = await fetch(`${base}/api/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ identifier: account.phone, password: account.password }),
  });
  if (res.status !== 200) throw new Error(`login answered ${res.status}`);
  return ((await res.json()) as Json).data.access_token as string;
}

const claims = (token: string) => JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { org: string; store: string };

/** How many sockets each process may open: the open-file limit less room for everything else. */
function socketBudget(): { limit: number; budget: number } {
  const out = spawnSync('sh', ['-c', 'ulimit -n'], { encoding: 'utf8' }).stdout.trim();
  const limit = out === 'unlimited' ? Infinity : Number(out) || 1024;
  return { limit, budget: Math.max(0, limit - 512) };
}

// ---- websocket clients ----

interface Client {
  ws: WebSocket;
  /** Arrival times (performance.now()) of pokes, in order. */
  pokes: number[];
}

/** Open `n` websockets (at most `parallel` handshakes at a time), each with a token of `tokens` in turn; resolve once each got `hello` or failed. */
async function openClients(wsBase: string, tokens: string[], n: number, parallel = 100): Promise<{ clients: Client[]; failed: number }> {
  const clients: Client[] = [];
  let failed = 0;
  let next = 0;
  const openOne = (i: number) =>
    new Promise<void>((resolve) => {
      const ws = new WebSocket(`${wsBase}?access_token=${tokens[i % tokens.length]}`, {
        perMessageDeflate: false,
        handshakeTimeout: 15_000,
        skipUTF8Validation: true,
      });
      const client: Client = { ws, pokes: [] };
      let helloed = false;
      const timer = setTimeout(() => done(false), 20_000);
      function done(ok: boolean) {
        clearTimeout(timer);
        if (helloed) return;
        helloed = true;
        if (ok) clients.push(client);
        else {
          failed++;
          ws.terminate();
        }
        resolve();
      }
      ws.on('message', (data) => {
        const at = performance.now();
        const text = data.toString();
        if (text.startsWith('{"type":"poke"')) client.pokes.push(at);
        else if (text.startsWith('{"type":"hello"')) done(true);
      });
      ws.on('error', () => done(false));
      ws.on('close', () => done(false));
    });
  await Promise.all(
    Array.from({ length: Math.min(parallel, n) }, async () => {
      while (next < n) await openOne(next++);
    }),
  );
  return { clients, failed };
}

/** Close every client (close handshake, then terminate whatever is left after 3 s). */
async function closeClients(clients: Client[]) {
  await Promise.all(
    clients.map(
      ({ ws }) =>
        new Promise<void>((resolve) => {
          if (ws.readyState === ws.CLOSED) return resolve();
          const timer = setTimeout(() => {
            ws.terminate();
            resolve();
          }, 3000);
          ws.once('close', () => {
            clearTimeout(timer);
            resolve();
          });
          ws.close(1000);
        }),
    ),
  );
}

/**
 * Make `sales` sales through `saleBase` spaced `spacingMs`, with `clients` connected; per sale and
 * client, the delay from the sale's answer arriving (the commit, as the seller sees it) to that
 * client's first poke sent after the sale was. Pokes that beat the answer count as 0 ms.
 */
async function pokeLatency(saleBase: string, token: string, productIds: string[], clients: Client[], sales: number, spacingMs = 200) {
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const sent: number[] = [];
  const answered: number[] = [];
  let saleErrors = 0;
  for (let i = 0; i < sales; i++) {
    const t0 = performance.now();
    const lines = [0, 1, 2].map((k) => ({ product_id: productIds[(i * 3 + k) % productIds.length]!, qty: 1 }));
    const res = await fetch(`${saleBase}/api/v1/pos/sale`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ lines, payment_method: 'Cash' }),
      signal: AbortSignal.timeout(10_000),
    }).catch(() => null);
    const t1 = performance.now();
    if (res?.status !== 201) saleErrors++;
    await res?.arrayBuffer();
    sent.push(t0);
    answered.push(t1);
    await sleep(Math.max(0, t0 + spacingMs - performance.now()));
  }
  await sleep(1000);
  const delays: number[] = [];
  const fromSend: number[] = [];
  let missing = 0;
  let early = 0;
  for (const c of clients) {
    for (let i = 0; i < sales; i++) {
      const end = sent[i + 1] ?? Infinity;
      const at = c.pokes.find((t) => t >= sent[i]! && t < end);
      if (at === undefined) {
        missing++;
        continue;
      }
      if (at < answered[i]!) early++;
      delays.push(Math.max(0, at - answered[i]!));
      fromSend.push(at - sent[i]!);
    }
  }
  delays.sort((a, b) => a - b);
  fromSend.sort((a, b) => a - b);
  const saleMs = answered.map((t, i) => t - sent[i]!).sort((a, b) => a - b);
  return { delays, fromSend, missing, early, saleErrors, saleMs };
}

interface PokeRun {
  scenario: string;
  database: string;
  target: string;
  limitMs: number;
  wsUrl: string;
  saleBase: string;
  token: string;
  productIds: string[];
  clients: number;
  sales: number;
}

/** Connect `clients` websockets to `wsUrl`, sell `sales` times through `saleBase`, and answer the poke-latency row. */
async function pokeBenchmark(r: PokeRun): Promise<Row> {
  const { clients, failed } = await openClients(r.wsUrl, [r.token], r.clients);
  try {
    const m = await pokeLatency(r.saleBase, r.token, r.productIds, clients, r.sales);
    const p99 = pct(m.delays, 99);
    console.error(
      `[bench] ${r.database} ${r.scenario}: ${clients.length} connected (${failed} failed), ${m.delays.length} pokes, ${m.missing} missing, ${m.early} before the sale's answer; ` +
        `sale answer p50 ${pct(m.saleMs, 50).toFixed(1)} ms; poke from sale sent p50 ${pct(m.fromSend, 50).toFixed(1)} p99 ${pct(m.fromSend, 99).toFixed(1)} max ${(m.fromSend[m.fromSend.length - 1] ?? 0).toFixed(1)} ms`,
    );
    const errors = failed + m.missing + m.saleErrors;
    return {
      scenario: r.scenario,
      database: r.database,
      m: { rps: NaN, p50: Math.round(pct(m.delays, 50)), p99: Math.round(p99), errors },
      target: r.target,
      met: r.limitMs === Infinity ? null : errors === 0 && p99 <= r.limitMs,
    };
  } finally {
    await closeClients(clients);
  }
}

/** The same poke fan-out on a bare `ws` server with no database: what this machine and client allow. */
export async function wsCeiling(): Promise<Row> {
  const n = Math.min(envInt('BENCH_WS_CLIENTS', 2000), socketBudget().budget);
  const port = await freePort();
  const server = await startProcess('bench/ws-ceiling-server.ts', { PORT: String(port) }, `http://127.0.0.1:${port}/`);
  try {
    return await pokeBenchmark({
      scenario: `poke fan-out -> ${fmt(n)} ws clients, bare ws server (ceiling)`,
      database: '-',
      target: 'ceiling',
      limitMs: Infinity,
      wsUrl: `ws://127.0.0.1:${port}/api/v1/sync/ws`,
      saleBase: `http://127.0.0.1:${port}`,
      token: 'none',
      productIds: ['none'],
      clients: n,
      sales: envInt('BENCH_POKE_SALES', 20),
    });
  } finally {
    await stopProcess(server);
  }
}

// ---- the benchmarks ----

export async function realtimeBenchmarks(s: RealtimeSetup): Promise<Row[]> {
  const rows: Row[] = [];
  const { base, database, seconds } = s;
  const wsBase = `${base.replace(/^http/, 'ws')}/api/v1/sync/ws`;
  const { limit: fdLimit, budget } = socketBudget();
  const wantClients = envInt('BENCH_WS_CLIENTS', 2000);
  const wantIdle = envInt('BENCH_WS_IDLE_CLIENTS', 5000);
  const nClients = Math.min(wantClients, budget);
  const nIdle = Math.min(wantIdle, budget);
  const capped = (n: number, want: number) => (n < want ? ` (capped from ${fmt(want)}: ulimit -n ${fdLimit})` : '');

  // 1. Unchanged pull: pull the benchmark shop's change log to its head, then ask again and again.
  const token = await login(base, s.account);
  let cursor: string | undefined;
  let pages = 0;
  for (; pages < 10_000; pages++) {
    const { status, body } = await getJson(`${base}/api/v1/sync/pull?limit=1000${cursor ? `&cursor=${cursor}` : ''}`, token);
    if (status !== 200) throw new Error(`pull answered ${status}`);
    cursor = body.data.cursor as string;
    if (!body.data.has_more) break;
  }
  const pull = await measure({
    url: `${base}/api/v1/sync/pull?cursor=${cursor}`,
    headers: { authorization: `Bearer ${token}` },
    connections: 4,
    seconds,
  });
  // And it really is unchanged: no changes, same cursor.
  const again = await getJson(`${base}/api/v1/sync/pull?cursor=${cursor}`, token);
  const pullErrors =
    pull.errors + (again.status === 200 && again.body.data.changes.length === 0 && again.body.data.cursor === cursor ? 0 : 1);
  rows.push({
    scenario: `GET /sync/pull at the head (unchanged), 4 conn`,
    database,
    m: { ...pull, errors: pullErrors },
    target: 'p99 <= 5 ms',
    met: pull.p99 <= 5 && pullErrors === 0,
  });

  // 2. Bootstrap: a new shop with N products and their stock in its store (2N rows plus the
  // organisation and the store), walked page by page at limit=5000.
  const nProducts = envInt('BENCH_BOOTSTRAP_PRODUCTS', 50_000);
  const walks = envInt('BENCH_BOOTSTRAP_WALKS', 3);
  const bootToken = await registerOwner(base, '0754000201', 'Bootstrap Duka');
  const { org: bootOrg, store: bootStore } = claims(bootToken);
  const db = createDb({ ...s.dbOpts, poolSize: 2 });
  const productIds: string[] = [];
  const now = Date.now();
  for (let at = 0; at < nProducts; at += 1000) {
    const batch = Array.from({ length: Math.min(1000, nProducts - at) }, (_, i) => {
      const n = at + i;
      const id = newId();
      productIds.push(id);
      return {
        id,
        org_id: bootOrg,
        name: `Bidhaa ya kuanzia ${n}`,
        sku: `BOOT-${n}`,
        selling_price: 1000 + (n % 50) * 100,
        cost_price: 800,
        created_at: now,
        updated_at: now,
      };
    });
    await db.db.insertInto('products').values(batch).execute();
    await db.db
      .insertInto('product_stock')
      .values(batch.map((r) => ({ org_id: bootOrg, store_id: bootStore, product_id: r.id, qty: 1_000_000_000, updated_at: now })))
      .execute();
  }
  await sql.raw(s.dbOpts.url ? 'vacuum analyze' : 'analyze').execute(db.db);
  await db.close();

  const walkMs: number[] = [];
  let bootErrors = 0;
  let total = 0;
  for (let w = 0; w < walks; w++) {
    let pageToken: string | null = null;
    let got = 0;
    const t0 = performance.now();
    for (let page = 0; page < 10_000; page++) {
      const { status, body }: { status: number; body: Json } = await getJson(
        `${base}/api/v1/sync/bootstrap?limit=5000${pageToken ? `&page_token=${pageToken}` : ''}`,
        bootToken,
      );
      if (status !== 200) {
        bootErrors++;
        break;
      }
      got += body.data.rows.length as number;
      total = body.data.total as number;
      pageToken = body.data.page_token as string | null;
      if (!pageToken) break;
    }
    walkMs.push(performance.now() - t0);
    if (got !== total) bootErrors++;
  }
  walkMs.sort((a, b) => a - b);
  const medianWalk = pct(walkMs, 50);
  rows.push({
    scenario: `bootstrap ${fmt(total)} rows, limit=5000: wall ms (p50 median, p99 slowest of ${walks}), req/s = rows/s`,
    database,
    m: {
      rps: Math.round(total / (medianWalk / 1000)),
      p50: Math.round(medianWalk),
      p99: Math.round(walkMs[walkMs.length - 1] ?? 0),
      errors: bootErrors,
    },
    target: '<= 1.5 s',
    met: bootErrors === 0 && (walkMs[walkMs.length - 1] ?? Infinity) <= 1500,
  });

  // 3. Poke latency, one process: clients of the bootstrap shop's owner, sales in that shop.
  const sales = envInt('BENCH_POKE_SALES', 20);
  const pokeRow = async (scenario: string, target: string, limitMs: number, wsUrl: string) => {
    rows.push(
      await pokeBenchmark({
        scenario,
        database,
        target,
        limitMs,
        wsUrl,
        saleBase: base,
        token: bootToken,
        productIds,
        clients: nClients,
        sales,
      }),
    );
  };
  await pokeRow(
    `poke: sale commit -> ${fmt(nClients)} ws clients, ${sales} sales, one process${capped(nClients, wantClients)}`,
    'p99 <= 25 ms',
    25,
    wsBase,
  );

  // 4. Across processes (Postgres): clients on a second server process B, sales through A.
  if (s.dbOpts.url) {
    const portB = await freePort();
    const serverB = await startProcess('server/src/index.ts', { ...s.env, PORT: String(portB) }, `http://127.0.0.1:${portB}/health/ready`);
    try {
      await pokeRow(
        `poke across processes: sale on A -> ${fmt(nClients)} ws clients on B, ${sales} sales${capped(nClients, wantClients)}`,
        'p99 <= 75 ms',
        75,
        `ws://127.0.0.1:${portB}/api/v1/sync/ws`,
      );
    } finally {
      await stopProcess(serverB);
    }
  }

  // 5. Memory: idle clients spread over a few owners (each its own shop), RSS after 5 s.
  const nUsers = envInt('BENCH_WS_USERS', 4);
  const tokens = [bootToken, token];
  for (let u = tokens.length; u < nUsers; u++)
    tokens.push(await registerOwner(base, `07540003${String(u).padStart(2, '0')}`, `Idle Duka ${u}`));
  await sleep(1000);
  const before = rssMiB(s.server);
  const { clients: idle, failed: idleFailed } = await openClients(wsBase, tokens.slice(0, nUsers), nIdle);
  try {
    await sleep(5000);
    const after = rssMiB(s.server);
    const open = idle.filter((c) => c.ws.readyState === c.ws.OPEN).length;
    rows.push({
      scenario: `server RSS, MiB in p50/p99: ${fmt(open)} idle ws (${nUsers} users); ${before} MiB before${capped(nIdle, wantIdle)}`,
      database,
      m: { rps: NaN, p50: after, p99: after, errors: idleFailed + (idle.length - open) },
      target: '<= 768 MiB',
      met: idleFailed === 0 && open === nIdle && after <= 768,
    });
  } finally {
    await closeClients(idle);
  }
  return rows;
}
