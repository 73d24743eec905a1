/**
 * A pushed batch is reconciled as a set (issue 17): sales are read, worked out and written
 * together, yet each mutation keeps its own fate and the results come back in order, exactly as
 * if they had been applied one by one.
 */
import { Envelope, newId, PushResponse } from '@duka/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerOwner, type Session } from '../setup/factories.js';
import { createTestApp, type TestApp } from '../setup/test-app.js';
import { DIALECT } from '../setup/test-db.js';
import { STATEMENTS_HEADER } from '../../server/src/db/statement-count.js';
import { iso } from '../../server/src/lib/clock.js';

describe('sync: a mixed batch pushed at once', () => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp()));
  afterAll(() => t.close());

  const product = async (s: Session, name: string, price: number) =>
    (await t.request('POST', '/inventory/products', { token: s.token, body: { name, selling_price: price, stock: 20 } })).body.data as {
      id: string;
    };
  const mutation = (seq: number, type: string, payload: Record<string, unknown>) => ({
    id: newId(),
    seq,
    type,
    created_at: new Date(t.clock.now() - 600_000 + seq * 1000).toISOString(),
    payload,
  });
  const sale = (seq: number, lines: Array<{ product_id: string; qty: number; unit_price: number }>, extra: Record<string, unknown> = {}) =>
    mutation(seq, 'sale.create', { id: newId(), client_receipt_number: `T1-${seq}`, lines, payment_method: 'Cash', ...extra });
  const push = async (s: Session, device_id: string, mutations: unknown[]) => {
    const res = await t.request('POST', '/sync/push', { token: s.token, body: { device_id, mutations } });
    expect(res.status, res.text).toBe(200);
    return Envelope(PushResponse).parse(res.body).data;
  };
  const get = async (s: Session, path: string) => (await t.request('GET', path, { token: s.token })).body.data;

  it('books valid sales, refunds and voids what came earlier in the batch, takes a payment, rejects the broken one alone, and replays exactly', async () => {
    const owner = await registerOwner(t);
    const soda = await product(owner, 'Soda', 1000);
    const sugar = await product(owner, 'Sugar 1kg', 2000);
    const device_id = newId();
    expect((await t.request('POST', '/sync/devices', { token: owner.token, body: { device_id, name: 'Till 1' } })).status).toBe(200);
    const asha = newId();
    const a = sale(2, [{ product_id: soda.id, qty: 2, unit_price: 1000 }]);
    const e = sale(7, [{ product_id: sugar.id, qty: 1, unit_price: 2000 }]);
    const batch = [
      mutation(1, 'customer.upsert', { id: asha, name: 'Asha', phone: '0712345678', credit_limit: 10000 }),
      a,
      sale(3, [{ product_id: sugar.id, qty: 3, unit_price: 2000 }], { payment_method: 'Credit', customer_id: asha }),
      // A product this shop does not have: rejected alone, and it takes no receipt number.
      sale(4, [{ product_id: newId(), qty: 1, unit_price: 500 }]),
      // On credit past Asha's limit (6,000 owed + 5,000 > 10,000): the sale happened, booked with a conflict.
      sale(5, [{ product_id: soda.id, qty: 5, unit_price: 1000 }], { payment_method: 'Credit', customer_id: asha }),
      mutation(6, 'sale.refund', { transaction_id: a.payload.id, reason: 'broken bottle' }),
      e,
      mutation(8, 'sale.void', { transaction_id: e.payload.id, reason: 'rang up twice' }),
      mutation(9, 'credit.payment', { id: newId(), customer_id: asha, amount: 3000, method: 'Cash' }),
      sale(10, [{ product_id: soda.id, qty: 1, unit_price: 1000 }]),
    ];
    const first = await push(owner, device_id, batch);
    expect(first.last_applied_seq).toBe(10);
    expect(first.results.map((r) => [r.seq, r.status])).toEqual([
      [1, 'applied'],
      [2, 'applied'],
      [3, 'applied'],
      [4, 'rejected'],
      [5, 'applied'],
      [6, 'applied'],
      [7, 'applied'],
      [8, 'applied'],
      [9, 'applied'],
      [10, 'applied'],
    ]);
    expect(first.results[3]!.error).toEqual({ code: 'NOT_FOUND', message: 'product not found' });
    const receipts = first.results
      .filter((r) => r.result?.receipt_number)
      .map((r) => [r.result!.number, r.result!.status, r.result!.total]);
    expect(receipts).toEqual([
      [1, 'paid', 2000],
      [2, 'credit', 6000],
      [3, 'credit', 5000],
      [4, 'paid', 2000],
      [5, 'paid', 1000],
    ]);
    expect(first.results[4]!.conflicts).toEqual([{ kind: 'credit_limit', message: expect.stringContaining('Asha') }]);
    expect(first.results[5]!.result).toEqual({ transaction_id: a.payload.id, status: 'refunded' });
    expect(first.results[7]!.result).toEqual({ transaction_id: e.payload.id, status: 'void' });

    // Soda: 20 − 2 − 5 + 2 (refund) − 1 = 14. Sugar: 20 − 3 − 1 + 1 (void) = 17. Asha: 6,000 + 5,000 − 3,000.
    expect((await get(owner, `/inventory/products/${soda.id}`)).stock).toBe(14);
    expect((await get(owner, `/inventory/products/${sugar.id}`)).stock).toBe(17);
    expect((await get(owner, `/customers/${asha}`)).outstanding_balance).toBe(8000);
    const conflicts = (await t.request('GET', '/sync/conflicts', { token: owner.token })).body.data as Array<{
      kind: string;
      mutation_id: string;
    }>;
    expect(conflicts.map((c) => [c.kind, c.mutation_id])).toEqual([['credit_limit', batch[4]!.id]]);

    // The reply was lost: the same batch again answers the same results and changes nothing.
    const again = await push(owner, device_id, batch);
    expect(again.results.map((r) => r.status)).toEqual(Array(10).fill('duplicate'));
    expect(again.results.map((r) => r.result)).toEqual(first.results.map((r) => r.result));
    expect(again.results[3]!.error).toEqual(first.results[3]!.error);

    // The till resends its last mutation with a new one behind it: the replayed seq answers its result, the new one is booked next.
    const next = await push(owner, device_id, [batch[9], sale(11, [{ product_id: soda.id, qty: 1, unit_price: 1000 }])]);
    expect(next.results.map((r) => [r.seq, r.status, r.result?.number])).toEqual([
      [10, 'duplicate', 5],
      [11, 'applied', 6],
    ]);
    expect((await get(owner, `/inventory/products/${soda.id}`)).stock).toBe(13);
    expect((await t.request('GET', '/pos/transactions', { token: owner.token })).body.meta.total).toBe(6);
  });

  it('gives each of two sales of the last units in one batch its own figures: the second is oversold, stock goes below zero once', async () => {
    const owner = await registerOwner(t);
    const soda = await product(owner, 'Soda', 1000);
    const device_id = newId();
    await t.request('POST', '/sync/devices', { token: owner.token, body: { device_id, name: 'Till 1' } });
    const res = await push(owner, device_id, [
      sale(1, [{ product_id: soda.id, qty: 15, unit_price: 1000 }]),
      sale(2, [{ product_id: soda.id, qty: 8, unit_price: 1000 }]),
    ]);
    expect(res.results.map((r) => r.conflicts ?? [])).toEqual([
      [],
      [{ kind: 'oversold', product_id: soda.id, message: 'Soda sold 8 with 5 in stock' }],
    ]);
    expect((await get(owner, `/inventory/products/${soda.id}`)).stock).toBe(-3);
  });

  it('creates a new customer once for two sales to the same new phone in one batch, and books a sale id sent twice once', async () => {
    const owner = await registerOwner(t);
    const soda = await product(owner, 'Soda', 1000);
    const device_id = newId();
    await t.request('POST', '/sync/devices', { token: owner.token, body: { device_id, name: 'Till 1' } });
    const first = sale(1, [{ product_id: soda.id, qty: 1, unit_price: 1000 }], { customer_phone: '0754111222', customer_name: 'Neema' });
    // The till retried a sale under a new mutation id: the same sale id is booked once.
    const again = { ...sale(3, [{ product_id: soda.id, qty: 1, unit_price: 1000 }]), payload: first.payload };
    const res = await push(owner, device_id, [
      first,
      sale(2, [{ product_id: soda.id, qty: 2, unit_price: 1000 }], { customer_phone: '+255754111222' }),
      again,
    ]);
    expect(res.results.map((r) => [r.status, r.result?.number])).toEqual([
      ['applied', 1],
      ['applied', 2],
      ['applied', 1],
    ]);
    expect(res.results[2]!.result!.transaction_id).toBe(first.payload.id);
    const customers = (await t.request('GET', '/customers?search=Neema', { token: owner.token })).body.data.items as Array<{
      id: string;
      phone: string;
    }>;
    expect(customers.map((c) => c.phone)).toEqual(['+255754111222']);
    const sales = (await t.request('GET', '/pos/transactions', { token: owner.token })).body.data as Array<{
      customer_id: string | null;
      total: number;
    }>;
    expect(sales.map((x) => [x.customer_id, x.total]).sort()).toEqual([
      [customers[0]!.id, 1000],
      [customers[0]!.id, 2000],
    ]);
    expect((await get(owner, `/inventory/products/${soda.id}`)).stock).toBe(17);
  });

  it('runs as many SQL statements for a push of 60 sales as for a push of 3: the cost grows with the rows, not the round trips', async () => {
    const counted = await createTestApp({ config: { COUNT_STATEMENTS: true } });
    try {
      const owner = await registerOwner(counted);
      const ids: string[] = [];
      for (const [i, name] of ['Soda', 'Bread', 'Milk'].entries()) {
        ids.push(
          (
            await counted.request('POST', '/inventory/products', {
              token: owner.token,
              body: { name, selling_price: 1000 * (i + 1), stock: 500 },
            })
          ).body.data.id,
        );
      }
      const statements = async (sales: number, from: number) => {
        const device_id = newId();
        await counted.request('POST', '/sync/devices', { token: owner.token, body: { device_id, name: `Till ${from}` } });
        const mutations = Array.from({ length: sales }, (_, k) => ({
          id: newId(),
          seq: k + 1,
          type: 'sale.create',
          created_at: new Date(counted.clock.now() - 60_000).toISOString(),
          payload: {
            id: newId(),
            client_receipt_number: `T${from}-${k + 1}`,
            lines: ids.map((product_id, i) => ({ product_id, qty: 1 + (k % 2), unit_price: 1000 * (i + 1) })),
            payment_method: 'Cash',
          },
        }));
        const res = await counted.request('POST', '/sync/push', { token: owner.token, body: { device_id, mutations } });
        expect(res.body.data.results.filter((r: { status: string }) => r.status === 'applied')).toHaveLength(sales);
        return Number(res.headers.get(STATEMENTS_HEADER));
      };
      const few = await statements(3, 1);
      expect(await statements(60, 2)).toBe(few);
      // The device; begin; its lock; what the mutations became; the sales' savepoint, 2 reads of
      // their catalogue (products, prices: no user's name, the till names no other cashier, issue 53),
      // 2 of what they need (sales of these ids, shifts), the store's lock (with the organisation's
      // settings, issue 53) and the stock's; their writes; the
      // release; the results with the device's seq; the change log; commit. Their writes (the store's
      // counter, stock, sales, lines, their payment parts, events and audit entries), the results with
      // the seq, and the change log's version with its rows are one statement each on PostgreSQL
      // (issue 49), 7, 2 and 2 on SQLite.
      expect(few).toBe(DIALECT === 'postgres' ? 16 : 24);
      // Quantities alternate 1, 2: the push of 3 sold 1 + 2 + 1, the push of 60 thirty times 1 + 2.
      const stock = (await counted.request('GET', `/inventory/products/${ids[0]}`, { token: owner.token })).body.data.stock;
      expect(stock).toBe(500 - (1 + 2 + 1) - 30 * (1 + 2));
    } finally {
      await counted.close();
    }
  });

  it('answers a re-sent batch from the recorded results in two reads, writing nothing, and marks the device seen at most once a minute', async () => {
    const counted = await createTestApp({ config: { COUNT_STATEMENTS: true } });
    try {
      const owner = await registerOwner(counted);
      const soda = (
        await counted.request('POST', '/inventory/products', { token: owner.token, body: { name: 'Soda', selling_price: 1000, stock: 3 } })
      ).body.data.id as string;
      const device_id = newId();
      await counted.request('POST', '/sync/devices', { token: owner.token, body: { device_id, name: 'Till 1' } });
      const at = new Date(counted.clock.now() - 60_000).toISOString();
      const mutations = [1, 2, 3].map((seq) => ({
        id: newId(),
        seq,
        type: 'sale.create',
        created_at: at,
        // The second is refused; the third oversells (2 + 2 of 3): booked with a conflict, which the replay must repeat.
        payload: {
          id: newId(),
          client_receipt_number: `T1-${seq}`,
          lines: [{ product_id: soda, qty: 2, unit_price: seq === 2 ? 900 : 1000 }],
          payment_method: seq === 2 ? 'Bogus' : 'Cash',
        },
      }));
      const send = (body: unknown) => counted.request('POST', '/sync/push', { token: owner.token, body });
      const first = await send({ device_id, mutations });
      expect(first.body.data.results.map((r: { status: string }) => r.status)).toEqual(['applied', 'rejected', 'applied']);
      const seenAt = async () =>
        (await counted.db.db.selectFrom('devices').select('last_seen_at').where('id', '=', device_id).executeTakeFirstOrThrow())
          .last_seen_at;
      const firstSeen = await seenAt();

      counted.clock.advance(30_000);
      const again = await send({ device_id, mutations });
      expect(again.status, again.text).toBe(200);
      // The device, then what its mutations became: no transaction, no write.
      expect(again.headers.get(STATEMENTS_HEADER)).toBe('2');
      expect(again.body.data).toEqual({
        server_time: iso(counted.clock.now()),
        last_applied_seq: 3,
        results: first.body.data.results.map((r: Record<string, unknown>) => ({ ...r, status: 'duplicate' })),
      });
      expect(again.body.data.results[2].conflicts.map((c: { kind: string }) => c.kind)).toEqual(['oversold']);
      expect(await seenAt()).toBe(firstSeen);
      // A replay that reuses a seq for another mutation is told so, still without writing.
      const reused = await send({ device_id, mutations: [{ ...mutations[0], id: newId() }] });
      expect(reused.body.data.results[0]).toMatchObject({
        status: 'rejected',
        error: { code: 'CONFLICT', message: expect.stringContaining('seq 1 was already used') },
      });
      expect((await counted.db.db.selectFrom('transactions').select('id').where('store_id', '=', owner.storeId).execute()).length).toBe(2);

      counted.clock.advance(60_000);
      await send({ device_id, mutations: mutations.slice(0, 1) });
      expect(await seenAt()).toBe(firstSeen! + 90_000);
    } finally {
      await counted.close();
    }
  });
});
