import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { afterEach, describe, expect, it } from 'vitest';
import { countStatements, DB_MS_HEADER, DB_WAIT_MS_HEADER, STATEMENTS_HEADER } from '../../server/src/db/statement-count.js';
import { createTestApp, type TestApp } from '../setup/test-app.js';
import { createTestDb } from '../setup/test-db.js';
import { registerOwner, type Session } from '../setup/factories.js';
import { CLOSED_TRA, fiscaliseStore } from '../setup/fiscal-device.js';

describe('statements per request (COUNT_STATEMENTS)', () => {
  let t: TestApp;
  afterEach(() => t.close());

  it('answers how many SQL statements a request ran, each request its own count', async () => {
    t = await createTestApp({ config: { COUNT_STATEMENTS: true } });
    const owner = await registerOwner(t);
    // The first request of a session also checks it is still signed in: one read of refresh_tokens.
    const first = await t.request('GET', '/accounts/me', { token: owner.token });
    expect(first.status).toBe(200);
    expect(first.headers.get(STATEMENTS_HEADER)).toBe('5');
    // Then the session is trusted for a few seconds: the user, the organisation, the store, the stores.
    const again = await Promise.all(Array.from({ length: 5 }, () => t.request('GET', '/accounts/me', { token: owner.token })));
    expect(again.map((r) => r.headers.get(STATEMENTS_HEADER))).toEqual(['4', '4', '4', '4', '4']);
    const none = await t.request('GET', '/meta/business-types');
    expect(none.headers.get(STATEMENTS_HEADER)).toBe('0');
    expect([none.headers.get(DB_MS_HEADER), none.headers.get(DB_WAIT_MS_HEADER)]).toEqual(['0.0', '0.0']);
    // Beside the count, the time its statements took and the time it waited for the database.
    const [ms, wait] = [Number(first.headers.get(DB_MS_HEADER)), Number(first.headers.get(DB_WAIT_MS_HEADER))];
    expect(ms).toBeGreaterThan(0);
    expect(wait).toBeGreaterThanOrEqual(0);
  });

  it('counts a transaction with its begin and commit, and refused requests too', async () => {
    t = await createTestApp({ config: { COUNT_STATEMENTS: true } });
    const owner = await registerOwner(t);
    await t.request('GET', '/accounts/me', { token: owner.token });
    const created = await t.request('POST', '/stores', { token: owner.token, body: { name: 'Duka la Pili', code: 'PILI' } });
    expect(created.status, created.text).toBe(200);
    // Look the code up; read the plans and the subscription (plan limits: this test's free plan has
    // no store limit, so nothing is counted); begin; insert the store and its audit row; take the
    // organisation's next change-log version and insert the change-log row (one statement on
    // PostgreSQL, issue 49); commit.
    expect(created.headers.get(STATEMENTS_HEADER)).toBe(process.env.DUKA_TEST_DIALECT === 'postgres' ? '8' : '9');
    const taken = await t.request('POST', '/stores', { token: owner.token, body: { name: 'Duka la Tatu', code: 'PILI' } });
    expect(taken.status).toBe(409);
    // Refused on the code lookup, before any transaction.
    expect(taken.headers.get(STATEMENTS_HEADER)).toBe('1');
  });

  it('answers the header over real HTTP too, with the body unchanged', async () => {
    t = await createTestApp({ config: { COUNT_STATEMENTS: true } });
    const server = await new Promise<ServerType>((resolve) => {
      const s = serve({ fetch: t.app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
    });
    try {
      const { port } = server.address() as AddressInfo;
      const res = await fetch(`http://127.0.0.1:${port}/api/v1/openapi.json`);
      const text = await res.text();
      expect(res.headers.get(STATEMENTS_HEADER)).toBe('0');
      expect(text.length).toBeGreaterThan(100_000);
      expect(text).toBe((await t.request('GET', '/openapi.json')).text);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('is absent when the server is not counting', async () => {
    t = await createTestApp();
    const owner = await registerOwner(t);
    const me = await t.request('GET', '/accounts/me', { token: owner.token });
    expect(me.status).toBe(200);
    expect(me.headers.has(STATEMENTS_HEADER)).toBe(false);
    expect(me.headers.has(DB_MS_HEADER)).toBe(false);
  });

  it('counts two statements more for a sale in a fiscalising store: its device counters (read and moved on in one) and its receipt', async () => {
    t = await createTestApp({ config: { COUNT_STATEMENTS: true, TRA_TEST_URL: CLOSED_TRA } });
    const [plain, fiscal] = [await registerOwner(t), await registerOwner(t)];
    await fiscaliseStore(t, fiscal);
    const sell = async (s: Session) => {
      await t.request('GET', '/accounts/me', { token: s.token });
      const made = await t.request('POST', '/inventory/products', {
        token: s.token,
        body: { name: 'Sukari', selling_price: 3500, stock: 10 },
      });
      const sold = await t.request('POST', '/pos/sale', {
        token: s.token,
        body: { lines: [{ product_id: made.body.data.id, qty: 1 }], payment_method: 'Cash' },
      });
      expect(sold.status, sold.text).toBe(201);
      return { statements: Number(sold.headers.get(STATEMENTS_HEADER)), fiscal: sold.body.data.fiscal };
    };
    const [a, b] = [await sell(plain), await sell(fiscal)];
    await t.deps.fiscal.idle();
    expect(a.fiscal).toBeNull();
    expect(b.fiscal).toMatchObject({ gc: 1, dc: 1 });
    expect(b.statements - a.statements).toBe(2);
  });
});

describe('statement counting under a shared commit', () => {
  it("keeps each request's own statements when concurrent transactions share a commit", async () => {
    const db = await createTestDb({ countStatements: true });
    try {
      const twoReads = () =>
        countStatements(() =>
          db.transact(
            async (trx) =>
              void (await trx.selectFrom('stores').select('id').execute(), await trx.selectFrom('users').select('id').execute()),
          ),
        );
      const counts = await Promise.all([twoReads(), twoReads(), twoReads()]);
      if (db.dialect === 'sqlite') {
        // SQLite's group commit runs the three in one transaction, opened from the first one's async
        // context: each counts its own two reads; the opener also counts begin, commit and the
        // savepoint and release around each unit it ran. On a loaded machine the first unit can
        // outlast the shared transaction's 25 ms budget, and the other two share the next one (their
        // begin and commit then counted to the drain's context, which has ended): 6, not 10.
        expect(counts.slice(1)).toEqual([2, 2]);
        expect([6, 10]).toContain(counts[0]);
      } else {
        // Postgres: three transactions of begin, two reads and commit.
        expect(counts).toEqual([4, 4, 4]);
      }
    } finally {
      await db.drop();
    }
  });
});
