/**
 * Pushes of one store that arrive together are written in one transaction (issue 39), each keeping
 * its own answer, seq and idempotency: a push refused is refused alone, and re-sent pushes answer
 * what they became without doubling anything.
 */
import { Envelope, newId, PushResponse } from '@duka/shared';
import { afterEach, describe, expect, it } from 'vitest';
import { registerOwner, type Session } from '../setup/factories.js';
import { createTestApp, type TestApp } from '../setup/test-app.js';
import { createTestDb } from '../setup/test-db.js';
import { STATEMENTS_HEADER } from '../../server/src/db/statement-count.js';

describe('sync: pushes of one store written together', () => {
  let t: TestApp;
  afterEach(() => t.close());

  const DEVICES = 6;
  const SALES = 20;

  async function shop(): Promise<{ owner: Session; products: string[]; devices: string[] }> {
    const owner = await registerOwner(t);
    const products: string[] = [];
    for (const name of ['Soda', 'Sugar', 'Bread']) {
      const res = await t.request('POST', '/inventory/products', { token: owner.token, body: { name, selling_price: 1000, stock: 1_000 } });
      products.push(res.body.data.id);
    }
    const devices = Array.from({ length: DEVICES }, () => newId());
    for (const [i, device_id] of devices.entries()) {
      const reg = await t.request('POST', '/sync/devices', { token: owner.token, body: { device_id, name: `Till ${i + 1}` } });
      expect(reg.status, reg.text).toBe(200);
    }
    return { owner, products, devices };
  }

  /** `count` sales of one unit of each product, seqs from `first`. */
  const sales = (d: number, first: number, count: number, products: string[]) =>
    Array.from({ length: count }, (_, i) => ({
      id: newId(),
      seq: first + i,
      type: 'sale.create',
      created_at: new Date(t.clock.now() - 600_000 + i * 1000).toISOString(),
      payload: {
        id: newId(),
        client_receipt_number: `T${d}-${first + i}`,
        lines: products.map((product_id) => ({ product_id, qty: 1, unit_price: 1000 })),
        payment_method: 'Cash',
      },
    }));

  const push = (s: Session, device_id: string, mutations: unknown[]) =>
    t.request('POST', '/sync/push', { token: s.token, body: { device_id, mutations } });
  const answer = (res: { status: number; body: unknown; text: string }) => {
    expect(res.status, res.text).toBe(200);
    return Envelope(PushResponse).parse(res.body).data;
  };
  const stockOf = async (s: Session, id: string) =>
    (await t.request('GET', `/inventory/products/${id}`, { token: s.token })).body.data.stock as number;
  const saleCount = async (s: Session) => (await t.request('GET', '/pos/transactions', { token: s.token })).body.meta.total as number;

  it('answers each of many tills pushing at once exactly, and answers their re-sends as duplicates with nothing doubled', async () => {
    t = await createTestApp();
    const { owner, products, devices } = await shop();
    const batches = devices.map((_, d) => sales(d, 1, SALES, products));
    const first = await Promise.all(devices.map((device_id, d) => push(owner, device_id, batches[d]!)));
    for (const [d, res] of first.entries()) {
      const data = answer(res);
      expect(data.last_applied_seq).toBe(SALES);
      expect(data.results.map((r) => [r.id, r.seq, r.status])).toEqual(batches[d]!.map((m) => [m.id, m.seq, 'applied']));
    }
    const sold = DEVICES * SALES;
    expect(await saleCount(owner)).toBe(sold);
    for (const id of products) expect(await stockOf(owner, id)).toBe(1_000 - sold);

    const again = await Promise.all(devices.map((device_id, d) => push(owner, device_id, batches[d]!)));
    for (const res of again) {
      const data = answer(res);
      expect(data.last_applied_seq).toBe(SALES);
      expect(data.results.every((r) => r.status === 'duplicate')).toBe(true);
    }
    expect(await saleCount(owner)).toBe(sold);
    for (const id of products) expect(await stockOf(owner, id)).toBe(1_000 - sold);
  }, 120_000);

  it('refuses a push with a wrong seq alone while the pushes beside it are applied', async () => {
    t = await createTestApp();
    const { owner, products, devices } = await shop();
    const [bad, ...good] = devices as [string, ...string[]];
    // Seq 5 for a device that has applied nothing: it must start at 1.
    const wrong = sales(0, 5, 3, products);
    const goods = good.map((_, d) => sales(d + 1, 1, SALES, products));
    // In the middle: the first push to arrive is written alone, those behind it together.
    const answers = await Promise.all([
      ...good.slice(0, 2).map((device_id, d) => push(owner, device_id, goods[d]!)),
      push(owner, bad, wrong),
      ...good.slice(2).map((device_id, d) => push(owner, device_id, goods[d + 2]!)),
    ]);
    const [refused] = answers.splice(2, 1);
    const applied = answers;
    expect(refused!.status, refused!.text).toBe(409);
    expect((refused!.body as { meta: { expected_seq: number } }).meta.expected_seq).toBe(1);
    for (const res of applied) {
      const data = answer(res);
      expect(data.last_applied_seq).toBe(SALES);
      expect(data.results.every((r) => r.status === 'applied')).toBe(true);
    }
    const sold = good.length * SALES;
    expect(await saleCount(owner)).toBe(sold);
    for (const id of products) expect(await stockOf(owner, id)).toBe(1_000 - sold);
    // The refused push changed nothing: its device still starts at seq 1.
    const retry = answer(await push(owner, bad, sales(0, 1, 3, products)));
    expect(retry.last_applied_seq).toBe(3);
    expect(await saleCount(owner)).toBe(sold + 3);
  }, 120_000);

  it('commits pushes of one store that arrive together in fewer transactions than pushes', async () => {
    const db = await createTestDb();
    let transactions = 0;
    const transact = db.transact;
    db.transact = ((fn) => {
      transactions++;
      return transact(fn);
    }) as typeof transact;
    t = await createTestApp({ db });
    const { owner, products, devices } = await shop();
    transactions = 0;
    const res = await Promise.all(devices.map((device_id, d) => push(owner, device_id, sales(d, 1, SALES, products))));
    for (const r of res) expect(answer(r).last_applied_seq).toBe(SALES);
    expect(transactions).toBeGreaterThan(0);
    expect(transactions).toBeLessThan(DEVICES);
  }, 120_000);

  it('counts each push of a shared transaction to its own request (COUNT_STATEMENTS)', async () => {
    t = await createTestApp({ config: { COUNT_STATEMENTS: true } });
    const { owner, products, devices } = await shop();
    const alone = await push(owner, devices[0]!, sales(0, 1, SALES, products));
    const own = Number(alone.headers.get(STATEMENTS_HEADER));
    const together = await Promise.all(devices.map((device_id, d) => push(owner, device_id, sales(d, d ? 1 : SALES + 1, SALES, products))));
    const counts = together.map((r) => Number(r.headers.get(STATEMENTS_HEADER)));
    // Alone, a push's begin and commit are its own; in a batch, its savepoint and release are, and
    // the stock rows its sales move are written once for the batch (counted to the batch's first
    // request; on SQLite one statement of its own, on Postgres part of the sale set's one write).
    for (const n of counts) expect(n).toBeGreaterThanOrEqual(own - 3);
  }, 120_000);
});
