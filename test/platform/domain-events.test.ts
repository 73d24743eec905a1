import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerOwner } from '../setup/factories.js';
import { createTestApp, type TestApp } from '../setup/test-app.js';

describe('domain events as stored (the contract of design §3)', () => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp()));
  afterAll(() => t.close());

  const eventsOf = async (orgId: string, transactionId: string) =>
    (await t.db.db.selectFrom('events').selectAll().where('org_id', '=', orgId).orderBy('occurred_at').execute())
      .map((e) => ({ ...e, data: JSON.parse(e.payload) as Record<string, unknown> }))
      .filter((e) => e.data.transaction_id === transactionId);

  it('records a sale as transaction.created and its refund as transaction.refunded, amounts in shillings', async () => {
    const owner = await registerOwner(t);
    const product = await t.request('POST', '/inventory/products', {
      token: owner.token,
      body: { name: 'Juisi', selling_price: 1500, stock: 50, reorder_point: 10 },
    });
    expect(product.status, product.text).toBe(200);
    const productId = product.body.data.id as string;
    const sold = await t.request('POST', '/pos/sale', {
      token: owner.token,
      body: { lines: [{ product_id: productId, qty: 4 }], payment_method: 'Cash' },
    });
    expect(sold.status, sold.text).toBe(201);
    const sale = sold.body.data as { id: string; number: number; receipt_number: string };

    const [created] = await eventsOf(owner.orgId, sale.id);
    expect(created).toMatchObject({ type: 'transaction.created', org_id: owner.orgId, store_id: owner.storeId });
    expect(created!.data).toEqual({
      transaction_id: sale.id,
      number: sale.number,
      receipt_number: sale.receipt_number,
      status: 'paid',
      payment_method: 'Cash',
      total: 6000,
      customer_id: null,
      cashier_id: owner.userId,
      source: 'online',
      // Issue 51: the figures are in the product's unit, which each line names.
      lines: [
        { product_id: productId, product_name: 'Juisi', qty: 4, unit: 'piece', stock_after: 46, reorder_point: 10, is_service: false },
      ],
    });

    t.clock.advance(1000);
    const refund = await t.request('POST', `/pos/transactions/${sale.id}/refund`, {
      token: owner.token,
      body: { reason: 'customer returned it' },
    });
    expect(refund.status, refund.text).toBe(200);
    const events = await eventsOf(owner.orgId, sale.id);
    expect(events.map((e) => e.type)).toEqual(['transaction.created', 'transaction.refunded']);
    expect(events[1]!.data).toEqual({
      transaction_id: sale.id,
      receipt_number: sale.receipt_number,
      total: 6000,
      customer_id: null,
      reason: 'customer returned it',
      previous_status: 'paid',
    });
  });

  it('records a void as transaction.voided', async () => {
    const owner = await registerOwner(t);
    const product = await t.request('POST', '/inventory/products', {
      token: owner.token,
      body: { name: 'Maji 1L', selling_price: 800, stock: 20 },
    });
    const sold = await t.request('POST', '/pos/sale', {
      token: owner.token,
      body: { lines: [{ product_id: product.body.data.id, qty: 3 }], payment_method: 'M-Pesa' },
    });
    expect(sold.status, sold.text).toBe(201);
    const sale = sold.body.data as { id: string; receipt_number: string };
    t.clock.advance(1000);
    const voided = await t.request('POST', `/pos/transactions/${sale.id}/void`, { token: owner.token, body: { reason: 'rung up twice' } });
    expect(voided.status, voided.text).toBe(200);
    const events = await eventsOf(owner.orgId, sale.id);
    expect(events.map((e) => e.type)).toEqual(['transaction.created', 'transaction.voided']);
    expect(events[1]).toMatchObject({ org_id: owner.orgId, store_id: owner.storeId });
    expect(events[1]!.data).toEqual({
      transaction_id: sale.id,
      receipt_number: sale.receipt_number,
      total: 2400,
      customer_id: null,
      reason: 'rung up twice',
      previous_status: 'paid',
    });
  });
});
