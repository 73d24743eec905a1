/**
 * Issue 51: a pushed (offline) sale line by the pack, as POST /pos/sale books one: whole packs,
 * stock falls by packs × the pack's units, the pack's price judged as a loose line's is (the price
 * in force then, an old one of the week before, or the server's); a pack the shop does not have
 * (unknown, another product's, another organisation's) rejects that sale alone, never a 500.
 */
import { Envelope, newId, PROTOCOL_HEADER, Product, PushResponse, Transaction } from '@duka/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerOwner, type Session } from '../setup/factories.js';
import { createTestApp, type TestApp } from '../setup/test-app.js';

describe('sync: a pushed sale line by the pack', () => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp()));
  afterAll(() => t.close());

  const soda = async (s: Session, name = 'Soda 500ml', stock = 50) => {
    const res = await t.request('POST', '/inventory/products', {
      token: s.token,
      body: {
        name,
        selling_price: 1000,
        stock,
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
      // The till charged the six-pack 5,900, a price it never had (6 × 1,000): booked at 6,000.
      { product_id: p.id, pack_id: six.id, qty: 2, unit_price: 5900 },
    ];
    const res = await t.request('POST', '/sync/push', {
      token: owner.token,
      body: { device_id, mutations: [sale(1, lines, { cash_tendered: 40000 })] },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get(PROTOCOL_HEADER)).toBe('4');
    const [r] = Envelope(PushResponse).parse(res.body).data.results;
    expect(r).toMatchObject({ status: 'applied', result: { total: 37000 } });
    expect(r!.conflicts).toEqual([
      { kind: 'price_mismatch', product_id: p.id, message: 'Soda 500ml (Six) sold at 5900, a price it never had; booked at 6000' },
    ]);
    const booked = Envelope(Transaction).parse(
      (await t.request('GET', `/pos/transactions/${(r!.result as { transaction_id: string }).transaction_id}`, { token: owner.token }))
        .body,
    ).data;
    expect(booked.lines.map((l) => [l.qty, l.unit_price, l.line_total, l.pack && l.pack.qty])).toEqual([
      [24, 22000, 22000, 1],
      [3, 1000, 3000, null],
      [12, 6000, 12000, 2],
    ]);
    // The change is what the cashier handed over, counted at the till's prices (36,800).
    expect([booked.total, booked.cash_tendered, booked.change_given]).toEqual([37000, 40000, 3200]);
    expect(await stockOf(owner, p.id)).toBe(50 - 24 - 3 - 12);
  });

  it('judges a pack price changed while the till was offline as a loose price: in force then, stale within the week, else the server’s', async () => {
    const owner = await registerOwner(t);
    const p = await soda(owner, 'Soda 500ml', 200);
    const crate = p.packs.find((k) => k.name === 'Crate')!;
    const six = p.packs.find((k) => k.name === 'Six')!;
    // Another product whose crate never changed.
    const juice = await soda(owner, 'Juice');
    const juiceCrate = juice.packs.find((k) => k.name === 'Crate')!;
    const device_id = await device(owner);
    const HOUR = 3_600_000;
    const DAY = 24 * HOUR;
    const at = (ms: number) => new Date(ms).toISOString();
    // The clock moves days: a token of the moment.
    const token = async () =>
      (await t.request('POST', '/auth/login', { body: { identifier: owner.phone, password: owner.password } })).body.data
        .access_token as string;
    const push = async (mutations: unknown[]) => {
      const res = await t.request('POST', '/sync/push', { token: await token(), body: { device_id, mutations } });
      expect(res.status, res.text).toBe(200);
      return Envelope(PushResponse).parse(res.body).data.results;
    };
    const linesOf = async (r: { result?: unknown }) =>
      Envelope(Transaction)
        .parse(
          (await t.request('GET', `/pos/transactions/${(r.result as { transaction_id: string }).transaction_id}`, { token: await token() }))
            .body,
        )
        .data.lines.map((l) => [l.pack?.name ?? null, l.unit_price, l.line_total]);
    const sold = (seq: number, when: number, crateAt: number, sixAt: number, bottleAt: number) => ({
      ...sale(seq, [
        { product_id: p.id, pack_id: crate.id, qty: 1, unit_price: crateAt },
        { product_id: p.id, pack_id: six.id, qty: 1, unit_price: sixAt },
        { product_id: p.id, qty: 1, unit_price: bottleAt },
      ]),
      created_at: at(when),
    });

    // Offline a day later, at the prices it knows: crate 22,000, six 6 × 1,000, bottle 1,000.
    t.clock.advance(DAY);
    const before = t.clock.now();
    t.clock.advance(HOUR);
    // Meanwhile the owner raises the bottle to 1,100 and the crate to 24,000 (the six follows the bottle).
    const patch = await t.request('PATCH', `/inventory/products/${p.id}`, {
      token: await token(),
      body: {
        selling_price: 1100,
        packs: [
          { id: crate.id, name: 'Crate', units: 24, selling_price: 24000 },
          { id: six.id, name: 'Six', units: 6 },
        ],
      },
    });
    expect(patch.status, patch.text).toBe(200);
    t.clock.advance(HOUR);
    const after = t.clock.now();
    const [then, later] = await push([sold(1, before, 22000, 6000, 1000), sold(2, after, 22000, 5900, 1000)]);
    // Sold before the change: the six and the bottle at the prices then, nothing to note; the crate's
    // own price keeps no history, so its older price is booked as charged with a stale_price.
    expect(then!.conflicts).toEqual([
      { kind: 'stale_price', product_id: p.id, message: 'Soda 500ml (Crate) sold at 22000, an old price (now 24000)' },
    ]);
    expect(await linesOf(then!)).toEqual([
      ['Crate', 22000, 22000],
      ['Six', 6000, 6000],
      [null, 1000, 1000],
    ]);
    // Sold after it, at the old prices: each an old price of the week before, booked as charged, as a
    // loose line's. The six was sent back unchanged by the PATCH, so 5,900 is no price it ever had.
    expect(later!.conflicts).toEqual([
      { kind: 'stale_price', product_id: p.id, message: 'Soda 500ml sold at 1000, an old price (now 1100)' },
      { kind: 'stale_price', product_id: p.id, message: 'Soda 500ml (Crate) sold at 22000, an old price (now 24000)' },
      { kind: 'price_mismatch', product_id: p.id, message: 'Soda 500ml (Six) sold at 5900, a price it never had; booked at 6600' },
    ]);
    expect(await linesOf(later!)).toEqual([
      ['Crate', 22000, 22000],
      ['Six', 6600, 6600],
      [null, 1000, 1000],
    ]);
    const [within] = await push([{ ...sold(3, after, 22000, 6000, 1000) }]);
    expect(within!.conflicts!.map((c) => c.message)).toContain('Soda 500ml (Six) sold at 6000, an old price (now 6600)');

    // Eight days on the old prices are no longer any price of the week before: the server's are booked.
    t.clock.advance(8 * DAY);
    const [stale] = await push([sold(4, t.clock.now(), 22000, 6000, 1000)]);
    expect(stale!.conflicts!.map((c) => c.message)).toEqual([
      'Soda 500ml sold at 1000, a price it never had; booked at 1100',
      'Soda 500ml (Crate) sold at 22000, a price it never had; booked at 24000',
      'Soda 500ml (Six) sold at 6000, a price it never had; booked at 6600',
    ]);
    expect(await linesOf(stale!)).toEqual([
      ['Crate', 24000, 24000],
      ['Six', 6600, 6600],
      [null, 1100, 1100],
    ]);
    // A crate that never changed, charged a price it never had: the server's.
    const [odd] = await push([
      { ...sale(5, [{ product_id: juice.id, pack_id: juiceCrate.id, qty: 1, unit_price: 20000 }]), created_at: at(t.clock.now()) },
    ]);
    expect(odd!.conflicts).toEqual([
      { kind: 'price_mismatch', product_id: juice.id, message: 'Juice (Crate) sold at 20000, a price it never had; booked at 22000' },
    ]);
    expect(await linesOf(odd!)).toEqual([['Crate', 22000, 22000]]);
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
