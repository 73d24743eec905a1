/**
 * One bad mutation never stops a till's queue (issue 18): a mutation id sent twice in one push, an
 * id another device used, and a write the database itself refuses are each answered on their own,
 * and the rest of the batch is applied.
 */
import { Envelope, newId, PushResponse } from '@duka/shared';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerOwner, type Session } from '../setup/factories.js';
import { createTestApp, type TestApp } from '../setup/test-app.js';

describe('sync: a push answers each mutation on its own', () => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp()));
  afterAll(() => t.close());

  const at = () => new Date(t.clock.now() - 600_000).toISOString();
  const product = async (s: Session, name: string, stock = 20) =>
    (await t.request('POST', '/inventory/products', { token: s.token, body: { name, selling_price: 1000, stock } })).body.data.id as string;
  const mutation = (seq: number, type: string, payload: Record<string, unknown>, id = newId()) => ({
    id,
    seq,
    type,
    created_at: at(),
    payload,
  });
  const sale = (seq: number, productId: string, qty: number, id = newId(), extra: Record<string, unknown> = {}) =>
    mutation(
      seq,
      'sale.create',
      {
        id: newId(),
        client_receipt_number: `T1-${seq}`,
        lines: [{ product_id: productId, qty, unit_price: 1000 }],
        payment_method: 'Cash',
        ...extra,
      },
      id,
    );
  const expense = (seq: number, title: string, id = newId()) =>
    mutation(seq, 'expense.create', { id: newId(), title, category: 'Supplies', amount: 1500 }, id);
  const device = async (s: Session) => {
    const device_id = newId();
    expect((await t.request('POST', '/sync/devices', { token: s.token, body: { device_id, name: 'Till' } })).status).toBe(200);
    return device_id;
  };
  const push = async (s: Session, device_id: string, mutations: unknown[]) => {
    const res = await t.request('POST', '/sync/push', { token: s.token, body: { device_id, mutations } });
    expect(res.status, res.text).toBe(200);
    return Envelope(PushResponse).parse(res.body).data;
  };
  const stockOf = async (s: Session, id: string) =>
    (await t.request('GET', `/inventory/products/${id}`, { token: s.token })).body.data.stock as number;
  const expenseTitles = async (s: Session) =>
    ((await t.request('GET', '/expenses', { token: s.token })).body.data as Array<{ title: string }>).map((e) => e.title).sort();
  const saleCount = async (s: Session) => (await t.request('GET', '/pos/transactions', { token: s.token })).body.meta.total as number;

  it('answers a mutation queued twice in one push as a duplicate of the first, refuses another mutation under a used id, and applies the rest; the batch replays alike', async () => {
    const owner = await registerOwner(t);
    const soda = await product(owner, 'Soda');
    const device_id = await device(owner);
    const first = sale(1, soda, 2);
    const batch = [
      first,
      expense(2, 'Rent'),
      // The same sale queued twice (a till that enqueued it again after a crash), after another mutation.
      { ...first, seq: 3 },
      expense(4, 'Bags', first.id),
      sale(5, soda, 3),
      sale(6, soda, 1, first.id),
      expense(7, 'Water'),
    ];
    const res = await push(owner, device_id, batch);
    expect(res.last_applied_seq).toBe(7);
    expect(res.results.map((r) => [r.seq, r.status, r.error?.code ?? null])).toEqual([
      [1, 'applied', null],
      [2, 'applied', null],
      [3, 'duplicate', null],
      [4, 'rejected', 'IDEMPOTENCY_MISMATCH'],
      [5, 'applied', null],
      [6, 'rejected', 'IDEMPOTENCY_MISMATCH'],
      [7, 'applied', null],
    ]);
    expect(res.results[2]!.result).toEqual(res.results[0]!.result);
    expect(res.results[3]!.error!.message).toBe(
      `mutation id ${first.id} was already used in this push by seq 1 for a different mutation; give this mutation a new id`,
    );
    expect(await stockOf(owner, soda)).toBe(20 - 2 - 3);
    expect(await saleCount(owner)).toBe(2);
    expect(await expenseTitles(owner)).toEqual(['Rent', 'Water']);

    const again = await push(owner, device_id, batch);
    expect(again.results.map((r) => r.status)).toEqual([
      'duplicate',
      'duplicate',
      'duplicate',
      'duplicate',
      'duplicate',
      'duplicate',
      'duplicate',
    ]);
    expect(await stockOf(owner, soda)).toBe(15);
    expect(await saleCount(owner)).toBe(2);
  });

  it('rejects alone a mutation whose id another device used, in a new push or a re-sent one, and applies the rest', async () => {
    const owner = await registerOwner(t);
    const soda = await product(owner, 'Soda');
    const [till1, till2] = [await device(owner), await device(owner)];
    const taken = sale(1, soda, 1);
    expect((await push(owner, till1, [taken])).results[0]!.status).toBe('applied');
    const batch = [sale(1, soda, 2), { ...sale(2, soda, 4), id: taken.id }, sale(3, soda, 3)];
    const res = await push(owner, till2, batch);
    expect(res.results.map((r) => [r.status, r.error?.code ?? null])).toEqual([
      ['applied', null],
      ['rejected', 'CONFLICT'],
      ['applied', null],
    ]);
    expect(res.results[1]!.error!.message).toBe(
      `mutation id ${taken.id} was used by another device of this shop; give this mutation a new id`,
    );
    expect(await stockOf(owner, soda)).toBe(20 - 1 - 2 - 3);
    expect((await push(owner, till2, batch)).results.map((r) => r.status)).toEqual(['duplicate', 'rejected', 'duplicate']);
    expect((await push(owner, till2, [sale(4, soda, 1)])).results[0]!.status).toBe('applied');
  });

  it('rejects alone a mutation the database refuses (a unique constraint the rules did not foresee), an expense or a sale in a run of sales, and applies the rest; REST answers it 409', async () => {
    const owner = await registerOwner(t);
    const soda = await product(owner, 'Soda');
    const device_id = await device(owner);
    await uniqueWhen(t, 'expenses', 'title', 'Refused');
    await uniqueWhen(t, 'transactions', 'notes', 'Refused');
    // The shop already holds the one row each index allows (another shop's would not count: keys are per organisation).
    expect(
      (await t.request('POST', '/expenses', { token: owner.token, body: { title: 'Refused', category: 'Supplies', amount: 100 } })).status,
    ).toBe(200);
    const water = await product(owner, 'Water');
    expect(
      (
        await t.request('POST', '/pos/sale', {
          token: owner.token,
          body: { lines: [{ product_id: water, qty: 1 }], payment_method: 'Cash', notes: 'Refused' },
        })
      ).status,
    ).toBe(201);
    const res = await push(owner, device_id, [
      expense(1, 'Rent'),
      expense(2, 'Refused'),
      sale(3, soda, 1),
      sale(4, soda, 2, newId(), { notes: 'Refused' }),
      sale(5, soda, 4),
      expense(6, 'Water'),
    ]);
    expect(res.results.map((r) => [r.seq, r.status, r.error?.code ?? null])).toEqual([
      [1, 'applied', null],
      [2, 'rejected', 'CONFLICT'],
      [3, 'applied', null],
      [4, 'rejected', 'CONFLICT'],
      [5, 'applied', null],
      [6, 'applied', null],
    ]);
    expect(res.results[1]!.error!.message).toBe('this conflicts with data already stored');
    expect(res.results.filter((r) => r.status === 'applied' && r.result?.receipt_number).map((r) => r.result!.number)).toEqual([2, 3]);
    expect(await stockOf(owner, soda)).toBe(20 - 1 - 4);
    expect(await expenseTitles(owner)).toEqual(['Refused', 'Rent', 'Water']);

    // The same refusal over REST is a 409 in the envelope, not a 500.
    const rest = await t.request('POST', '/expenses', {
      token: owner.token,
      body: { title: 'Refused', category: 'Supplies', amount: 100 },
    });
    expect(rest.status, rest.text).toBe(409);
    expect(rest.body).toMatchObject({
      success: false,
      data: null,
      errors: [{ code: 'CONFLICT', message: 'this conflicts with data already stored' }],
    });
  });
});

/** A constraint of the test's own (a partial unique index, led by org_id as every tenant key is), standing for one the server's rules do not know of. */
async function uniqueWhen(t: TestApp, table: string, column: string, value: string) {
  await sql`create unique index ${sql.raw(`uq_test_${table}`)} on ${sql.raw(table)} (org_id, ${sql.raw(column)}) where ${sql.raw(column)} = ${sql.lit(value)}`.execute(
    t.db.db,
  );
}
