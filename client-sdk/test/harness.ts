/**
 * The real server on a real port for the till's tests, with a network the test can cut: while
 * `net.offline`, the till's requests go to a port nobody listens on (connection refused).
 */
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { afterAll, beforeAll, expect } from 'vitest';
import { attachRealtime, type RealtimeServer } from '../../server/src/sync/ws/attach.js';
import { registerOwner, type Session } from '../../test/setup/factories.js';
import type { Config } from '../../server/src/env.js';
import { createTestApp, type TestApp } from '../../test/setup/test-app.js';
import { Till, type TillEvents, type TillOptions } from '@duka/client-sdk';
import { wasmMemoryStorage } from './wasm.js';

export interface Net {
  offline: boolean;
  /** The next request to this path (`/sync/push`) reaches the server, but its answer is lost. */
  loseReplyTo: string | null;
  /** Every request the till made, as `METHOD /path` (without the base path). */
  calls: string[];
  fetch: (input: string, init?: RequestInit) => Promise<Response>;
}

export interface Harness {
  t: TestApp;
  /** The API root the tills use. */
  base: string;
  net: Net;
  close(): Promise<void>;
}

async function deadPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

export async function startServer(opts: { realtime?: boolean; config?: Partial<Config> } = {}): Promise<Harness> {
  const t = await createTestApp({ config: opts.config });
  const server = await new Promise<ServerType>((resolve) => {
    const s = serve({ fetch: t.app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
  });
  const realtime: RealtimeServer | null = opts.realtime ? attachRealtime(server, t.deps, { heartbeatMs: 1000 }) : null;
  const port = (server.address() as AddressInfo).port;
  const base = `http://127.0.0.1:${port}${t.config.BASE_PATH}`;
  const dead = await deadPort();
  const net: Net = {
    offline: false,
    loseReplyTo: null,
    calls: [],
    fetch: async (input, init) => {
      const url = new URL(input);
      const path = url.pathname.slice(t.config.BASE_PATH.length);
      net.calls.push(`${init?.method ?? 'GET'} ${path}`);
      if (net.offline) url.port = String(dead);
      const res = await fetch(url, init);
      if (net.loseReplyTo === path) {
        net.loseReplyTo = null;
        await res.arrayBuffer();
        throw new TypeError('fetch failed: connection reset');
      }
      return res;
    },
  };
  return {
    t,
    base,
    net,
    async close() {
      await realtime?.close();
      await new Promise((resolve) => server.close(resolve));
      await t.close();
    },
  };
}

/**
 * A till on this server through the switchable network, on the server's clock, syncing only when
 * told. Its replica is better-sqlite3 in memory, or SQLite WASM through the browser storage's
 * worker protocol with `DUKA_TILL_STORAGE=wasm` (so any till suite can run on the browser's engine).
 */
export async function openTill(h: Harness, o: Partial<TillOptions> = {}): Promise<Till> {
  const storage = o.storage ?? (o.dbPath === undefined && process.env.DUKA_TILL_STORAGE === 'wasm' ? await wasmMemoryStorage() : undefined);
  return Till.open({
    baseUrl: h.base,
    dbPath: ':memory:',
    deviceName: 'Counter 1',
    autoSync: false,
    fetch: h.net.fetch,
    now: h.t.clock.now,
    ...o,
    ...(storage ? { storage, dbPath: undefined } : {}),
  });
}

/**
 * A describe block's server and the tills its tests open: the server started before the block's
 * tests, and after them every till closed and the server stopped. Read `h` once the tests run.
 */
export function tillServer(opts: Parameters<typeof startServer>[0] = {}) {
  const open: Till[] = [];
  const server = {
    h: undefined as unknown as Harness,
    async till(o: Partial<TillOptions> = {}): Promise<Till> {
      const t = await openTill(server.h, o);
      open.push(t);
      return t;
    },
  };
  beforeAll(async () => void (server.h = await startServer(opts)));
  afterAll(async () => {
    await Promise.all(open.map((t) => t.close()));
    await server.h?.close();
  });
  return server;
}

export interface Shop {
  owner: Session;
  soda: { id: string };
  unga: { id: string };
  rice: { id: string };
}

/** An owner with a small catalogue: Soda 1,000 (40), Unga 2,500 (30), Rice 3,200 (25). */
export async function seedShop(h: Harness): Promise<Shop> {
  const owner = await registerOwner(h.t);
  const post = async (path: string, body: Record<string, unknown>) => {
    const res = await h.t.request('POST', path, { token: owner.token, body });
    expect(res.status, res.text).toBeLessThan(300);
    return res.body.data as { id: string };
  };
  const drinks = await post('/inventory/categories', { name: 'Drinks' });
  const soda = await post('/inventory/products', {
    name: 'Soda 500ml',
    category_id: drinks.id,
    barcode: '6161100000017',
    sku: 'SODA-500',
    selling_price: 1000,
    cost_price: 700,
    stock: 40,
    reorder_point: 5,
  });
  const unga = await post('/inventory/products', { name: 'Unga 2kg', sku: 'UNGA-2', selling_price: 2500, stock: 30 });
  const rice = await post('/inventory/products', { name: 'Rice 1kg', sku: 'RICE-1', selling_price: 3200, stock: 25 });
  return { owner, soda, unga, rice };
}

/** The same owner, signed in on the till. */
export async function signIn(till: Till, shop: Shop): Promise<void> {
  await till.login(shop.owner.phone, shop.owner.password);
}

/** Server-side facts, read through the REST API with a fresh owner token. */
export async function serverView(h: Harness, shop: Shop) {
  const login = await h.t.request('POST', '/auth/login', { body: { identifier: shop.owner.phone, password: shop.owner.password } });
  const token = login.body.data.access_token as string;
  return {
    token,
    async transactions() {
      const res = await h.t.request('GET', '/pos/transactions?page_size=100', { token });
      return { total: res.body.meta.total as number, items: res.body.data as Array<Record<string, any>> };
    },
    async stock(productId: string) {
      return (await h.t.request('GET', `/inventory/products/${productId}`, { token })).body.data.stock as number;
    },
  };
}

/** Resolve with the next `event` the till emits, or fail after `ms`. */
export function nextEvent<K extends keyof TillEvents>(till: Till, event: K, ms = 5000): Promise<TillEvents[K]> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${String(event)} event within ${ms} ms`)), ms);
    till.once(event, (...args) => {
      clearTimeout(timer);
      resolve(args);
    });
  });
}

/** Wait until `check` holds, looking every few ms, failing after `ms`. */
export async function until(check: () => boolean | Promise<boolean>, ms = 5000, what = 'condition'): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`${what} not met within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 5));
  }
}
