/**
 * Issue 18, "What a cashier may do": the cashier the outside tester used (role staff, no
 * permission flags) is refused every power that moves money or stock out of the books, over REST
 * and over sync, with a 403 naming the permission; a manager (flags on by default) and the owner
 * may; a staff member the owner granted the flag may too.
 */
import { Envelope, PushResponse } from '@duka/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStaff, insertCreditSale, registerOwner, type Session, uniquePhone } from '../setup/factories.js';
import { newDelivery, newProduct, newSupplier } from '../setup/suppliers-factories.js';
import { createTestApp, type TestApp } from '../setup/test-app.js';

type Who = { token: string };

describe('what a cashier may do: money and stock powers', () => {
  let t: TestApp;
  let owner: Session;
  let cashier: Who;
  let manager: Who;
  let trusted: Who;
  beforeAll(async () => {
    t = await createTestApp();
    owner = await registerOwner(t);
    cashier = await createStaff(t, owner);
    manager = await createStaff(t, owner, { role: 'manager', first_name: 'Neema' });
    trusted = await createStaff(t, owner, { can_manage_credit: true, can_manage_stock: true, can_manage_suppliers: true });
  });
  afterAll(() => t.close());

  /** A fresh product, supplier, unpaid delivery, limited customer and open tab, made by the owner. */
  async function shop() {
    const product = await newProduct(t, owner, { name: 'Sukari 1kg', selling_price: 3200, cost_price: 2600, stock: 50 });
    const supplier = await newSupplier(t, owner);
    const delivery = await newDelivery(t, owner, supplier.id, { status: 'delivered', total_value: 50_000 });
    const customer = (
      await t.request('POST', '/customers', {
        token: owner.token,
        body: { name: 'Halima Omari', phone: uniquePhone(), credit_limit: 20_000 },
      })
    ).body.data;
    const { tabId } = await insertCreditSale(t, { orgId: owner.orgId, storeId: owner.storeId, customerId: customer.id, total: 12_000 });
    return { product, supplier, delivery, customer, tabId };
  }

  /** Each power as a request: [what, method, path, body, permission, flag, message]. */
  function powers(s: Awaited<ReturnType<typeof shop>>) {
    const credit = ['credit', 'can_manage_credit'] as const;
    const stock = ['stock', 'can_manage_stock'] as const;
    const suppliers = ['suppliers', 'can_manage_suppliers'] as const;
    const needs = (what: string, [permission, flag]: readonly [string, string]) =>
      `${what} needs the ${permission} permission (${flag}); ask a manager or the owner`;
    return [
      [
        'credit limit to 0 (no limit)',
        'PATCH',
        `/customers/${s.customer.id}`,
        { credit_limit: 0 },
        credit,
        needs("changing a customer's credit limit", credit),
      ],
      [
        'a new customer with a limit',
        'POST',
        '/customers',
        { name: 'Baraka Said', credit_limit: 500_000 },
        credit,
        needs("changing a customer's credit limit", credit),
      ],
      ['write-off', 'POST', `/credits/${s.tabId}/write-off`, { reason: 'moved away' }, credit, needs('writing off a debt', credit)],
      ['customer removed', 'PATCH', `/customers/${s.customer.id}`, { is_active: false }, credit, needs('removing a customer', credit)],
      [
        'delivery paid',
        'PATCH',
        `/suppliers/deliveries/${s.delivery.id}`,
        { is_paid: true },
        suppliers,
        needs('marking a delivery paid', suppliers),
      ],
      [
        'a delivery recorded paid',
        'POST',
        `/suppliers/${s.supplier.id}/deliveries`,
        { total_value: 9_000, is_paid: true },
        suppliers,
        needs('marking a delivery paid', suppliers),
      ],
      ['supplier deleted', 'DELETE', `/suppliers/${s.supplier.id}`, undefined, suppliers, needs('removing a supplier', suppliers)],
      ['price change', 'PATCH', `/inventory/products/${s.product.id}`, { selling_price: 100 }, stock, needs('changing prices', stock)],
      ['stock set on the product', 'PATCH', `/inventory/products/${s.product.id}`, { stock: 500 }, stock, needs('changing stock', stock)],
      [
        'stock adjustment',
        'POST',
        `/inventory/products/${s.product.id}/adjust`,
        { qty_change: -5, reason: 'damaged' },
        stock,
        needs('changing stock', stock),
      ],
      [
        'a new product with stock',
        'POST',
        '/inventory/products',
        { name: 'Mchele 5kg', selling_price: 14_000, stock: 10 },
        stock,
        needs('changing stock', stock),
      ],
      [
        'product deactivated',
        'PATCH',
        `/inventory/products/${s.product.id}`,
        { is_active: false },
        stock,
        needs('removing a product', stock),
      ],
      ['product deleted', 'DELETE', `/inventory/products/${s.product.id}`, undefined, stock, needs('removing a product', stock)],
    ] as const;
  }

  const read = async (path: string) => (await t.request('GET', path, { token: owner.token })).body.data;

  it('refuses the cashier every power with 403 naming the permission, over REST, and changes nothing', async () => {
    const s = await shop();
    for (const [what, method, path, body, [permission, flag], message] of powers(s)) {
      const res = await t.request(method, path, { token: cashier.token, body });
      expect(res.status, `${what}: ${res.text}`).toBe(403);
      expect(res.body, what).toMatchObject({
        success: false,
        message,
        errors: [{ code: 'FORBIDDEN', message }],
        meta: { permission, flag },
      });
    }
    expect(await read(`/inventory/products/${s.product.id}`)).toMatchObject({ selling_price: 3200, stock: 50, is_active: true });
    expect(await read(`/customers/${s.customer.id}`)).toMatchObject({ credit_limit: 20_000, is_active: true });
    expect(await read(`/credits/customers/${s.customer.id}`)).toMatchObject({ total_outstanding: 12_000 });
    expect(await read(`/suppliers/deliveries/${s.delivery.id}`)).toMatchObject({ is_paid: false });
    expect(await read(`/suppliers/${s.supplier.id}`)).toMatchObject({ outstanding_balance: 50_000 });
    expect((await read('/customers?search=Baraka')).total).toBe(0);
    expect((await read('/inventory/products?search=Mchele')).length).toBe(0);

    // The rest of the job is untouched: a customer without a limit, notes, a product's name, a supplier's phone.
    const asks = [
      ['POST', '/customers', { name: 'Rehema Juma', phone: uniquePhone() }],
      ['POST', '/customers', { name: 'Said Ali', credit_limit: 0 }],
      ['PATCH', `/customers/${s.customer.id}`, { notes: 'pays on Fridays', credit_limit: 20_000 }],
      ['PATCH', `/inventory/products/${s.product.id}`, { name: 'Sukari ya Kilombero 1kg', selling_price: 3200 }],
      ['PATCH', `/suppliers/${s.supplier.id}`, { phone: '0713000111' }],
      ['PATCH', `/suppliers/deliveries/${s.delivery.id}`, { notes: 'two cartons dented', is_paid: false }],
    ] as const;
    for (const [method, path, body] of asks) {
      const res = await t.request(method, path, { token: cashier.token, body });
      expect(res.status, `${method} ${path}: ${res.text}`).toBe(200);
    }
  });

  it('lets a manager (flags on by default), the owner and a staff member granted the flags use every power, where the cashier beside them may not', async () => {
    for (const who of [manager, owner, trusted]) {
      const s = await shop();
      const [what, method, path, body] = powers(s)[0];
      expect((await t.request(method, path, { token: cashier.token, body })).status, what).toBe(403);
      for (const [what, method, path, body] of powers(s)) {
        const res = await t.request(method, path, { token: who.token, body });
        expect(res.status, `${what}: ${res.text}`).toBeLessThan(300);
      }
      const tab = (await read(`/credits/customers/${s.customer.id}`)).tabs[0];
      expect(tab).toMatchObject({ status: 'written_off' });
      expect(await read(`/suppliers/deliveries/${s.delivery.id}`)).toMatchObject({ is_paid: true });
      expect((await t.request('GET', `/suppliers/${s.supplier.id}`, { token: owner.token })).status).toBe(404);
    }
  });

  describe('over sync', () => {
    let n = 0;
    const uuid = () => `0194f2c1-${String(++n).padStart(4, '0')}-7000-8000-${String(Date.now() % 1e12).padStart(12, '0')}`;
    const mutation = (seq: number, type: string, payload: Record<string, unknown>) => ({
      id: uuid(),
      seq,
      type,
      created_at: new Date(t.clock.now() - 60_000).toISOString(),
      payload,
    });
    const pushAs = async (who: Who, mutations: unknown[]) => {
      const device = (await t.request('POST', '/sync/devices', { token: who.token, body: { device_id: uuid(), name: 'Till' } })).body.data
        .device_id;
      const res = await t.request('POST', '/sync/push', { token: who.token, body: { device_id: device, mutations } });
      expect(res.status, res.text).toBe(200);
      return Envelope(PushResponse).parse(res.body).data.results;
    };
    const batch = (s: Awaited<ReturnType<typeof shop>>, newCustomer: string) => [
      mutation(1, 'stock.adjust', { product_id: s.product.id, qty_change: -5, reason: 'damaged' }),
      mutation(2, 'customer.upsert', { id: s.customer.id, name: 'Halima Omari', credit_limit: 0 }),
      mutation(3, 'customer.upsert', { id: newCustomer, name: 'Baraka Said', credit_limit: 500_000 }),
      mutation(4, 'customer.upsert', { id: uuid(), name: 'Rehema Juma' }),
    ];

    it('rejects the cashier’s stock adjustment and credit limits with FORBIDDEN naming the permission, the queue going on; a manager’s and the owner’s apply', async () => {
      const s = await shop();
      const newCustomer = uuid();
      const results = await pushAs(cashier, batch(s, newCustomer));
      expect(results.map((r) => [r.status, r.error])).toEqual([
        [
          'rejected',
          { code: 'FORBIDDEN', message: 'changing stock needs the stock permission (can_manage_stock); ask a manager or the owner' },
        ],
        [
          'rejected',
          {
            code: 'FORBIDDEN',
            message: "changing a customer's credit limit needs the credit permission (can_manage_credit); ask a manager or the owner",
          },
        ],
        [
          'rejected',
          {
            code: 'FORBIDDEN',
            message: "changing a customer's credit limit needs the credit permission (can_manage_credit); ask a manager or the owner",
          },
        ],
        ['applied', undefined],
      ]);
      expect(await read(`/inventory/products/${s.product.id}`)).toMatchObject({ stock: 50 });
      expect(await read(`/customers/${s.customer.id}`)).toMatchObject({ credit_limit: 20_000 });
      expect((await t.request('GET', `/customers/${newCustomer}`, { token: owner.token })).status).toBe(404);

      for (const who of [manager, owner]) {
        const mine = await shop();
        expect((await pushAs(who, batch(mine, uuid()))).map((r) => r.status)).toEqual(['applied', 'applied', 'applied', 'applied']);
        expect(await read(`/inventory/products/${mine.product.id}`)).toMatchObject({ stock: 45 });
        expect(await read(`/customers/${mine.customer.id}`)).toMatchObject({ credit_limit: 0 });
      }
    });
  });
});
