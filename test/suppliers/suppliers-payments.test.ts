import { Envelope, type PageMeta, PagedEnvelope, SupplierPayment } from '@duka/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStaff, registerOwner, type Session } from '../setup/factories.js';
import { balanceOf, newDelivery, newSupplier } from '../setup/suppliers-factories.js';
import { createTestApp, type TestApp } from '../setup/test-app.js';

describe('suppliers: payments, owner only, never above what is owed', () => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp()));
  afterAll(() => t.close());

  const payDelivery = (s: { token: string }, id: string, body: Record<string, unknown>, headers?: Record<string, string>) =>
    t.request('POST', `/suppliers/deliveries/${id}/pay`, { token: s.token, body: { payment_method: 'Cash', ...body }, headers });
  const paySupplier = (s: { token: string }, id: string, body: Record<string, unknown>, headers?: Record<string, string>) =>
    t.request('POST', `/suppliers/${id}/pay`, { token: s.token, body: { payment_method: 'Bank', ...body }, headers });
  const payments = async (s: Session, path = '/suppliers/payments') => {
    const body = (await t.request('GET', path, { token: s.token })).body;
    return { data: PagedEnvelope(SupplierPayment).parse(body).data, meta: body.meta as PageMeta };
  };
  const delivery = async (s: Session, id: string) => (await t.request('GET', `/suppliers/deliveries/${id}`, { token: s.token })).body.data;

  it('pays one delivery, then the supplier balance oldest delivery first; the balance is exact throughout', async () => {
    const owner = await registerOwner(t);
    const supplier = await newSupplier(t, owner);
    const first = await newDelivery(t, owner, supplier.id, {
      status: 'delivered',
      total_value: 50_000,
      delivery_date: '2026-02-01T08:00:00Z',
    });
    const second = await newDelivery(t, owner, supplier.id, {
      status: 'partial',
      total_value: 30_000.75,
      delivery_date: '2026-02-03T08:00:00Z',
    });
    await newDelivery(t, owner, supplier.id, { status: 'expected', total_value: 99_000 });
    expect(await balanceOf(t, owner, supplier.id)).toBe(80_000.75);

    const res = await payDelivery(owner, second.id, { amount: 10_000, payment_method: 'M-Pesa', reference: 'QX12AB', notes: 'first part' });
    expect(res.status, res.text).toBe(200);
    expect(Envelope(SupplierPayment).parse(res.body).data).toMatchObject({
      supplier_id: supplier.id,
      delivery_id: second.id,
      store_id: owner.storeId,
      amount: 10_000,
      payment_method: 'M-Pesa',
      reference: 'QX12AB',
      notes: 'first part',
      created_by: owner.userId,
      allocations: [{ delivery_id: second.id, amount: 10_000 }],
    });
    expect(await balanceOf(t, owner, supplier.id)).toBe(70_000.75);
    expect(await delivery(owner, second.id)).toMatchObject({ paid_amount: 10_000, balance: 20_000.75, is_paid: false });

    const wide = await paySupplier(owner, supplier.id, { amount: 60_000 });
    expect(wide.status, wide.text).toBe(200);
    expect(wide.body.data).toMatchObject({
      delivery_id: null,
      amount: 60_000,
      allocations: [
        { delivery_id: first.id, amount: 50_000 },
        { delivery_id: second.id, amount: 10_000 },
      ],
    });
    expect(await balanceOf(t, owner, supplier.id)).toBe(10_000.75);
    expect(await delivery(owner, first.id)).toMatchObject({ paid_amount: 50_000, balance: 0, is_paid: true });
    const unpaid = (await t.request('GET', '/suppliers/deliveries?unpaid=true', { token: owner.token })).body.data.map(
      (d: { id: string }) => d.id,
    );
    expect(unpaid).toEqual([second.id]);

    const rest = await payDelivery(owner, second.id, { amount: 10_000.75 });
    expect(rest.status, rest.text).toBe(200);
    expect(await balanceOf(t, owner, supplier.id)).toBe(0);
    expect(await delivery(owner, second.id)).toMatchObject({ paid_amount: 30_000.75, is_paid: true });
    const stats = (await t.request('GET', '/suppliers/stats', { token: owner.token })).body.data;
    expect(stats).toMatchObject({ total_outstanding: 0, payments_this_month: 80_000.75 });

    const listed = await payments(owner);
    expect(listed.data.map((p) => p.amount)).toEqual([10_000.75, 60_000, 10_000]);
    expect(listed.meta.total).toBe(3);
    expect((await payments(owner, `/suppliers/${supplier.id}/payments?page_size=2`)).data.map((p) => p.amount)).toEqual([
      10_000.75, 60_000,
    ]);
    const otherSupplier = await newSupplier(t, owner, { name: 'Other' });
    await newDelivery(t, owner, otherSupplier.id, { status: 'delivered', total_value: 500 });
    expect((await paySupplier(owner, otherSupplier.id, { amount: 500 })).status).toBe(200);
    expect(
      (await payments(owner, `/suppliers/payments?supplier=${otherSupplier.id}`)).data.map((p) => [p.supplier_name, p.amount]),
    ).toEqual([['Other', 500]]);
    expect((await payments(owner, `/suppliers/payments?supplier=${supplier.id}`)).meta.total).toBe(3);
  });

  it('refuses a payment above what is owed with 422 and writes nothing', async () => {
    const owner = await registerOwner(t);
    const supplier = await newSupplier(t, owner);
    const d = await newDelivery(t, owner, supplier.id, { status: 'delivered', total_value: 20_000 });
    const expected = await newDelivery(t, owner, supplier.id, { status: 'expected', total_value: 5_000 });
    expect((await payDelivery(owner, d.id, { amount: 15_000 })).status).toBe(200);

    const over = await payDelivery(owner, d.id, { amount: 5_000.01 });
    expect(over.status).toBe(422);
    expect(over.body.errors[0]).toMatchObject({ code: 'OVERPAYMENT', field: 'amount' });
    expect(over.body.message).toContain('5000');
    const overAll = await paySupplier(owner, supplier.id, { amount: 5_001 });
    expect(overAll.status).toBe(422);
    expect(overAll.body.errors[0].code).toBe('OVERPAYMENT');
    const notArrived = await payDelivery(owner, expected.id, { amount: 1 });
    expect(notArrived.status).toBe(422);

    expect(await balanceOf(t, owner, supplier.id)).toBe(5_000);
    expect((await payments(owner)).data.map((p) => p.amount)).toEqual([15_000]);
    expect(await delivery(owner, d.id)).toMatchObject({ paid_amount: 15_000, balance: 5_000 });
    expect(
      await t.db.db.selectFrom('supplier_payment_allocations').select('amount').where('delivery_id', 'in', [d.id, expected.id]).execute(),
    ).toHaveLength(1);

    const zero = await paySupplier(owner, supplier.id, { amount: 0 });
    expect(zero.status).toBe(400);
    expect(zero.body.errors[0].field).toBe('amount');
    const method = await paySupplier(owner, supplier.id, { amount: 1, payment_method: 'Gold' });
    expect(method.body.errors[0].field).toBe('payment_method');
  });

  it('two concurrent payments that together exceed the balance: one is refused', async () => {
    const owner = await registerOwner(t);
    const supplier = await newSupplier(t, owner);
    const d = await newDelivery(t, owner, supplier.id, { status: 'delivered', total_value: 10_000 });
    const results = await Promise.all([payDelivery(owner, d.id, { amount: 7_000 }), paySupplier(owner, supplier.id, { amount: 7_000 })]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 422]);
    expect(await balanceOf(t, owner, supplier.id)).toBe(3_000);
  });

  // Paying is the owner's only (staff and managers 403, nothing written): test/api/access-rules.test.ts.
  it('lets staff read payments', async () => {
    const owner = await registerOwner(t);
    const staff = await createStaff(t, owner);
    const read = await t.request('GET', '/suppliers/payments', { token: staff.token });
    expect(read.status).toBe(200);
    expect(read.body.data).toEqual([]);
  });

  // Paying another organisation's delivery or supplier by id (404, nothing written): test/api/access-rules.test.ts.
  it("lists no payments when filtered by another organisation's supplier", async () => {
    const owner = await registerOwner(t);
    const other = await registerOwner(t);
    const theirs = await newSupplier(t, other);
    const d = await newDelivery(t, other, theirs.id, { status: 'delivered', total_value: 10_000 });
    expect((await paySupplier(other, theirs.id, { amount: 100 })).status).toBe(200);
    expect((await payDelivery(other, d.id, { amount: 100 })).status).toBe(200);
    expect((await t.request('GET', `/suppliers/payments?supplier=${theirs.id}`, { token: owner.token })).body.data).toEqual([]);
  });

  it('honours Idempotency-Key: a retry replays the first payment', async () => {
    const owner = await registerOwner(t);
    const supplier = await newSupplier(t, owner);
    const d = await newDelivery(t, owner, supplier.id, { status: 'delivered', total_value: 10_000 });
    const key = { 'Idempotency-Key': 'pay-supplier-0001' };
    const first = await paySupplier(owner, supplier.id, { amount: 4_000 }, key);
    const again = await paySupplier(owner, supplier.id, { amount: 4_000 }, key);
    expect(again.status).toBe(200);
    expect(again.headers.get('Idempotent-Replayed')).toBe('true');
    expect(again.body.data.id).toBe(first.body.data.id);
    expect(await balanceOf(t, owner, supplier.id)).toBe(6_000);
    expect((await paySupplier(owner, supplier.id, { amount: 5_000 }, key)).status).toBe(422);
    const dkey = { 'Idempotency-Key': 'pay-delivery-0001' };
    const one = await payDelivery(owner, d.id, { amount: 1_000 }, dkey);
    const two = await payDelivery(owner, d.id, { amount: 1_000 }, dkey);
    expect(two.body.data.id).toBe(one.body.data.id);
    expect(await balanceOf(t, owner, supplier.id)).toBe(5_000);
  });

  it('a paid delivery cannot be returned or cut below what was paid', async () => {
    const owner = await registerOwner(t);
    const supplier = await newSupplier(t, owner);
    const d = await newDelivery(t, owner, supplier.id, { status: 'delivered', total_value: 10_000 });
    await payDelivery(owner, d.id, { amount: 4_000 });
    const ret = await t.request('PATCH', `/suppliers/deliveries/${d.id}`, { token: owner.token, body: { status: 'returned' } });
    expect(ret.status).toBe(422);
    const cut = await t.request('PATCH', `/suppliers/deliveries/${d.id}`, { token: owner.token, body: { total_value: 3_999 } });
    expect(cut.status).toBe(422);
    expect(cut.body.errors[0].field).toBe('total_value');
    const raised = await t.request('PATCH', `/suppliers/deliveries/${d.id}`, { token: owner.token, body: { total_value: 12_000 } });
    expect(raised.body.data).toMatchObject({ total_value: 12_000, balance: 8_000 });
    const settled = await t.request('PATCH', `/suppliers/deliveries/${d.id}`, { token: owner.token, body: { is_paid: true } });
    expect(settled.body.data).toMatchObject({ is_paid: true, balance: 0 });
    expect(await balanceOf(t, owner, supplier.id)).toBe(0);
    expect((await t.request('DELETE', `/suppliers/deliveries/${d.id}`, { token: owner.token })).status).toBe(409);
  });
});
