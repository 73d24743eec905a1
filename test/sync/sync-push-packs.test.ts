/**
 * Issue 51: a pushed (offline) sale line by the pack, as POST /pos/sale books one: whole packs,
 * stock falls by packs × the pack's units, the pack booked at the price the till charged; a pack
 * the shop does not have (unknown, another product's, another organisation's) rejects that sale
 * alone, never a 500.
 */
import { Envelope, newId, PROTOCOL_HEADER, Product, PushResponse, Transaction } from '@duka/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerOwner, type Session } from '../setup/factories.js';
import { createTestApp, type TestApp } from '../setup/test-app.js';

describe('sync: a pushed sale line by the pack', () => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp()));
  afterAll(() => t.close());

  const soda = async (s: Session, name = 'Soda 500ml') => {
    const res = await t.request('POST', '/inventory/products', {
      token: s.token,
      body: {
        name,
        selling_price: 1000,
        stock: 50,
        packs: [
          { name: 'Crate', units: 24, selling_price: 22000 },
          { name: 'Six', units: 6 },
        ],
      },
    });
    expect(res.status, res.text).toBe(200);
    return Envelope(Product).parse(res.body).data;
  };
  const stockOf = async (s: Session, id: string) =>
    (await t.request('GET', `/inventory/products/${id}`, { token: s.token })).body.data.stock;
  const device = async (s: Session) => {
    const device_id = newId();
    expect((await t.request('POST', '/sync/devices', { token: s.token, body: { device_id, name: 'Till 1' } })).status).toBe(200);
    return device_id;
  };
  const sale = (seq: number, lines: Array<Record<string, unknown>>, extra: Record<string, unknown> = {}) => ({
    id: newId(),
    seq,
    type: 'sale.create',
    created_at: new Date(t.clock.now() - 60_000).toISOString(),
    payload: { id: newId(), client_receipt_number: `T1-${seq}`, lines, payment_method: 'Cash', ...extra },
  });

  it('books a crate and three bottles: the crate at the till price, stock 50 − 24 − 3 = 23, the cash tender judged on packs', async () => {
    const owner = await registerOwner(t);
    const p = await soda(owner);
    const crate = p.packs.find((k) => k.name === 'Crate')!;
    const six = p.packs.find((k) => k.name === 'Six')!;
    const device_id = await device(owner);
    const lines = [
      { product_id: p.id, pack_id: crate.id, qty: 1, unit_price: 22000 },
      { product_id: p.id, qty: 3, unit_price: 1000 },
      // The till charged the six-pack 5,900 (its own offer): booked as charged.
      { product_id: p.id, pack_id: six.id, qty: 2, unit_price: 5900 },
    ];
    const res = await t.request('POST', '/sync/push', {
      token: owner.token,
      body: { device_id, mutations: [sale(1, lines, { cash_tendered: 40000 })] },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get(PROTOCOL_HEADER)).toBe('2');
    const [r] = Envelope(PushResponse).parse(res.body).data.results;
    expect(r).toMatchObject({ status: 'applied', result: { total: 36800 } });
    expect(r!.conflicts).toBeUndefined();
    const booked = Envelope(Transaction).parse(
      (await t.request('GET', `/pos/transactions/${(r!.result as { transaction_id: string }).transaction_id}`, { token: owner.token }))
        .body,
    ).data;
    expect(booked.lines.map((l) => [l.qty, l.unit_price, l.line_total, l.pack && l.pack.qty])).toEqual([
      [24, 22000, 22000, 1],
      [3, 1000, 3000, null],
      [12, 5900, 11800, 2],
    ]);
    expect([booked.total, booked.cash_tendered, booked.change_given]).toEqual([36800, 40000, 3200]);
    expect(await stockOf(owner, p.id)).toBe(50 - 24 - 3 - 12);
  });

  it("rejects alone a sale naming an unknown pack, another product's or another organisation's; a half pack names its line", async () => {
    const owner = await registerOwner(t);
    const other = await registerOwner(t);
    const p = await soda(owner);
    const q = await soda(owner, 'Juice');
    const theirs = await soda(other);
    const device_id = await device(owner);
    const line = (pack_id: string, qty = 1) => [{ product_id: p.id, pack_id, qty, unit_price: 22000 }];
    const mutations = [
      sale(1, line(newId())),
      sale(2, line(q.packs[0]!.id)),
      sale(3, line(theirs.packs[0]!.id)),
      sale(4, line(p.packs.find((k) => k.name === 'Crate')!.id, 0.5)),
      sale(5, [{ product_id: p.id, qty: 2, unit_price: 1000 }]),
    ];
    const res = await t.request('POST', '/sync/push', { token: owner.token, body: { device_id, mutations } });
    expect(res.status, res.text).toBe(200);
    const results = Envelope(PushResponse).parse(res.body).data.results;
    expect(results.map((r) => [r.status, r.error?.code])).toEqual([
      ['rejected', 'NOT_FOUND'],
      ['rejected', 'NOT_FOUND'],
      ['rejected', 'NOT_FOUND'],
      ['rejected', 'VALIDATION_ERROR'],
      ['applied', undefined],
    ]);
    expect(results[3]!.error!.message).toContain('lines.0.qty');
    expect(await stockOf(owner, p.id)).toBe(48);
    expect(await stockOf(other, theirs.id)).toBe(50);
  });
});
