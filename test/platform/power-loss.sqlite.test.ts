/**
 * Issue 39: SQLite commits are synced off the event loop (server/src/db/wal-sync.ts) instead of by
 * synchronous=FULL inside every COMMIT. The promise that stays: a sale the server has answered is on
 * disk. Here the power is cut (test/powerloss/powerloss.c: every write not yet synced is dropped,
 * the process ends at once) under a server process taking pushes from eight tills at once; then the
 * database, opened cold, must hold every sale that was answered, be whole, and agree with its stock;
 * and the server, started again, must take the tills' re-pushes so that every sale is there once.
 * SQLite only: PostgreSQL's commits are its own (project `postgres` excludes `*.sqlite.test.ts`).
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { newId } from '@duka/shared';
import { afterAll, describe, expect, it } from 'vitest';
import { LOAD_RUN_LIMITS } from '../../server/src/env.js';
import { buildPowerLossShim, cutPower } from '../powerloss/shim.js';
import { registrationBody } from '../setup/factories.js';
import { freePort, startScript } from '../setup/processes.js';

const TILLS = 8;
const STOCK = 1_000_000;
const JWT_SECRET = 'power-loss-secret-power-loss-secret-0001';

const dir = mkdtempSync(path.join(tmpdir(), 'duka-power-'));
const dataDir = path.join(dir, 'data');
// The shim watches a folder that exists when the process starts.
mkdirSync(dataDir);
const started: Array<ReturnType<typeof startScript>> = [];
afterAll(() => {
  // A failing test must not leave a server running.
  for (const proc of started) proc.child.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

async function startServer(preload: boolean) {
  const port = await freePort();
  // Eight tills of one user pushing flat out: past the per-user limit a real shop never reaches.
  const env: Record<string, string> = {
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    JWT_SECRET,
    LOG_LEVEL: 'warn',
    ...LOAD_RUN_LIMITS,
  };
  if (preload) Object.assign(env, { LD_PRELOAD: buildPowerLossShim(dir), POWERLOSS_DIR: dataDir });
  const proc = startScript('server/src/index.ts', env);
  started.push(proc);
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    if (
      await fetch(`${base}/health/ready`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    if (i > 300) throw new Error(`the server did not start: ${proc.errors()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return { proc, api: `${base}/api/v1` };
}

async function post(api: string, route: string, body: unknown, token?: string) {
  const res = await fetch(`${api}${route}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  const json = (await res.json()) as { data: any };
  if (!res.ok) throw new Error(`${route}: ${res.status} ${JSON.stringify(json)}`);
  return json.data;
}

interface Till {
  device: string;
  code: string;
  /** Every sale mutation this till has made, in order (what its queue holds until acknowledged). */
  made: Array<{ id: string; seq: number; type: string; created_at: string; payload: Record<string, unknown> }>;
}

const saleOf = (till: Till, product: string, qty: number) => {
  const seq = till.made.length + 1;
  const m = {
    id: newId(),
    seq,
    type: 'sale.create',
    created_at: new Date().toISOString(),
    payload: {
      id: newId(),
      client_receipt_number: `${till.code}-${seq}`,
      lines: [{ product_id: product, qty, unit_price: 1000 }],
      payment_method: 'Cash',
    },
  };
  till.made.push(m);
  return m;
};

describe('a power cut under pushing tills (SQLite)', () => {
  it('keeps every answered sale, and the re-pushes after it book every sale exactly once', async () => {
    const first = await startServer(true);
    const owner = await post(first.api, '/auth/register', registrationBody());
    const token: string = owner.tokens.access_token;
    const product: string = (await post(first.api, '/inventory/products', { name: 'Soda', selling_price: 1000, stock: STOCK }, token)).id;
    const tills: Till[] = [];
    for (let i = 0; i < TILLS; i++) {
      const device = newId();
      const { till_code } = await post(first.api, '/sync/devices', { device_id: device, name: `Till ${i + 1}` }, token);
      tills.push({ device, code: till_code, made: [] });
    }

    // Each till pushes one to three new sales at a time, as fast as it is answered, until the power goes.
    const answered = new Set<string>();
    /** Pushes the server answered with an error: none, or the cut may have fallen on an idle server. */
    const refused: string[] = [];
    let cut = false;
    const pushing = tills.map(async (till, n) => {
      for (let round = 0; !cut; round++) {
        const batch = Array.from({ length: 1 + ((round + n) % 3) }, () => saleOf(till, product, 1 + (round % 2)));
        try {
          const res = await post(first.api, '/sync/push', { device_id: till.device, mutations: batch }, token);
          for (const r of res.results as Array<{ seq: number; status: string }>) {
            expect(r.status).toBe('applied');
            answered.add(till.made[r.seq - 1]!.payload.id as string);
          }
        } catch (err) {
          // A fetch that fails is the server gone; an answer that is an error is a failure here.
          if (!(err instanceof TypeError)) refused.push((err as Error).message);
          return;
        }
      }
    });
    await new Promise((r) => setTimeout(r, 2500));
    cutPower(dataDir);
    expect(await first.proc.exited).toBe(137);
    cut = true;
    await Promise.all(pushing);
    rmSync(path.join(dataDir, 'powercut'));
    expect(refused).toEqual([]);
    // Enough sales answered for the cut to have fallen among them.
    expect(answered.size).toBeGreaterThan(100);

    // The disk as the power cut left it, opened cold (SQLite replays the WAL's synced frames).
    const db = new SQLite(path.join(dataDir, 'duka.db'));
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    const kept = new Set((db.prepare('select id from transactions').all() as Array<{ id: string }>).map((r) => r.id));
    const lost = [...answered].filter((id) => !kept.has(id));
    expect(lost).toEqual([]);
    const { stock } = db.prepare('select qty as stock from product_stock where product_id = ?').get(product) as { stock: number };
    const { sold } = db.prepare('select coalesce(sum(qty), 0) as sold from transaction_lines where product_id = ?').get(product) as {
      sold: number;
    };
    expect(stock + sold).toBe(STOCK);
    db.close();

    // Back on: every till sends its whole queue again (it never heard about the last ones).
    const second = await startServer(false);
    try {
      for (const till of tills) {
        for (let i = 0; i < till.made.length; i += 200) {
          const res = await post(second.api, '/sync/push', { device_id: till.device, mutations: till.made.slice(i, i + 200) }, token);
          expect((res.results as Array<{ status: string }>).every((r) => r.status === 'applied' || r.status === 'duplicate')).toBe(true);
        }
      }
      const sales = tills.reduce((n, till) => n + till.made.length, 0);
      const after = new SQLite(path.join(dataDir, 'duka.db'), { readonly: true });
      const counted = after.prepare('select count(*) as n, count(distinct id) as d from transactions').get() as { n: number; d: number };
      expect(counted).toEqual({ n: sales, d: sales });
      const { left } = after.prepare('select qty as left from product_stock where product_id = ?').get(product) as { left: number };
      const want = tills.flatMap((t) => t.made).reduce((n, m) => n + (m.payload.lines as Array<{ qty: number }>)[0]!.qty, 0);
      expect(left).toBe(STOCK - want);
      after.close();
    } finally {
      second.proc.child.kill('SIGTERM');
      await second.proc.exited;
    }
  }, 120_000);
});
