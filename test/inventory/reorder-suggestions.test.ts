/**
 * Issue 52, reorder suggestions over real HTTP: 28 days of sales made through the API on the test
 * clock, suppliers with and without a lead time, and the suggestions checked figure by figure
 * against the rule of docs/inventory.md "Reorder suggestions": a product under its reorder point
 * with no sales (unknown supplier), one selling 2.5 a day (rounded up to whole bales), one sold by
 * the kg; a product with enough stock and one exactly at its reorder point not suggested; sales
 * before the window not counted; another store of the organisation by `store_id`, its staff kept
 * to their own, another organisation's store 404.
 */
import { DraftOrdersFromSuggestions, Envelope, type PurchaseOrder, ReorderSuggestions } from '@duka/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addStore, createStaff, registerOwner, type Session } from '../setup/factories.js';
import { newSupplier } from '../setup/suppliers-factories.js';
import { createTestApp, type TestApp } from '../setup/test-app.js';

const DAY = 86_400_000;

describe('reorder suggestions: from 28 days of sales, by supplier, each with its figures', () => {
  let t: TestApp;
  let owner: Session;
  const ids = { sukari: '', mchele: '', sabuni: '', chumvi: '', maji: '' };
  let bakhresa: { id: string; name: string };
  let bale: string;
  afterAll(() => t.close());

  const call = async (s: { token: string }, method: string, path: string, body?: unknown, status = 200) => {
    const res = await t.request(method, path, { token: s.token, body });
    expect(res.status, res.text).toBe(status);
    return res.body;
  };
  const product = async (s: { token: string }, body: Record<string, unknown>) =>
    (await call(s, 'POST', '/inventory/products', { cost_price: 1000, selling_price: 1500, stock: 0, ...body })).data;
  const deliver = async (s: { token: string }, supplierId: string, lines: Array<{ product_id: string; qty: number }>) =>
    call(s, 'POST', `/suppliers/${supplierId}/deliveries`, {
      status: 'delivered',
      lines: lines.map((l) => ({ ...l, unit_cost: 1000 })),
    });
  const sell = async (s: { token: string }, lines: Array<{ product_id: string; qty: number }>) => {
    const res = await t.request('POST', '/pos/sale', { token: s.token, body: { lines, payment_method: 'Cash' } });
    expect(res.status, res.text).toBe(201);
    return res.body.data.id as string;
  };
  const suggestions = async (s: { token: string }, query = '') =>
    Envelope(ReorderSuggestions).parse(await call(s, 'GET', `/inventory/reorder-suggestions${query}`)).data;

  beforeAll(async () => {
    t = await createTestApp();
    owner = await registerOwner(t);
    bakhresa = await newSupplier(t, owner, { name: 'Bakhresa Wholesale', lead_time_days: 5, phone: '0712 345 678' });
    const azam = await newSupplier(t, owner, { name: 'Azam Distributors' }); // no lead time: 7
    const sukari = await product(owner, { name: 'Sukari 1kg', reorder_point: 5, packs: [{ name: 'Bale', units: 10 }] });
    bale = sukari.packs[0].id;
    ids.sukari = sukari.id;
    ids.mchele = (await product(owner, { name: 'Mchele', unit: 'kg', reorder_point: 5 })).id;
    ids.sabuni = (await product(owner, { name: 'Sabuni', reorder_point: 5 })).id;
    ids.chumvi = (await product(owner, { name: 'Chumvi', reorder_point: 10, stock: 3 })).id;
    ids.maji = (await product(owner, { name: 'Maji', reorder_point: 5, stock: 5 })).id;
    await deliver(owner, bakhresa.id, [
      { product_id: ids.sukari, qty: 90 },
      { product_id: ids.mchele, qty: 25 },
    ]);
    await deliver(owner, azam.id, [{ product_id: ids.sabuni, qty: 78 }]);

    // 29 days ago, before the window: 10 sugar, not counted.
    const now = t.clock.now();
    t.clock.advance(-29 * DAY);
    await sell(owner, [{ product_id: ids.sukari, qty: 10 }]);
    // Then one sale a day for 28 days, from 27 days ago to now: sugar 3 and 2 by turns (70: 2.5 a day),
    // rice 0.75 kg a day (21 kg), soap 1 a day (28). The first day's sells 4 sugar and 1 comes back
    // (a refund of part: 3 sold); a sale refunded whole and a void one do not count.
    t.clock.advance(2 * DAY);
    for (let day = 0; day < 28; day++) {
      if (day > 0) t.clock.advance(DAY);
      const sale = await sell(owner, [
        { product_id: ids.sukari, qty: day === 0 ? 4 : day % 2 === 0 ? 3 : 2 },
        { product_id: ids.mchele, qty: 0.75 },
        { product_id: ids.sabuni, qty: 1 },
      ]);
      if (day > 0) continue;
      await call(owner, 'POST', `/pos/transactions/${sale}/refund`, {
        reason: 'one too many',
        lines: [{ product_id: ids.sukari, qty: 1 }],
      });
      const refunded = await sell(owner, [{ product_id: ids.sukari, qty: 5 }]);
      await call(owner, 'POST', `/pos/transactions/${refunded}/refund`, { reason: 'changed her mind' });
      const voided = await sell(owner, [{ product_id: ids.sukari, qty: 6 }]);
      await call(owner, 'POST', `/pos/transactions/${voided}/void`, { reason: 'rung up twice' });
    }
    expect(t.clock.now()).toBe(now);
  });

  it('matches the rule figure by figure, grouped by supplier, the unknown supplier last', async () => {
    const got = await suggestions(owner, '?cover_days=14');
    expect(got).toMatchObject({ store_id: owner.storeId, window_days: 28, cover_days: 14 });
    expect(got.groups).toEqual([
      {
        supplier_id: bakhresa.id,
        supplier_name: 'Bakhresa Wholesale',
        lead_time_days: 5,
        suggestions: [
          // 21 kg in 28 days: 0.75 a day × (5 + 14) = 14.25 kg needed; stock 4 kg, under its reorder point of 5:
          // 14.25 − 4 = 10.25 → 11 kg (whole kg). Its stock lasts 5.3 days, more than the 5 of the lead time.
          {
            product_id: ids.mchele,
            name: 'Mchele',
            unit: 'kg',
            reasons: ['at_reorder_point'],
            sold: 21,
            avg_daily_sales: 0.75,
            lead_time_days: 5,
            cover_days: 14,
            days_left: 5.3,
            needed: 14.25,
            reorder_point: 5,
            stock: 4,
            on_order: 0,
            on_draft: 0,
            suggested: 11,
            pack: null,
          },
          // 70 in 28 days: 2.5 a day × 19 = 47.5 → 48 needed; stock 10 lasts 4 days < 5: 48 − 10 = 38 → 4 bales of 10 = 40.
          {
            product_id: ids.sukari,
            name: 'Sukari 1kg',
            unit: 'piece',
            reasons: ['runs_out_within_lead_time'],
            sold: 70,
            avg_daily_sales: 2.5,
            lead_time_days: 5,
            cover_days: 14,
            days_left: 4,
            needed: 48,
            reorder_point: 5,
            stock: 10,
            on_order: 0,
            on_draft: 0,
            suggested: 40,
            pack: { id: bale, name: 'Bale', units: 10, packs: 4 },
          },
        ],
      },
      {
        supplier_id: null,
        supplier_name: null,
        lead_time_days: 7,
        suggestions: [
          // Never delivered, never sold: back up to its reorder point, 10 − 3 = 7.
          {
            product_id: ids.chumvi,
            name: 'Chumvi',
            unit: 'piece',
            reasons: ['at_reorder_point'],
            sold: 0,
            avg_daily_sales: 0,
            lead_time_days: 7,
            cover_days: 14,
            days_left: null,
            needed: 0,
            reorder_point: 10,
            stock: 3,
            on_order: 0,
            on_draft: 0,
            suggested: 7,
            pack: null,
          },
        ],
      },
    ]);
    // Sabuni: 50 left at 1 a day lasts 50 days, over its reorder point; Maji: at its reorder point, nothing sells, nothing to order.
    const named = got.groups.flatMap((g) => g.suggestions.map((s) => s.name));
    expect(named).not.toContain('Sabuni');
    expect(named).not.toContain('Maji');
    expect((await call(owner, 'GET', `/inventory/products/${ids.sabuni}`)).data.stock).toBe(50);
  });

  it('takes 14 days of cover by default, and a shorter cover orders less', async () => {
    const byDefault = await suggestions(owner);
    expect(byDefault.cover_days).toBe(14);
    const sugar = (await suggestions(owner, '?cover_days=0')).groups[0]!.suggestions.find((s) => s.name === 'Sukari 1kg')!;
    // 2.5 × 5 = 12.5 → 13 needed, 13 − 10 = 3 → one bale.
    expect(sugar).toMatchObject({ needed: 13, suggested: 10, pack: { packs: 1 } });
  });

  it('counts what sent purchase orders still owe as on order, and what drafts hold as on draft; a cancelled order neither', async () => {
    const sugar = async () => (await suggestions(owner)).groups[0]!.suggestions.find((s) => s.name === 'Sukari 1kg')!;
    const po = (
      await call(owner, 'POST', '/suppliers/purchase-orders', {
        supplier_id: bakhresa.id,
        lines: [{ product_id: ids.sukari, pack_id: bale, qty: 3, unit_cost: 9000 }],
      })
    ).data;
    // A draft is decided on: 48 needed − 10 in stock − 30 on a draft = 8 → one bale.
    expect(await sugar()).toMatchObject({ on_order: 0, on_draft: 30, suggested: 10, pack: { packs: 1 } });
    await call(owner, 'POST', `/suppliers/purchase-orders/${po.id}/send`);
    expect(await sugar()).toMatchObject({ on_order: 30, on_draft: 0, suggested: 10, pack: { packs: 1 } });
    await call(owner, 'POST', `/suppliers/purchase-orders/${po.id}/cancel`);
    expect(await sugar()).toMatchObject({ on_order: 0, on_draft: 0, suggested: 40 });
  });

  it("another store by store_id for the owner; staff only their own; another organisation's store 404; bad queries 400", async () => {
    const branch = await addStore(t, owner.orgId);
    const there = await suggestions(owner, `?store_id=${branch.id}`);
    // Nothing in stock there, nothing sold: every product back to its reorder point (sugar in whole bales).
    expect(there.store_id).toBe(branch.id);
    expect(there.groups.map((g) => [g.supplier_name, g.suggestions.map((s) => [s.name, s.suggested])])).toEqual([
      ['Azam Distributors', [['Sabuni', 5]]],
      [
        'Bakhresa Wholesale',
        [
          ['Mchele', 5],
          ['Sukari 1kg', 10],
        ],
      ],
      [
        null,
        [
          ['Chumvi', 10],
          ['Maji', 5],
        ],
      ],
    ]);

    const cashier = await createStaff(t, owner);
    expect((await suggestions(cashier)).store_id).toBe(owner.storeId);
    expect((await suggestions(cashier, `?store_id=${owner.storeId}`)).groups.length).toBe(2);
    const refused = await call(cashier, 'GET', `/inventory/reorder-suggestions?store_id=${branch.id}`, undefined, 403);
    expect(refused.message).toBe('you can only work in the store you are assigned to');

    const other = await registerOwner(t);
    const notFound = await call(other, 'GET', `/inventory/reorder-suggestions?store_id=${owner.storeId}`, undefined, 404);
    expect(notFound.message).toMatch(/store not found/);
    await call(owner, 'GET', '/inventory/reorder-suggestions?cover_days=-1', undefined, 400);
    await call(owner, 'GET', '/inventory/reorder-suggestions?cover_days=1.5', undefined, 400);
    await call(owner, 'GET', '/inventory/reorder-suggestions?store_id=nope', undefined, 400);
  });

  it('drafts the suggestions in one call, one order per supplier at the expected cost; no supplier skipped; again drafts nothing', async () => {
    const draft = async (s: { token: string }, body: Record<string, unknown>, status = 200) =>
      call(s, 'POST', '/suppliers/purchase-orders/from-suggestions', body, status);
    const lines = (po: PurchaseOrder) => po.lines.map((l) => [l.product_name, l.qty, l.pack?.name ?? l.unit, l.unit_cost, l.ordered]);
    const chumvi = [{ product_id: ids.chumvi, name: 'Chumvi', suggested: 7, reason: 'no_supplier' }];
    const azam = (await call(owner, 'GET', '/suppliers?search=Azam')).data[0].id as string;

    // Azam's soap is not suggested: nothing to draft, and the unknown supplier's salt is not Azam's.
    expect((await draft(owner, { supplier_ids: [azam] })).data).toEqual({ store_id: owner.storeId, orders: [], skipped: [] });
    // Only rice and salt: rice drafted to Bakhresa at its cost price (11 kg × 1,000), salt skipped.
    const rice = Envelope(DraftOrdersFromSuggestions).parse(await draft(owner, { product_ids: [ids.mchele, ids.chumvi] })).data;
    expect(rice.skipped).toEqual(chumvi);
    expect(rice.orders.map((o) => [o.supplier_name, o.status, o.store_id, o.total_value, o.note])).toEqual([
      ['Bakhresa Wholesale', 'draft', owner.storeId, 11000, 'From reorder suggestions'],
    ]);
    expect(lines(rice.orders[0]!)).toEqual([['Mchele', 11, 'kg', 1000, 11]]);
    // The rest: sugar in whole bales (4 × 10 at 10,000 a bale); the rice already on a draft is not drafted again.
    const rest = Envelope(DraftOrdersFromSuggestions).parse(await draft(owner, {})).data;
    expect(rest.skipped).toEqual(chumvi);
    expect(rest.orders.map((o) => [o.supplier_name, o.total_value])).toEqual([['Bakhresa Wholesale', 40000]]);
    expect(lines(rest.orders[0]!)).toEqual([['Sukari 1kg', 4, 'Bale', 10000, 40]]);
    // Again: everything suggested is on a draft; only the salt, which no draft can take, is left.
    expect((await draft(owner, {})).data).toEqual({ store_id: owner.storeId, orders: [], skipped: chumvi });
    expect((await suggestions(owner)).groups.map((g) => g.supplier_name)).toEqual([null]);
    const audited = await t.db.db
      .selectFrom('audit_log')
      .select('entity_id')
      .where('org_id', '=', owner.orgId)
      .where('action', '=', 'purchase_order.create')
      .execute();
    expect(audited.map((a) => a.entity_id)).toEqual(expect.arrayContaining([rice.orders[0]!.id, rest.orders[0]!.id]));

    // Cancelled, they are suggested again; two calls at once draft them once.
    for (const o of [...rice.orders, ...rest.orders]) await call(owner, 'POST', `/suppliers/purchase-orders/${o.id}/cancel`);
    const both = await Promise.all([draft(owner, {}), draft(owner, {})]);
    const made = both.flatMap((b) => b.data.orders as PurchaseOrder[]);
    expect(made.map((o) => [o.supplier_name, o.total_value])).toEqual([['Bakhresa Wholesale', 51000]]);
    expect((await suggestions(owner)).groups.map((g) => g.supplier_name)).toEqual([null]);
    await call(owner, 'POST', `/suppliers/purchase-orders/${made[0]!.id}/cancel`);

    // Another organisation's store or supplier: not found; staff without the suppliers permission: refused; bad input 400.
    const other = await registerOwner(t);
    expect((await draft(other, { store_id: owner.storeId }, 404)).message).toMatch(/store not found/);
    expect((await draft(other, { supplier_ids: [bakhresa.id] }, 404)).errors[0].field).toBe('supplier_ids.0');
    expect((await draft(await createStaff(t, owner), {}, 403)).errors[0].code).toBe('FORBIDDEN');
    expect((await draft(owner, { product_ids: ['nope'] }, 400)).errors[0].field).toBe('product_ids.0');
    expect((await draft(owner, { cover_days: -1 }, 400)).errors[0].field).toBe('cover_days');
  });
});
