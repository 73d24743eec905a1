import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STATEMENTS_HEADER } from '../../server/src/db/statement-count.js';
import { createStaff, registerOwner, type Session } from '../setup/factories.js';
import { createTestApp, type TestApp } from '../setup/test-app.js';

/**
 * Online sales of one store that arrive together are written together (sell-online.ts): each one
 * must still be exactly the sale its own request asked for, refused alone when it breaks a rule.
 */
describe('POST /pos/sale: concurrent sales of one store', () => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp({ config: { COUNT_STATEMENTS: true } })));
  afterAll(() => t.close());

  const product = async (s: { token: string }, body: Record<string, unknown>) => {
    const res = await t.request('POST', '/inventory/products', { token: s.token, body });
    expect(res.status, res.text).toBe(200);
    return res.body.data as { id: string; name: string };
  };
  const sell = (s: { token: string }, body: Record<string, unknown>, headers?: Record<string, string>) =>
    t.request('POST', '/pos/sale', { token: s.token, body, headers });
  const stockOf = async (s: { token: string }, id: string) =>
    (await t.request('GET', `/inventory/products/${id}`, { token: s.token })).body.data.stock as number;

  it('books 30 concurrent sales of three people exactly: gapless numbers, stock, cashier, discount rights and refusals each their own', async () => {
    const owner = await registerOwner(t, { shop: { name: 'Duka la Pamoja' } });
    const withDiscount = await createStaff(t, owner, { can_discount: true });
    const plain = await createStaff(t, owner);
    const sugar = await product(owner, { name: 'Sukari 1kg', selling_price: 3200, stock: 20 });
    const soap = await product(owner, { name: 'Sabuni', selling_price: 1500, stock: 1000 });
    const people: Array<[string, Session | { token: string }, string]> = [
      ['owner', owner, owner.userId],
      ['discount', withDiscount, withDiscount.user.id],
      ['plain', plain, plain.user.id],
    ];
    // 30 sales at once: each asks for 1 sugar and 2 soap, every third with a 10 % discount. Sugar
    // runs out after 20 units, so some are refused for stock; the plain cashier's discounts are
    // refused for the permission. Each answer must be its own request's.
    const asked = Array.from({ length: 30 }, (_, i) => {
      const [who, session, userId] = people[i % 3]!;
      return { i, who, userId, session, discount: i % 5 === 0 ? 10 : 0 };
    });
    const answers = await Promise.all(
      asked.map((a) =>
        sell(a.session, {
          lines: [
            { product_id: sugar.id, qty: 1 },
            { product_id: soap.id, qty: 2 },
          ],
          payment_method: 'Cash',
          discount_pct: a.discount,
          notes: `sale ${a.i}`,
        }),
      ),
    );

    const booked = answers.flatMap((res, i) => (res.status === 201 ? [{ asked: asked[i]!, sale: res.body.data }] : []));
    for (const [i, res] of answers.entries()) {
      const a = asked[i]!;
      if (a.who === 'plain' && a.discount > 0) {
        expect(res.status, res.text).toBe(403);
        expect(res.body.errors[0]).toMatchObject({ field: 'discount_pct' });
      } else if (res.status !== 201) {
        expect(res.status, res.text).toBe(409);
        expect(res.body.error?.code ?? res.body.errors?.[0]?.code ?? res.body.message).toBeTruthy();
        expect(res.text).toContain('Sukari 1kg');
      }
    }
    const refusedForStock = answers.filter((r, i) => r.status === 409 && !(asked[i]!.who === 'plain' && asked[i]!.discount > 0)).length;
    // Sales allowed by the rules: 30 less the plain cashier's discounts (i = 0..29, i % 3 = 2 and i % 5 = 0: i = 5, 20).
    expect(booked.length + refusedForStock).toBe(28);
    expect(booked.length).toBe(20);
    for (const { asked: a, sale } of booked) {
      expect(sale.cashier_id).toBe(a.userId);
      expect(sale.notes).toBe(`sale ${a.i}`);
      // 3,200 + 2 × 1,500 = 6,200, less the discount.
      expect(sale.total).toBe(a.discount ? 5580 : 6200);
    }
    expect(booked.map((b) => b.sale.number).sort((x, y) => x - y)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(new Set(booked.map((b) => b.sale.receipt_number)).size).toBe(20);
    expect(await stockOf(owner, sugar.id)).toBe(0);
    expect(await stockOf(owner, soap.id)).toBe(1000 - 40);
    const store = await t.db.db.selectFrom('stores').select('last_number').where('id', '=', owner.storeId).executeTakeFirstOrThrow();
    expect(store.last_number).toBe(20);
    // The trail names who made each sale, not whoever's request happened to write the batch.
    const audits = await t.db.db
      .selectFrom('audit_log')
      .select(['entity_id', 'user_id'])
      .where('action', '=', 'sale.create')
      .where('org_id', '=', owner.orgId)
      .execute();
    expect(new Map(audits.map((a) => [a.entity_id, a.user_id]))).toEqual(new Map(booked.map((b) => [b.sale.id, b.asked.userId])));
    // Written together: fewer statements than one sale's 14 each (the store's queue formed behind the first).
    const statements = answers.reduce((n, r) => n + Number(r.headers.get(STATEMENTS_HEADER)), 0);
    expect(statements).toBeLessThan(30 * 14);
  });

  it('keeps each Idempotency-Key with its own sale when keyed sales are written together, and replays each', async () => {
    const owner = await registerOwner(t);
    const oil = await product(owner, { name: 'Mafuta 1L', selling_price: 4500, stock: 100 });
    const body = (n: number) => ({ lines: [{ product_id: oil.id, qty: n }], payment_method: 'M-Pesa' });
    const first = await Promise.all([1, 2, 3, 4, 5, 6].map((n) => sell(owner, body(n), { 'idempotency-key': `key-${n}` })));
    expect(first.map((r) => r.status)).toEqual([201, 201, 201, 201, 201, 201]);
    expect(first.map((r) => r.body.data.total)).toEqual([4500, 9000, 13500, 18000, 22500, 27000]);
    const again = await Promise.all([1, 2, 3, 4, 5, 6].map((n) => sell(owner, body(n), { 'idempotency-key': `key-${n}` })));
    expect(again.map((r) => r.headers.get('idempotent-replayed'))).toEqual(Array(6).fill('true'));
    expect(again.map((r) => r.body.data.id)).toEqual(first.map((r) => r.body.data.id));
    expect(await stockOf(owner, oil.id)).toBe(100 - 21);
    // A key whose sale was refused is freed: the same key works once the sale can be made.
    const short = await Promise.all([
      sell(owner, body(70), { 'idempotency-key': 'big' }),
      sell(owner, body(70), { 'idempotency-key': 'big-2' }),
    ]);
    expect(short.map((r) => r.status).sort()).toEqual([201, 409]);
    const refusedKey = short[0]!.status === 409 ? 'big' : 'big-2';
    await t.request('POST', `/inventory/products/${oil.id}/adjust`, { token: owner.token, body: { qty_change: 70, reason: 'restock' } });
    const retried = await sell(owner, body(70), { 'idempotency-key': refusedKey });
    expect(retried.status, retried.text).toBe(201);
    expect(await stockOf(owner, oil.id)).toBe(100 - 21 - 140 + 70);
  });

  it("writes each sale alone when the batch's transaction fails at the database: the others are booked", async () => {
    const owner = await registerOwner(t);
    const tea = await product(owner, { name: 'Chai', selling_price: 800, stock: 50 });
    // A database fault on one sale's row (the database refuses it, as a full disk or a lost
    // connection would), not a rule: the sales that shared its transaction must not go down with it.
    if (t.dialect === 'sqlite') {
      await sql`create trigger refuse_boom before insert on transactions when new.notes = 'boom' begin select raise(abort, 'disk trouble'); end`.execute(
        t.db.db,
      );
    } else {
      await sql`create function refuse_boom() returns trigger language plpgsql as $$ begin if new.notes = 'boom' then raise exception 'disk trouble'; end if; return new; end $$`.execute(
        t.db.db,
      );
      await sql`create trigger refuse_boom before insert on transactions for each row execute function refuse_boom()`.execute(t.db.db);
    }
    try {
      const notes = ['a', 'b', 'boom', 'c', 'd', 'e'];
      const answers = await Promise.all(
        notes.map((n) => sell(owner, { lines: [{ product_id: tea.id, qty: 1 }], payment_method: 'Cash', notes: n })),
      );
      expect(answers.map((r) => r.status)).toEqual([201, 201, 500, 201, 201, 201]);
      expect(answers[2]!.text).not.toContain('disk trouble');
      expect(
        answers
          .filter((r) => r.status === 201)
          .map((r) => r.body.data.number)
          .sort(),
      ).toEqual([1, 2, 3, 4, 5]);
      expect(await stockOf(owner, tea.id)).toBe(45);
    } finally {
      await sql`drop trigger refuse_boom ${sql.raw(t.dialect === 'postgres' ? 'on transactions' : '')}`.execute(t.db.db);
    }
  });
});
