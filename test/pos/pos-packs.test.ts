/**
 * Issue 51: packs. A soda bought by the carton of 24 and sold by the carton or the bottle; stock is
 * kept in bottles. "A carton received as 24 pieces, one carton and three pieces sold, stock 20": the
 * shop has 23 loose bottles, a carton arrives (47), a carton and three bottles go (27): 20 left.
 */
import { BootstrapResponse, Envelope, Product, ScannedProduct, Transaction } from '@duka/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lastMessage, registerOwner, type Session, uniqueEmail } from '../setup/factories.js';
import { newDelivery, newSupplier } from '../setup/suppliers-factories.js';
import { createTestApp, type TestApp } from '../setup/test-app.js';

describe('packs: bought and sold by the carton, stock by the piece', () => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp()));
  afterAll(() => t.close());

  const create = (s: Session, body: Record<string, unknown>) => t.request('POST', '/inventory/products', { token: s.token, body });
  const soda = async (s: Session, body: Record<string, unknown> = {}) => {
    const res = await create(s, {
      name: 'Soda 500ml',
      barcode: `600${Math.floor(Math.random() * 1e9)}`,
      selling_price: 1000,
      cost_price: 700,
      stock: 23,
      packs: [
        { name: 'Carton', units: 24, barcode: `700${Math.floor(Math.random() * 1e9)}`, selling_price: 22000 },
        { name: 'Half carton', units: 12 },
      ],
      ...body,
    });
    expect(res.status, res.text).toBe(200);
    return Envelope(Product).parse(res.body).data;
  };
  const packOf = (p: Product, name: string) => p.packs.find((k) => k.name === name)!;
  const sell = (s: Session, lines: Array<Record<string, unknown>>) =>
    t.request('POST', '/pos/sale', { token: s.token, body: { lines, payment_method: 'Cash' } });
  const stockOf = async (s: Session, id: string) =>
    (await t.request('GET', `/inventory/products/${id}`, { token: s.token })).body.data.stock;

  it('a carton received as 24 pieces, one carton and three pieces sold: stock 20', async () => {
    const owner = await registerOwner(t);
    const p = await soda(owner);
    expect(p.packs.map(({ name, units, selling_price }) => [name, units, selling_price])).toEqual([
      ['Half carton', 12, null],
      ['Carton', 24, 22000],
    ]);
    const carton = packOf(p, 'Carton');
    const supplier = await newSupplier(t, owner);
    const delivery = await newDelivery(t, owner, supplier.id, {
      status: 'delivered',
      lines: [{ product_id: p.id, pack_id: carton.id, qty: 1, unit_cost: 16800 }],
    });
    expect(delivery).toMatchObject({ total_value: 16800, lines: [{ qty: 1, unit_cost: 16800, pack: { id: carton.id, units: 24 } }] });
    expect(await stockOf(owner, p.id)).toBe(47);

    const res = await sell(owner, [
      { product_id: p.id, pack_id: carton.id, qty: 1 },
      { product_id: p.id, qty: 3 },
    ]);
    expect(res.status, res.text).toBe(201);
    const sale = Envelope(Transaction).parse(res.body).data;
    // A carton at its own price and three bottles at theirs; qty stays in bottles for every reader.
    expect(sale.lines.map((l) => [l.qty, l.unit_price, l.line_total, l.pack])).toEqual([
      [24, 22000, 22000, { id: carton.id, name: 'Carton', units: 24, qty: 1 }],
      [3, 1000, 3000, null],
    ]);
    expect(sale.total).toBe(25000);
    expect(await stockOf(owner, p.id)).toBe(20);
    // As recorded: the receipt read back says the same.
    const read = await t.request('GET', `/pos/transactions/${sale.id}`, { token: owner.token });
    expect(read.body.data.lines.map((l: { pack: unknown }) => l.pack)).toEqual([
      { id: carton.id, name: 'Carton', units: 24, qty: 1 },
      null,
    ]);
    // The emailed receipt prints the carton as a carton at its price, not 24 at the carton's price.
    const email = uniqueEmail('customer');
    expect((await t.request('POST', `/pos/transactions/${sale.id}/receipt`, { token: owner.token, body: { email } })).status).toBe(200);
    const mail = (await lastMessage(t, email))!.body;
    expect(mail).toContain('1 x Soda 500ml Carton (24) @ TZS 22,000 = TZS 22,000');
    expect(mail).toContain('3 x Soda 500ml @ TZS 1,000 = TZS 3,000');
  });

  it('prices a pack at its own price, or its units × the unit price; lines of one pack merge', async () => {
    const owner = await registerOwner(t);
    const p = await soda(owner, { stock: 100 });
    const res = await sell(owner, [
      { product_id: p.id, pack_id: packOf(p, 'Half carton').id, qty: 1 },
      { product_id: p.id, pack_id: packOf(p, 'Carton').id, qty: 2 },
      { product_id: p.id, pack_id: packOf(p, 'Half carton').id, qty: 1 },
    ]);
    expect(res.status, res.text).toBe(201);
    const sale = Envelope(Transaction).parse(res.body).data;
    // Half carton: no price of its own, 12 × 1,000 = 12,000 a pack; two of them. Carton: 22,000, not 24,000.
    expect(sale.lines.map((l) => [l.pack?.name, l.pack?.qty, l.qty, l.unit_price, l.line_total])).toEqual([
      ['Half carton', 2, 24, 12000, 24000],
      ['Carton', 2, 48, 22000, 44000],
    ]);
    expect(sale.total).toBe(68000);
    expect(await stockOf(owner, p.id)).toBe(100 - 72);
  });

  it('online, a pack sale beyond the stock is refused, and a pack of another product or organisation is not found', async () => {
    const owner = await registerOwner(t);
    const other = await registerOwner(t);
    const p = await soda(owner);
    const theirs = await soda(other);
    const short = await sell(owner, [{ product_id: p.id, pack_id: packOf(p, 'Carton').id, qty: 1 }]);
    expect(short.status, short.text).toBe(409);
    expect(short.body.errors[0]).toMatchObject({ code: 'INSUFFICIENT_STOCK', field: 'lines.0.qty' });
    const foreign = await sell(owner, [{ product_id: p.id, pack_id: packOf(theirs, 'Carton').id, qty: 1 }]);
    expect(foreign.status, foreign.text).toBe(404);
    expect(foreign.body.errors[0]).toMatchObject({ code: 'NOT_FOUND', field: 'lines.0.pack_id' });
    expect(await stockOf(owner, p.id)).toBe(23);
  });

  it('finds a product by a pack’s barcode, saying which pack; the till’s pull rows carry the packs', async () => {
    const owner = await registerOwner(t);
    const p = await soda(owner);
    const carton = packOf(p, 'Carton');
    const scanned = await t.request('GET', `/inventory/products/barcode/${carton.barcode}`, { token: owner.token });
    expect(scanned.status, scanned.text).toBe(200);
    const found = Envelope(ScannedProduct).parse(scanned.body).data;
    expect([found.id, found.scanned_pack]).toEqual([p.id, carton]);
    const own = await t.request('GET', `/inventory/products/barcode/${p.barcode}`, { token: owner.token });
    expect(own.body.data.scanned_pack).toBeNull();
    const stranger = await registerOwner(t);
    expect((await t.request('GET', `/inventory/products/barcode/${carton.barcode}`, { token: stranger.token })).status).toBe(404);

    const boot = Envelope(BootstrapResponse).parse((await t.request('GET', '/sync/bootstrap', { token: owner.token })).body).data;
    const row = boot.rows.find((r) => r.entity === 'product' && r.id === p.id)!;
    expect((row.data as Product).packs).toEqual(p.packs);
  });

  it('refuses a pack barcode another product or pack holds (409 naming it), and bad packs (400)', async () => {
    const owner = await registerOwner(t);
    const p = await soda(owner);
    const carton = packOf(p, 'Carton');
    const clash = await create(owner, { name: 'Maji 1L', packs: [{ name: 'Crate', units: 12, barcode: p.barcode }] });
    expect(clash.status, clash.text).toBe(409);
    expect(clash.body.errors[0]).toEqual({
      code: 'DUPLICATE',
      field: 'packs.0.barcode',
      message: `barcode ${p.barcode} is already Soda 500ml's`,
    });
    const onPack = await create(owner, { name: 'Juisi', barcode: carton.barcode });
    expect(onPack.status, onPack.text).toBe(409);
    expect(onPack.body.errors[0]).toMatchObject({
      field: 'barcode',
      message: `barcode ${carton.barcode} is already Soda 500ml (Carton)'s`,
    });
    const packOnPack = await create(owner, { name: 'Juisi', packs: [{ name: 'Crate', units: 12, barcode: carton.barcode }] });
    expect(packOnPack.status, packOnPack.text).toBe(409);

    const water = await create(owner, { name: 'Maji 1L', barcode: '8880001' });
    const patch = await t.request('PATCH', `/inventory/products/${water.body.data.id}`, {
      token: owner.token,
      body: { packs: [{ name: 'Crate', units: 12, barcode: carton.barcode }] },
    });
    expect(patch.status, patch.text).toBe(409);

    for (const [packs, field] of [
      [[{ name: 'Crate', units: 0 }], 'packs.0.units'],
      [[{ name: 'Crate', units: 1 }], 'packs.0.units'],
      [[{ name: 'Crate', units: 2.5 }], 'packs.0.units'],
      [
        [
          { name: 'Crate', units: 12 },
          { name: 'crate', units: 24 },
        ],
        'packs.1.name',
      ],
    ] as const) {
      const bad = await create(owner, { name: 'Maji 500ml', packs });
      expect(bad.status, `${JSON.stringify(packs)} ${bad.text}`).toBe(400);
      expect(bad.body.errors[0].field, JSON.stringify(packs)).toBe(field);
    }
  });

  it('replaces the packs on update, keeping those sent with their id', async () => {
    const owner = await registerOwner(t);
    const p = await soda(owner);
    const carton = packOf(p, 'Carton');
    const res = await t.request('PATCH', `/inventory/products/${p.id}`, {
      token: owner.token,
      body: {
        packs: [
          { id: carton.id, name: 'Carton', units: 24, barcode: carton.barcode, selling_price: 21500 },
          { name: 'Six-pack', units: 6 },
        ],
      },
    });
    expect(res.status, res.text).toBe(200);
    const after = Envelope(Product).parse(res.body).data;
    expect(after.packs.map((k) => [k.id === carton.id, k.name, k.units, k.selling_price])).toEqual([
      [false, 'Six-pack', 6, null],
      [true, 'Carton', 24, 21500],
    ]);
    const cleared = await t.request('PATCH', `/inventory/products/${p.id}`, { token: owner.token, body: { packs: [] } });
    expect(cleared.body.data.packs).toEqual([]);
  });
});
