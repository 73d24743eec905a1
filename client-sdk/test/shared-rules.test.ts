import { VOID_REFUSAL } from '@duka/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStaff, registerOwner, type Session } from '../../test/setup/factories.js';
import type { ApiResponse } from '../../test/setup/test-app.js';
import { type SellInput, type Till, TillError } from '@duka/client-sdk';
import { type Harness, openTill, type Shop, seedShop, startServer } from './harness.js';

interface Refusal {
  code: string;
  field?: string;
  message: string;
}

const refusedBy = (res: ApiResponse): Refusal => ({
  code: res.body.errors[0].code,
  field: res.body.errors[0].field,
  message: res.body.message,
});

async function refusedByTill(action: Promise<unknown>): Promise<Refusal> {
  const err = await action.then(
    () => new Error('the till accepted it'),
    (e: unknown) => e,
  );
  if (!(err instanceof TillError)) throw err;
  return { code: err.code, field: err.field, message: err.message };
}

/** Each rule's cases, once through the server over HTTP and once through a till that is offline. */
describe('shared rules: the server online and the till offline answer alike', () => {
  let h: Harness;
  beforeAll(async () => (h = await startServer()));
  afterAll(() => h.close());

  const post = async (s: { token: string }, path: string, body: Record<string, unknown>) => {
    const res = await h.t.request('POST', path, { token: s.token, body });
    expect(res.status, res.text).toBeLessThan(300);
    return res.body.data as { id: string } & Record<string, any>;
  };
  /** A till signed in as `who`, synced, then cut off from the server. */
  const offlineTill = async (who: { phone: string; password: string }): Promise<Till> => {
    h.net.offline = false;
    const till = await openTill(h);
    await till.login(who.phone, who.password);
    await till.syncNow();
    h.net.offline = true;
    return till;
  };

  describe('sale validity (checkSale, checkCreditLimit)', () => {
    let shop: Shop;
    let soap: { id: string };
    let amina: { id: string };
    let staff: Awaited<ReturnType<typeof createStaff>>;
    let owners: Till;
    let staffs: Till;
    beforeAll(async () => {
      shop = await seedShop(h);
      soap = await post(shop.owner, '/inventory/products', { name: 'Old soap', selling_price: 800, stock: 10 });
      expect(
        (await h.t.request('PATCH', `/inventory/products/${soap.id}`, { token: shop.owner.token, body: { is_active: false } })).status,
      ).toBe(200);
      amina = await post(shop.owner, '/customers', { name: 'Amina Said', credit_limit: 5000 });
      staff = await createStaff(h.t, shop.owner);
      staffs = await offlineTill(staff);
      owners = await offlineTill(shop.owner);
    });
    afterAll(async () => {
      await owners.close();
      await staffs.close();
    });

    const missing = '0196f0e0-0000-7000-8000-000000000001';
    const cases: Array<{ name: string; staff?: true; sale: () => SellInput; refused: Refusal }> = [
      {
        name: 'a product the shop does not have, named by its line',
        sale: () => ({
          lines: [
            { product_id: shop.soda.id, qty: 1 },
            { product_id: missing, qty: 1 },
          ],
          payment_method: 'Cash',
        }),
        refused: { code: 'NOT_FOUND', field: 'lines.1.product_id', message: 'product not found' },
      },
      {
        name: 'a product taken off sale',
        sale: () => ({ lines: [{ product_id: soap.id, qty: 1 }], payment_method: 'Cash' }),
        refused: { code: 'BUSINESS_RULE', field: 'lines.0.product_id', message: 'Old soap is no longer sold' },
      },
      {
        name: 'wholesale prices in a retail shop',
        sale: () => ({ lines: [{ product_id: shop.soda.id, qty: 1 }], payment_method: 'Cash', price_mode: 'wholesale' }),
        refused: { code: 'BUSINESS_RULE', field: 'price_mode', message: 'wholesale prices are only for wholesale shops' },
      },
      {
        name: 'a discount from a cashier without the discount permission',
        staff: true,
        sale: () => ({ lines: [{ product_id: shop.soda.id, qty: 1 }], payment_method: 'Cash', discount_pct: 5 }),
        refused: { code: 'FORBIDDEN', field: 'discount_pct', message: 'you are not allowed to give discounts' },
      },
      {
        name: 'a customer the shop does not have',
        sale: () => ({ lines: [{ product_id: shop.soda.id, qty: 1 }], payment_method: 'Cash', customer_id: missing }),
        refused: { code: 'NOT_FOUND', field: 'customer_id', message: 'customer not found' },
      },
      {
        name: 'a credit sale with no customer',
        sale: () => ({ lines: [{ product_id: shop.soda.id, qty: 1 }], payment_method: 'Credit' }),
        refused: { code: 'BUSINESS_RULE', field: 'customer_id', message: 'a credit sale needs a customer' },
      },
    ];
    for (const c of cases) {
      it(`refuses ${c.name}`, async () => {
        const server = refusedBy(
          await h.t.request('POST', '/pos/sale', { token: c.staff ? staff.token : shop.owner.token, body: c.sale() }),
        );
        const till = await refusedByTill((c.staff ? staffs : owners).sell(c.sale()));
        expect(till).toEqual(c.refused);
        expect(server).toEqual(c.refused);
      });
    }

    it('accepts a sale with the owner’s discount at the same figures', async () => {
      const sale = {
        lines: [
          { product_id: shop.soda.id, qty: 2 },
          { product_id: shop.rice.id, qty: 3 },
          { product_id: shop.soda.id, qty: 1 },
        ],
        payment_method: 'Cash' as const,
        discount_pct: 12.5,
      };
      const server = await post(shop.owner, '/pos/sale', sale);
      const till = await owners.sell(sale);
      // 3 × 1,000 + 3 × 3,200 = 12,600; 12.5 % off is 1,575.
      for (const receipt of [server, till]) {
        expect(receipt).toMatchObject({ status: 'paid', subtotal: 12_600, discount: 1575, tax: 0, total: 11_025 });
        expect(receipt.lines.map((l: Record<string, unknown>) => [l.product_name, l.qty, l.line_total, l.discount])).toEqual([
          ['Soda 500ml', 3, 3000, 375],
          ['Rice 1kg', 3, 9600, 1200],
        ]);
      }
    });

    it('refuses a credit sale past the limit online; the till sells it offline and the push books it with that conflict', async () => {
      const sale = { lines: [{ product_id: shop.soda.id, qty: 6 }], payment_method: 'Credit' as const, customer_id: amina.id };
      const message = 'credit limit exceeded: Amina Said owes 0 of a 5000 limit';
      const online = await h.t.request('POST', '/pos/sale', { token: shop.owner.token, body: sale });
      expect(online.status).toBe(422);
      expect(refusedBy(online)).toEqual({ code: 'CREDIT_LIMIT_EXCEEDED', field: 'customer_id', message });

      const receipt = await owners.sell(sale);
      expect(receipt).toMatchObject({ status: 'credit', total: 6000 });
      h.net.offline = false;
      await owners.syncNow();
      h.net.offline = true;
      expect(await owners.transaction(receipt.id)).toMatchObject({ sync_state: 'synced', status: 'credit', total: 6000 });
      expect((await owners.conflicts()).map((c) => [c.kind, c.message, c.transaction_id])).toEqual([['credit_limit', message, receipt.id]]);
    });
  });

  describe('refund and void eligibility, pharmacy quarantine (checkReversal, returnedStockGoesTo)', () => {
    const move = (s: { token: string }, id: string, to: 'refund' | 'void') =>
      h.t.request('POST', `/pos/transactions/${id}/${to}`, { token: s.token, body: { reason: 'customer returned it' } });
    const tillMove = (till: Till, id: string, to: 'refund' | 'void') =>
      to === 'refund' ? till.refund(id, 'customer returned it') : till.void(id, 'customer returned it');
    const stockOf = async (s: Session, id: string) =>
      (await h.t.request('GET', `/inventory/products/${id}`, { token: s.token })).body.data.stock as number;

    let shop: Shop;
    let staff: Awaited<ReturnType<typeof createStaff>>;
    let paid: string;
    let refunded: string;
    let voided: string;
    let creditPaidInPart: string;
    let owners: Till;
    let staffs: Till;
    beforeAll(async () => {
      shop = await seedShop(h);
      staff = await createStaff(h.t, shop.owner);
      const customer = await post(shop.owner, '/customers', { name: 'Mussa Juma' });
      const sell = async (body: Record<string, unknown>) =>
        (await post(shop.owner, '/pos/sale', { lines: [{ product_id: shop.soda.id, qty: 2 }], payment_method: 'Cash', ...body }))
          .id as string;
      paid = await sell({});
      refunded = await sell({});
      voided = await sell({});
      creditPaidInPart = await sell({ payment_method: 'Credit', customer_id: customer.id });
      await post(shop.owner, `/pos/transactions/${refunded}/refund`, { reason: 'spoilt' });
      await post(shop.owner, `/pos/transactions/${voided}/void`, { reason: 'rung twice' });
      await post(shop.owner, `/credits/customers/${customer.id}/payments`, { amount: 500, method: 'Cash' });
      staffs = await offlineTill(staff);
      owners = await offlineTill(shop.owner);
    });
    afterAll(async () => {
      await owners.close();
      await staffs.close();
    });

    const cases: Array<{ name: string; staff?: true; sale: () => string; to: 'refund' | 'void'; refused: Refusal; onlineField?: null }> = [
      {
        name: 'a refund from a cashier without the refund permission',
        staff: true,
        sale: () => paid,
        to: 'refund',
        refused: { code: 'FORBIDDEN', message: 'you are not allowed to give refunds' },
      },
      {
        name: 'a void from a cashier without the refund permission of a sale they did not ring up',
        staff: true,
        sale: () => paid,
        to: 'void',
        refused: { code: 'FORBIDDEN', message: VOID_REFUSAL },
      },
      {
        name: 'a sale the store does not have (the 404 names no field)',
        sale: () => '0196f0e0-0000-7000-8000-000000000002',
        to: 'void',
        refused: { code: 'NOT_FOUND', field: 'transaction_id', message: 'transaction not found' },
        onlineField: null,
      },
      {
        name: 'refunding a refunded sale',
        sale: () => refunded,
        to: 'refund',
        refused: { code: 'INVALID_STATE', message: 'a refunded sale cannot be refunded' },
      },
      {
        name: 'voiding a refunded sale',
        sale: () => refunded,
        to: 'void',
        refused: { code: 'INVALID_STATE', message: 'a refunded sale cannot be voided' },
      },
      {
        name: 'refunding a voided sale',
        sale: () => voided,
        to: 'refund',
        refused: { code: 'INVALID_STATE', message: 'a voided sale cannot be refunded' },
      },
      {
        name: 'voiding a credit sale whose tab took a payment',
        sale: () => creditPaidInPart,
        to: 'void',
        refused: { code: 'INVALID_STATE', message: 'this credit sale has payments; refund it instead of voiding it' },
      },
    ];
    for (const c of cases) {
      it(`refuses ${c.name}`, async () => {
        const server = refusedBy(await move(c.staff ? staff : shop.owner, c.sale(), c.to));
        const till = await refusedByTill(tillMove(c.staff ? staffs : owners, c.sale(), c.to));
        expect(till).toEqual(c.refused);
        expect(server).toEqual(c.onlineField === null ? { ...c.refused, field: undefined } : c.refused);
      });
    }

    it('voids a paid sale and puts its stock back on the shelf on both', async () => {
      const [serverBefore, tillBefore] = [await stockOf(shop.owner, shop.soda.id), await owners.stock(shop.soda.id)];
      const online = await move(shop.owner, paid, 'void');
      expect(online.status, online.text).toBe(200);
      expect(online.body.data).toMatchObject({ status: 'void', void_reason: 'customer returned it' });
      expect(await tillMove(owners, paid, 'void')).toMatchObject({ status: 'void', void_reason: 'customer returned it' });
      expect(await stockOf(shop.owner, shop.soda.id)).toBe(serverBefore + 2);
      expect(await owners.stock(shop.soda.id)).toBe(tillBefore! + 2);
    });

    it('in a pharmacy, holds refunded medicine off the shelf but shelves voided medicine, on both', async () => {
      const owner = await registerOwner(h.t, {
        shop: { name: 'Dawa Bora', business_type: 'pharmacy', region: 'dar-es-salaam', district: 'Ilala' },
      });
      const panadol = await post(owner, '/inventory/products', { name: 'Panadol 500mg', selling_price: 1500, stock: 50 });
      const sell = async () =>
        (await post(owner, '/pos/sale', { lines: [{ product_id: panadol.id, qty: 4 }], payment_method: 'Cash' })).id as string;
      const [refund, keep] = [await sell(), await sell()];
      const till = await offlineTill(owner);
      try {
        expect(await till.stock(panadol.id)).toBe(42);
        expect((await move(owner, refund, 'refund')).status).toBe(200);
        await tillMove(till, refund, 'refund');
        expect(await stockOf(owner, panadol.id)).toBe(42);
        expect(await till.stock(panadol.id)).toBe(42);
        const held = await h.t.db.db
          .selectFrom('stock_quarantine')
          .select(['product_id', 'qty'])
          .where('transaction_id', '=', refund)
          .execute();
        expect(held).toEqual([{ product_id: panadol.id, qty: 4 }]);

        expect((await move(owner, keep, 'void')).status).toBe(200);
        await tillMove(till, keep, 'void');
        expect(await stockOf(owner, panadol.id)).toBe(46);
        expect(await till.stock(panadol.id)).toBe(46);
      } finally {
        await till.close();
      }
    });
  });

  describe('credit payments, oldest tab first (allocatePayment)', () => {
    it('refuses more than is owed and spreads an accepted payment over the same tabs', async () => {
      const shop = await seedShop(h);
      const customer = await post(shop.owner, '/customers', { name: 'Mussa Juma' });
      const tabs: string[] = [];
      // Tabs of 10,000, 5,000 and 2,500 opened a minute apart.
      for (const [product, qty] of [
        [shop.soda, 10],
        [shop.unga, 2],
        [shop.unga, 1],
      ] as const) {
        const sale = await post(shop.owner, '/pos/sale', {
          lines: [{ product_id: product.id, qty }],
          payment_method: 'Credit',
          customer_id: customer.id,
        });
        tabs.push(
          (await h.t.db.db.selectFrom('credit_tabs').select('id').where('transaction_id', '=', sale.id).executeTakeFirstOrThrow()).id,
        );
        h.t.clock.advance(60_000);
      }
      const till = await offlineTill(shop.owner);
      try {
        const pay = (amount: number) => ({ customer_id: customer.id, amount, method: 'Cash' as const });
        const over = { code: 'OVERPAYMENT', field: 'amount', message: 'Mussa Juma owes TZS 17500; the payment cannot be more than that' };
        expect(
          refusedBy(
            await h.t.request('POST', `/credits/customers/${customer.id}/payments`, { token: shop.owner.token, body: pay(17_500.01) }),
          ),
        ).toEqual(over);
        expect(await refusedByTill(till.recordCreditPayment(pay(17_500.01)))).toEqual(over);

        const online = await post(shop.owner, `/credits/customers/${customer.id}/payments`, pay(12_000));
        const offline = await till.recordCreditPayment(pay(12_000));
        const spread = [
          { tab_id: tabs[0], amount: 10_000 },
          { tab_id: tabs[1], amount: 2000 },
        ];
        expect(online.allocations).toEqual(spread);
        expect(offline.allocations).toEqual(spread);
        expect(offline.outstanding_balance).toBe(5500);
      } finally {
        await till.close();
      }
    });
  });
});
