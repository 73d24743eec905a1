import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Database from 'better-sqlite3';
import { SqliteDialect } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiRequest, HttpConnector, Till, type TillConnector, type UpdateRequired } from '@duka/client-sdk';
import { type Harness, openTill, seedShop, serverView, signIn, startServer, until } from './harness.js';

describe('till: the storage and connector seams, closing, the protocol version', () => {
  let h: Harness;
  beforeAll(async () => (h = await startServer()));
  afterAll(() => h.close());

  it('keeps its replica in the storage it is handed, sells offline and syncs', async () => {
    const shop = await seedShop(h);
    const sqlite = new Database(':memory:');
    let prepared = 0;
    const dialect = new SqliteDialect({
      database: {
        close: () => sqlite.close(),
        prepare: (text: string) => {
          prepared++;
          return sqlite.prepare(text);
        },
      },
    });
    const till = await openTill(h, { dbPath: undefined, storage: dialect });
    await signIn(till, shop);
    await till.syncNow();
    const before = prepared;
    h.net.offline = true;
    await till.sell({ lines: [{ product_id: shop.soda.id, qty: 3 }], payment_method: 'Cash' });
    expect(prepared).toBeGreaterThan(before);
    expect(sqlite.prepare('select type, state from queue').all()).toEqual([{ type: 'sale.create', state: 'pending' }]);
    await expect(till.syncNow()).rejects.toMatchObject({ code: 'NETWORK' });
    h.net.offline = false;
    expect(await till.syncNow()).toMatchObject({ pushed: 1, numbered: [{ number: 1 }] });
    expect(sqlite.prepare('select type, state from queue').all()).toEqual([{ type: 'sale.create', state: 'applied' }]);
    const server = await serverView(h, shop);
    expect((await server.transactions()).total).toBe(1);
    expect(await server.stock(shop.soda.id)).toBe(37);
    await till.close();
    expect(sqlite.open).toBe(false);
  });

  it('sells 5 lines in 8 statements (one read, four writes, the queue counted, begin and commit) and reads nothing after (issue 53)', async () => {
    const shop = await seedShop(h);
    const more = async (name: string) => {
      const res = await h.t.request('POST', '/inventory/products', {
        token: shop.owner.token,
        body: { name, selling_price: 1500, stock: 9 },
      });
      return res.body.data.id as string;
    };
    const ids = [shop.soda.id, shop.unga.id, shop.rice.id, await more('Chai 100g'), await more('Sabuni')];
    const sqlite = new Database(':memory:');
    // This dialect prepares every statement it runs (no statement cache): what it prepares is what the till runs.
    const ran: string[] = [];
    const dialect = new SqliteDialect({
      database: {
        close: () => sqlite.close(),
        prepare: (text: string) => {
          // `insert meta`, `select rows meta shifts products stock`: the verb and the tables the statement names.
          const tables = [...text.matchAll(/(?:from|into|join) "(\w+)"/g)].map((m) => m[1]);
          ran.push([text.split(' ')[0], ...new Set(tables)].join(' '));
          return sqlite.prepare(text);
        },
      },
    });
    const till = await openTill(h, { dbPath: undefined, storage: dialect });
    await signIn(till, shop);
    await till.syncNow();
    h.net.offline = true;
    ran.length = 0;
    const receipt = await till.sell({ lines: ids.map((product_id, k) => ({ product_id, qty: 1 + (k % 2) })), payment_method: 'Cash' });
    const inSale = [...ran];
    await until(() => till.status().pending === 1, 5000, 'the pending count');
    h.net.offline = false;
    expect(receipt.total).toBe(1000 + 2 * 2500 + 3200 + 2 * 1500 + 1500);
    expect(inSale).toEqual([
      'begin',
      // The shop, the till code and user, the cashier's open shift, the 5 products and their stock.
      'select rows meta shifts products stock',
      // The receipt number and the queue's seq, together.
      'insert meta',
      'insert transactions',
      'insert stock',
      'insert queue',
      // The pending count for the till's status, in the transaction rather than a read after it.
      'select queue',
      'commit',
    ]);
    expect(ran.slice(inSale.length)).toEqual([]);
    expect(sqlite.prepare('select qty from stock where product_id = ?').get(shop.unga.id)).toEqual({ qty: 28 });
    await till.close();
  });

  it('asks the server everything through the connector it is given', async () => {
    const shop = await seedShop(h);
    const http = new HttpConnector({ baseUrl: h.base, fetch: h.net.fetch });
    const calls: string[] = [];
    const recording = new Proxy(http, {
      get(target, name: keyof TillConnector) {
        const method = target[name] as (...args: unknown[]) => unknown;
        return (...args: unknown[]) => {
          calls.push(name === 'send' ? `send ${(args[0] as ApiRequest).path}` : name);
          return method.apply(target, args);
        };
      },
    });
    const from = h.net.calls.length;
    const till = await Till.open({
      connector: recording,
      dbPath: ':memory:',
      deviceName: 'Counter 1',
      autoSync: false,
      now: h.t.clock.now,
    });
    await signIn(till, shop);
    await till.syncNow();
    await till.sell({ lines: [{ product_id: shop.unga.id, qty: 1 }], payment_method: 'Cash' });
    expect(await till.syncNow()).toMatchObject({ pushed: 1 });
    // After each sync answer the till asks the connector which protocol the server answered (issue 51).
    const heard = (call: string) => [call, 'serverProtocol'];
    expect(calls).toEqual([
      'send /auth/login',
      'send /sync/devices',
      'send /sync/devices',
      ...['bootstrap', 'pull', 'push', 'pull'].flatMap(heard),
    ]);
    expect(h.net.calls.slice(from)).toEqual([
      'POST /auth/login',
      'POST /sync/devices',
      'POST /sync/devices',
      'GET /sync/bootstrap',
      'GET /sync/pull',
      'POST /sync/push',
      'GET /sync/pull',
    ]);
    await till.close();
  });

  it('keeps the connector to the transport: the sync protocol, refresh, the socket, the probe and one generic send', () => {
    // Every other endpoint is a method of TillApi over `send`: a new one does not widen what a host implements.
    const members = Object.getOwnPropertyNames(HttpConnector.prototype).filter((m) => m !== 'constructor');
    expect(members.sort()).toEqual([
      'bootstrap',
      'bootstrapBytes',
      'ping',
      'pull',
      'push',
      'realtimeUrl',
      'refresh',
      'send',
      'serverProtocol',
    ]);
  });

  it('aborts a request in flight when it closes, and closes promptly', async () => {
    const asked: IncomingMessage[] = [];
    const silent: Server = createServer((req) => void asked.push(req));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(silent.address() as AddressInfo).port}/api/v1`;
    const till = await Till.open({ baseUrl: base, dbPath: ':memory:', deviceName: 'Counter 1', autoSync: false, requestTimeoutMs: 60_000 });
    const login = till.login('0712345678', 'kariakoo1').catch((e: unknown) => e);
    while (!asked.length) await new Promise((r) => setTimeout(r, 5));
    expect(asked[0]!.url).toBe('/api/v1/auth/login');

    const started = Date.now();
    await till.close();
    expect(await login).toMatchObject({ name: 'TillError', code: 'CLOSED', message: 'the till is closed' });
    expect(Date.now() - started).toBeLessThan(1000);
    silent.closeAllConnections();
    await new Promise((resolve) => silent.close(resolve));
  });

  it('sends its protocol version, and when the server refuses it asks for an update, stops syncing and keeps selling', async () => {
    const shop = await seedShop(h);
    const sent: Array<string | null> = [];
    let serverMoved = false;
    const fetch = (input: string, init?: RequestInit) => {
      const headers = new Headers(init?.headers);
      sent.push(headers.get('duka-sync-protocol'));
      // The server's oldest supported version moved past this till's: it speaks 0 as far as the server knows.
      if (serverMoved) headers.set('duka-sync-protocol', '0');
      return h.net.fetch(input, { ...init, headers });
    };
    const till = await openTill(h, { fetch });
    await signIn(till, shop);
    await till.syncNow();
    expect(new Set(sent)).toEqual(new Set(['4']));
    const updates: UpdateRequired[] = [];
    till.on('update-required', (u) => updates.push(u));

    serverMoved = true;
    await till.sell({ lines: [{ product_id: shop.rice.id, qty: 1 }], payment_method: 'Cash' });
    await expect(till.syncNow()).rejects.toMatchObject({ status: 426, code: 'UNSUPPORTED_PROTOCOL' });
    expect(updates).toEqual([
      {
        message: 'sync protocol version 0 is not supported: this server speaks versions 1 to 4; update the till',
        protocol_version: 4,
        server_min_supported: 1,
        server_protocol_version: 4,
      },
    ]);
    expect(till.status()).toMatchObject({
      updateRequired: true,
      pending: 1,
      nextSyncAt: null,
      lastError: { code: 'UNSUPPORTED_PROTOCOL' },
    });

    const asked = sent.length;
    await expect(till.syncNow()).rejects.toMatchObject({ code: 'UNSUPPORTED_PROTOCOL' });
    till.startSync();
    await new Promise((r) => setTimeout(r, 50));
    expect(sent.length).toBe(asked);
    expect(till.status().nextSyncAt).toBeNull();
    const receipt = await till.sell({ lines: [{ product_id: shop.soda.id, qty: 1 }], payment_method: 'Cash' });
    expect(receipt).toMatchObject({ total: 1000, sync_state: 'pending' });
    await until(() => till.status().pending === 2, 2000, 'the sale counted');
    expect(updates).toHaveLength(1);
    await till.close();
  });
});
