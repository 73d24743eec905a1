/**
 * `GET /sync/ws` over a real port: hello, pokes after committed changes (coalesced), stock and
 * notification messages, who may connect and when the server closes the socket.
 */
import type { ServerType } from '@hono/node-server';
import { PROTOCOL_VERSION } from '@duka/shared';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { attachRealtime, type RealtimeServer } from '../../server/src/sync/ws/attach.js';
import {
  addStore,
  createStaff,
  e164,
  lastMessage,
  mfaAdminToken,
  PASSWORD,
  registerOwner,
  type Session,
  uniquePhone,
} from '../setup/factories.js';
import { checkerFor } from '../setup/openapi-check.js';
import { createTestApp, listen, type TestApp } from '../setup/test-app.js';
import { createTestDb } from '../setup/test-db.js';
import { connect, refusal, type TestSocket, wsUrl } from '../setup/ws-client.js';

describe(`realtime websocket (${process.env.DUKA_TEST_DIALECT ?? 'sqlite'})`, () => {
  let t: TestApp;
  let server: ServerType;
  let realtime: RealtimeServer;
  let http: string;
  let url: string;
  const open: TestSocket[] = [];

  beforeAll(async () => {
    t = await createTestApp();
    ({ server, origin: http } = await listen(t));
    realtime = attachRealtime(server, t.deps, { heartbeatMs: 100 });
    url = wsUrl(http);
  });
  afterEach(async () => {
    await Promise.all(open.splice(0).map((s) => s.close()));
  });
  afterAll(async () => {
    await realtime.close();
    await new Promise((resolve) => server.close(resolve));
    await t.close();
  });

  const till = async (token: string, via?: 'header' | 'query', accept?: string) => {
    const s = await connect(url, token, { via, accept });
    open.push(s);
    return s;
  };
  const versionOf = async (orgId: string) =>
    (await t.db.db.selectFrom('organisations').select('version').where('id', '=', orgId).executeTakeFirstOrThrow()).version;
  const product = async (s: { token: string }, body: Record<string, unknown> = {}) => {
    const res = await t.request('POST', '/inventory/products', {
      token: s.token,
      body: { name: 'Sukari 1kg', selling_price: 3200, stock: 100, ...body },
    });
    expect(res.status, res.text).toBe(200);
    return res.body.data as { id: string };
  };
  const sell = async (s: { token: string }, productId: string, qty = 1) => {
    const res = await t.request('POST', '/pos/sale', {
      token: s.token,
      body: { lines: [{ product_id: productId, qty }], payment_method: 'Cash' },
    });
    expect(res.status, res.text).toBe(201);
    return res.body.data;
  };
  const quiet = (ms = 300) => new Promise((r) => setTimeout(r, ms));

  it('says hello with the organisation’s current version and the protocol version, by header or query token', async () => {
    const owner = await registerOwner(t);
    await product(owner);
    const version = await versionOf(owner.orgId);
    expect(version).toBeGreaterThan(0);
    for (const via of ['header', 'query'] as const) {
      const s = await till(owner.token, via);
      expect(await s.next('hello')).toEqual({ type: 'hello', version, protocol: PROTOCOL_VERSION });
      expect(s.messages[0]?.type).toBe('hello');
    }
  });

  it('pokes within 1 s of a sale made through REST, with a newer version, and sends the new stock level', async () => {
    const owner = await registerOwner(t);
    const p = await product(owner);
    const s = await till(owner.token);
    const hello = await s.next('hello');
    const started = Date.now();
    await sell(owner, p.id, 3);
    // The product's own creation may still be on its way through NOTIFY (poke at the hello's
    // version, stock 100) when the socket opens: what this sale sends comes after it.
    const poke = await s.next('poke', 1000, (m) => m.version > hello.version);
    expect(Date.now() - started).toBeLessThan(1000);
    expect(poke.version).toBe(await versionOf(owner.orgId));
    expect(await s.next('stock', 1000, (m) => m.stock !== 100)).toEqual({ type: 'stock', product_id: p.id, stock: 97 });
  });

  it('sends a sale’s levels as one stocks frame to a till that accepts it, and a stock frame each to an older till', async () => {
    const owner = await registerOwner(t);
    const products = [
      await product(owner, { name: 'Sukari' }),
      await product(owner, { name: 'Chumvi' }),
      await product(owner, { name: 'Unga' }),
    ];
    const [older, newer] = [await till(owner.token), await till(owner.token, 'query', 'stocks')];
    await Promise.all([older.next('hello'), newer.next('hello')]);
    const res = await t.request('POST', '/pos/sale', {
      token: owner.token,
      body: { lines: products.map((p, i) => ({ product_id: p.id, qty: i + 1 })), payment_method: 'Cash' },
    });
    expect(res.status, res.text).toBe(201);
    const levels = products.map((p, i) => ({ product_id: p.id, stock: 99 - i }));
    // The products' creations (100 each) may still be on their way to the new sockets; the sale's levels come after.
    const frame = await newer.next('stocks', 1000, (m) => m.items.some((i) => i.stock < 100));
    expect(new Set(frame.items)).toEqual(new Set(levels));
    expect(frame.items).toHaveLength(3);
    for (const level of levels)
      expect(await older.next('stock', 1000, (m) => m.stock < 100 && m.product_id === level.product_id)).toEqual({
        type: 'stock',
        ...level,
      });
    await quiet();
    expect(newer.messages.filter((m) => m.type === 'stock')).toEqual([]);
    expect(newer.messages.filter((m) => m.type === 'stocks' && m.items.some((i) => i.stock < 100))).toHaveLength(1);
    expect(older.messages.filter((m) => m.type === 'stocks')).toEqual([]);
    expect(older.messages.filter((m) => m.type === 'stock' && m.stock < 100)).toHaveLength(3);
  });

  it('sends a notification posted to the till’s store', async () => {
    const owner = await registerOwner(t);
    const s = await till(owner.token);
    await s.next('hello');
    const res = await t.request('POST', '/notifications', {
      token: owner.token,
      body: { category: 'system', title: 'Karibu', body: 'Habari za leo' },
    });
    expect(res.status, res.text).toBe(200);
    const m = await s.next('notification');
    expect(m.notification).toEqual(res.body.data);
    await s.next('poke');

    // Too big for one NOTIFY (8000 bytes): the receiving side reads it back whole.
    const big = { category: 'system', title: '€'.repeat(200), body: '€'.repeat(2000), link: `/${'€'.repeat(499)}` };
    const large = await t.request('POST', '/notifications', { token: owner.token, body: big });
    expect(large.status, large.text).toBe(200);
    expect((await s.next('notification')).notification).toEqual(large.body.data);
  });

  it('sends every stock level of a large stock movement, in as many fan-out messages as it takes', async () => {
    const owner = await registerOwner(t);
    const products = [];
    for (let i = 0; i < 130; i++) products.push(await product(owner, { name: `Bidhaa ${i}`, stock: 10 }));
    const s = await till(owner.token);
    await s.next('hello');
    const res = await t.request('POST', '/pos/sale', {
      token: owner.token,
      body: { lines: products.map((p) => ({ product_id: p.id, qty: 2 })), payment_method: 'Cash' },
    });
    expect(res.status, res.text).toBe(201);
    await s.next('poke', 2000);
    // The sale's levels (8 each); the last product's creation (10) may still be on its way to this new socket.
    const sold = () => s.messages.flatMap((m) => (m.type === 'stock' && m.stock === 8 ? [`${m.product_id}:${m.stock}`] : []));
    await expect.poll(() => sold().length, { timeout: 3000 }).toBe(products.length);
    expect(new Set(sold())).toEqual(new Set(products.map((p) => `${p.id}:8`)));
    expect(s.messages.filter((m) => m.type === 'stock' && m.stock !== 8 && m.stock !== 10)).toEqual([]);
  });

  it('coalesces pokes in a burst of writes (at most one per 50 ms), the last carrying the final version', async () => {
    const owner = await registerOwner(t);
    const s = await till(owner.token);
    await s.next('hello');
    const started = performance.now();
    const writes = 25;
    for (let i = 0; i < writes; i++) {
      const res = await t.request('POST', '/notifications', { token: owner.token, body: { category: 'system', title: `Ujumbe ${i}` } });
      expect(res.status).toBe(200);
    }
    const elapsed = performance.now() - started;
    const final = await versionOf(owner.orgId);
    await s.next('poke', 2000, (m) => m.version === final);
    await quiet(150);
    const pokes = s.messages.filter((m) => m.type === 'poke').map((m) => m.version);
    expect(pokes.length).toBeLessThan(writes);
    expect(pokes.length).toBeLessThanOrEqual(Math.ceil(elapsed / 50) + 2);
    expect(pokes.at(-1)).toBe(final);
    expect([...pokes].sort((a, b) => a - b)).toEqual(pokes);
    // Every notification still arrives: only pokes are coalesced.
    expect(s.messages.filter((m) => m.type === 'notification')).toHaveLength(writes);
  });

  it('tells a till of another store only of organisation-wide changes, and another organisation nothing', async () => {
    const owner = await registerOwner(t);
    const p = await product(owner);
    const branch = await addStore(t, owner.orgId);
    const switched = await t.request('POST', '/accounts/switch-store', { token: owner.token, body: { store_id: branch.id } });
    expect(switched.status, switched.text).toBe(200);
    // The switch signed the old session out: the home store is signed into afresh.
    const home = {
      token: (await t.request('POST', '/auth/login', { body: { identifier: owner.phone, password: PASSWORD } })).body.data
        .access_token as string,
    };
    const here = await till(home.token);
    const there = await till(switched.body.data.tokens.access_token);
    const stranger = await till((await registerOwner(t)).token);
    await Promise.all([here.next('hello'), there.next('hello'), stranger.next('hello')]);

    await sell(home, p.id);
    await here.next('poke');
    await here.next('stock');
    await quiet();
    expect(there.messages.map((m) => m.type)).toEqual(['hello']);
    expect(stranger.messages.map((m) => m.type)).toEqual(['hello']);

    // A product is organisation-wide: every till of the organisation is poked.
    const res = await t.request('PATCH', `/inventory/products/${p.id}`, { token: home.token, body: { selling_price: 3300 } });
    expect(res.status, res.text).toBe(200);
    const version = await versionOf(owner.orgId);
    expect((await there.next('poke')).version).toBe(version);
    expect((await here.next('poke')).version).toBe(version);
    await quiet();
    expect(stranger.messages.map((m) => m.type)).toEqual(['hello']);
  });

  it('refuses a missing, invalid, expired or signed-out token with 401 before upgrading', async () => {
    const none = await refusal(url);
    expect(none.status).toBe(401);
    expect(none.body).toMatchObject({ success: false, data: null, errors: [{ code: 'UNAUTHENTICATED' }] });
    expect((await refusal(url, { authorization: 'Bearer not-a-token' })).status).toBe(401);
    expect((await refusal(`${url}?access_token=not-a-token`)).status).toBe(401);

    const owner = await registerOwner(t);
    t.clock.advance((t.config.ACCESS_TOKEN_TTL + 1) * 1000);
    const expired = await refusal(url, { authorization: `Bearer ${owner.token}` });
    expect(expired.status).toBe(401);
    expect(expired.body.errors[0].code).toBe('TOKEN_EXPIRED');

    const fresh = await registerOwner(t);
    expect((await t.request('POST', '/auth/logout', { token: fresh.token })).status).toBe(200);
    const revoked = await refusal(url, { authorization: `Bearer ${fresh.token}` });
    expect(revoked).toMatchObject({ status: 401, body: { message: 'this session has been signed out; sign in again' } });
  });

  it('refuses as the document says: each status documented with its code, in the error envelope, with X-Request-Id', async () => {
    const doc = (await t.request('GET', '/openapi.json')).body;
    const documented = doc.paths['/sync/ws'].get.responses;
    const check = checkerFor(doc);
    const owner = await registerOwner(t);
    const phone = uniquePhone();
    expect(
      (
        await t.request('POST', '/accounts/users', {
          token: owner.token,
          body: { first_name: 'Juma', last_name: 'Ali', phone, role: 'staff' },
        })
      ).status,
    ).toBe(200);
    const temporary = (await lastMessage(t, e164(phone)))!.body.match(/temporary password (\S+),/)![1]!;
    const unsettled = (await t.request('POST', '/auth/login', { body: { identifier: phone, password: temporary } })).body.data.access_token;
    const cases = [
      ['UNAUTHENTICATED', await refusal(url)],
      ['FORBIDDEN', await refusal(url, { authorization: `Bearer ${(await mfaAdminToken(t)).token}` })],
      ['PASSWORD_CHANGE_REQUIRED', await refusal(url, { authorization: `Bearer ${unsettled}` })],
    ] as const;
    for (const [code, answer] of cases) {
      const response = documented[String(answer.status)];
      expect(answer.body.errors[0].code, code).toBe(code);
      expect(response?.description, `${code} ${answer.status}`).toContain(`\`${code}\``);
      expect(check.schemaProblems(response.content['application/json'].schema, answer.body), code).toEqual([]);
      expect(answer.headers['x-request-id'], code).toBe(answer.body.meta.request_id);
    }
    // A plain GET is no upgrade: the app answers 404, checked against the document like every test request.
    expect((await t.request('GET', '/sync/ws', { token: owner.token })).status).toBe(404);
    expect(Object.keys(documented)).toEqual(['101', '401', '403', '404', '429', '500', '503']);
  });

  it('destroys upgrade requests for any other path', async () => {
    const owner = await registerOwner(t);
    await expect(connect(wsUrl(http, '/api/v1/sync/other'), owner.token)).rejects.toThrow();
    await expect(connect(wsUrl(http, '/sync/ws'), owner.token)).rejects.toThrow();
  });

  it('closes with 4001 "token expired" when the access token expires', async () => {
    const owner: Session = await registerOwner(t);
    const s = await till(owner.token);
    await s.next('hello');
    t.clock.advance(t.config.ACCESS_TOKEN_TTL * 1000 + 1);
    expect(await s.closed).toEqual({ code: 4001, reason: 'token expired' });
  });

  it('closes with 4003 "session revoked" on logout, and leaves the user’s other sessions open', async () => {
    const owner = await registerOwner(t);
    const other = await till(
      (await t.request('POST', '/auth/login', { body: { identifier: owner.phone, password: PASSWORD } })).body.data.access_token,
    );
    const s = await till(owner.token);
    await Promise.all([s.next('hello'), other.next('hello')]);
    expect((await t.request('POST', '/auth/logout', { token: owner.token })).status).toBe(200);
    expect(await s.closed).toEqual({ code: 4003, reason: 'session revoked' });
    await quiet(200);
    expect(other.ws.readyState).toBe(other.ws.OPEN);
  });

  it('closes the other sessions on a password change, and a deactivated user’s sessions', async () => {
    const owner = await registerOwner(t);
    const staff = await createStaff(t, owner);
    const mine = await till(owner.token);
    const second = await till(
      (await t.request('POST', '/auth/login', { body: { identifier: owner.phone, password: PASSWORD } })).body.data.access_token,
    );
    const staffs = await till(staff.token);
    await Promise.all([mine.next('hello'), second.next('hello'), staffs.next('hello')]);

    const res = await t.request('PATCH', '/accounts/me', {
      token: owner.token,
      body: { password: 'mpya-kabisa-2026', current_password: PASSWORD },
    });
    expect(res.status, res.text).toBe(200);
    expect(await second.closed).toEqual({ code: 4003, reason: 'session revoked' });

    expect((await t.request('DELETE', `/accounts/users/${staff.user.id}`, { token: owner.token })).status).toBe(204);
    expect(await staffs.closed).toEqual({ code: 4003, reason: 'session revoked' });
    expect(mine.ws.readyState).toBe(mine.ws.OPEN);
  });

  it('drops a peer that stops answering pings', async () => {
    const owner = await registerOwner(t);
    const s = await connect(url, owner.token, { ws: { autoPong: false } });
    open.push(s);
    await s.next('hello');
    const { code } = await s.closed;
    expect(code).toBe(1006);
  });

  it('closes every socket with 1001 when the server shuts down', async () => {
    const owner = await registerOwner(t);
    const s = await till(owner.token);
    await s.next('hello');
    expect(realtime.connections()).toBeGreaterThan(0);
    await realtime.close();
    expect(await s.closed).toEqual({ code: 1001, reason: 'server shutting down' });
    expect(realtime.connections()).toBe(0);
  });
});

describe(`DbHandle publish/subscribe (${process.env.DUKA_TEST_DIALECT ?? 'sqlite'})`, () => {
  it('delivers what is published to every subscriber of the channel and to no other channel', async () => {
    const db = await createTestDb();
    try {
      const got: string[] = [];
      const other: string[] = [];
      const off = await db.subscribe('duka_test', (p) => got.push(p));
      await db.subscribe('duka_test', (p) => got.push(`second:${p}`));
      await db.subscribe('duka_other', (p) => other.push(p));
      await db.publish('duka_test', 'eins');
      await expect.poll(() => got.length).toBe(2);
      expect(got.sort()).toEqual(['eins', 'second:eins']);
      await off();
      await db.publish('duka_test', 'zwei');
      await expect.poll(() => got).toContain('second:zwei');
      expect(got).not.toContain('zwei');
      expect(other).toEqual([]);
      // NOTIFY's payload limit holds on both databases, so code that works on one works on the other.
      await expect(db.publish('duka_test', 'x'.repeat(8000))).rejects.toThrow(/over 7999 bytes/);
      await expect(db.publish('not a channel', 'x')).rejects.toThrow(/channel/);
    } finally {
      await db.drop();
    }
  });
});
