/**
 * Issue 52, purchase orders over real HTTP: 10 cartons of soda (24 each) and 5 kg of sugar ordered,
 * sent by SMS (the outbox holds the message naming the order), received in two deliveries (6
 * cartons, then 4 cartons and the sugar) with stock, cost prices and the supplier's balance exact
 * and the rest shown owed in between; more than owed refused (409, nothing written); cancel;
 * another organisation's order 404; bad input 400 naming the field.
 */
import { randomUUID } from 'node:crypto';
import { Envelope, PurchaseOrder } from '@duka/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStaff, lastMessage, registerOwner, type Session } from '../setup/factories.js';
import { balanceOf, newSupplier, productOf } from '../setup/suppliers-factories.js';
import { createTestApp, type TestApp } from '../setup/test-app.js';

describe('purchase orders: draft, send by SMS, receive in deliveries, cancel', () => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp()));
  afterAll(() => t.close());

  const call = async (s: { token: string }, method: string, path: string, body?: unknown, status = 200) => {
    const res = await t.request(method, path, { token: s.token, body });
    expect(res.status, res.text).toBe(status);
    return res.body;
  };
  const order = async (s: Session, path: string, body?: unknown) =>
    Envelope(PurchaseOrder).parse(await call(s, 'POST', `/suppliers/purchase-orders${path}`, body)).data;
  /** Soda sold by the piece with a carton of 24, sugar by the kg; a supplier with a phone. */
  const shop = async (s: Session) => {
    const soda = (
      await call(s, 'POST', '/inventory/products', {
        name: 'Soda',
        stock: 0,
        cost_price: 700,
        selling_price: 1000,
        packs: [{ name: 'Carton', units: 24 }],
      })
    ).data;
    const sugar = (
      await call(s, 'POST', '/inventory/products', { name: 'Sukari', unit: 'kg', stock: 0, cost_price: 2800, selling_price: 3500 })
    ).data;
    const supplier = await newSupplier(t, s, { name: 'Bakhresa Wholesale', phone: '0712 345 678' });
    return { soda: soda.id as string, carton: soda.packs[0].id as string, sugar: sugar.id as string, supplier: supplier.id };
  };
  const draft = (s: Session, ids: Awaited<ReturnType<typeof shop>>) =>
    order(s, '', {
      supplier_id: ids.supplier,
      lines: [
        { product_id: ids.soda, pack_id: ids.carton, qty: 10, unit_cost: 19200 },
        { product_id: ids.sugar, qty: 5, unit_cost: 3000 },
      ],
    });
  const figures = (po: PurchaseOrder) => po.lines.map((l) => [l.product_name, l.ordered, l.received, l.owed]);

  it('sent by SMS, received in two deliveries: the rest owed after the first, received after the second, stock and balance exact', async () => {
    const owner = await registerOwner(t);
    const ids = await shop(owner);
    const po = await draft(owner, ids);
    expect(po).toMatchObject({ status: 'draft', total_value: 207000, supplier_name: 'Bakhresa Wholesale', delivery_ids: [] });
    expect(po.lines.map((l) => [l.qty, l.pack?.units ?? null, l.unit_cost])).toEqual([
      [10, 24, 19200],
      [5, null, 3000],
    ]);
    expect(figures(po)).toEqual([
      ['Soda', 240, 0, 240],
      ['Sukari', 5, 0, 5],
    ]);

    const sent = await order(owner, `/${po.id}/send`);
    expect(sent).toMatchObject({ status: 'sent', sent_to: '+255712345678', sent_via: 'sms' });
    const sms = await lastMessage(t, '+255712345678');
    expect(sms).toMatchObject({ channel: 'sms', org_id: owner.orgId });
    expect(sms!.body).toContain(po.reference);
    expect(sms!.body).toContain('10 x Carton Soda; 5 kg Sukari');
    expect((await call(owner, 'POST', `/suppliers/purchase-orders/${po.id}/send`, undefined, 409)).errors[0].code).toBe('INVALID_STATE');

    // First delivery: 6 cartons (as ordered, at the order's cost).
    const first = await order(owner, `/${po.id}/receive`, { invoice_number: 'INV-1', lines: [{ product_id: ids.soda, qty: 6 }] });
    expect(first.status).toBe('partly_received');
    expect(figures(first)).toEqual([
      ['Soda', 240, 144, 96],
      ['Sukari', 5, 0, 5],
    ]);
    expect(first.delivery_ids).toHaveLength(1);
    expect(await productOf(t, owner, ids.soda)).toMatchObject({ stock: 144, cost_price: 800 });
    expect(await balanceOf(t, owner, ids.supplier)).toBe(115200);
    const delivery = (await call(owner, 'GET', `/suppliers/deliveries/${first.delivery_ids[0]}`)).data;
    expect(delivery).toMatchObject({ status: 'delivered', invoice_number: 'INV-1', total_value: 115200 });
    expect(delivery.lines).toMatchObject([{ product_id: ids.soda, qty: 6, unit_cost: 19200, pack: { id: ids.carton, units: 24 } }]);

    // Second: the 4 cartons owed and the sugar, at a new price.
    const second = await order(owner, `/${po.id}/receive`, {
      lines: [
        { product_id: ids.soda, qty: 4 },
        { product_id: ids.sugar, qty: 5, unit_cost: 3100 },
      ],
    });
    expect(second.status).toBe('received');
    expect(figures(second)).toEqual([
      ['Soda', 240, 240, 0],
      ['Sukari', 5, 5, 0],
    ]);
    expect(second.delivery_ids).toHaveLength(2);
    expect(second.delivery_ids[0]).toBe(first.delivery_ids[0]);
    expect(await productOf(t, owner, ids.soda)).toMatchObject({ stock: 240, cost_price: 800 });
    expect(await productOf(t, owner, ids.sugar)).toMatchObject({ stock: 5, cost_price: 3100 });
    expect(await balanceOf(t, owner, ids.supplier)).toBe(115200 + 76800 + 15500);

    // Received in full: nothing more comes in against it, and it can no longer be cancelled.
    const again = await call(
      owner,
      'POST',
      `/suppliers/purchase-orders/${po.id}/receive`,
      { lines: [{ product_id: ids.sugar, qty: 1 }] },
      409,
    );
    expect(again.errors[0].code).toBe('INVALID_STATE');
    expect((await call(owner, 'POST', `/suppliers/purchase-orders/${po.id}/cancel`, undefined, 409)).errors[0].code).toBe('INVALID_STATE');
    const listed = (await call(owner, 'GET', '/suppliers/purchase-orders?status=received')).data;
    expect(listed.map((p: PurchaseOrder) => p.id)).toEqual([po.id]);
  });

  it('sent by email when asked: the outbox holds the email with the lines and total; no address is 422 naming it, nothing sent', async () => {
    const owner = await registerOwner(t);
    const ids = await shop(owner);
    const po = await draft(owner, ids);
    const cannot = await call(owner, 'POST', `/suppliers/purchase-orders/${po.id}/send`, { channel: 'email' }, 422);
    expect(cannot.errors[0]).toMatchObject({ code: 'BUSINESS_RULE', field: 'supplier.email' });
    expect(cannot.message).toBe('Bakhresa Wholesale has no email address to write to');
    expect((await call(owner, 'GET', `/suppliers/purchase-orders/${po.id}`)).data).toMatchObject({ status: 'draft', sent_via: null });
    expect((await call(owner, 'POST', `/suppliers/purchase-orders/${po.id}/send`, { channel: 'fax' }, 400)).errors[0].field).toBe(
      'channel',
    );

    await call(owner, 'PATCH', `/suppliers/${ids.supplier}`, { email: 'Orders@Bakhresa.co.tz' });
    const sent = await order(owner, `/${po.id}/send`, { channel: 'email' });
    expect(sent).toMatchObject({ status: 'sent', sent_to: 'orders@bakhresa.co.tz', sent_via: 'email' });
    const mail = await lastMessage(t, 'orders@bakhresa.co.tz');
    expect(mail).toMatchObject({
      channel: 'email',
      org_id: owner.orgId,
      subject: expect.stringContaining(`Purchase order ${po.reference} from `),
    });
    expect(mail!.body).toContain('- 10 x Carton Soda at TZS 19200 a pack\n- 5 kg Sukari at TZS 3000\n\nExpected total: TZS 207000');
    // One message for the order, the email: no SMS besides.
    const messages = await t.db.db
      .selectFrom('outbox')
      .select('channel')
      .where('org_id', '=', owner.orgId)
      .where('body', 'like', `%${po.reference}%`)
      .execute();
    expect(messages).toEqual([{ channel: 'email' }]);
  });

  it('more than a line still owes is 409 naming the line and writes nothing; kg in thousandths; loose units need a cost', async () => {
    const owner = await registerOwner(t);
    const ids = await shop(owner);
    const po = await draft(owner, ids);
    await order(owner, `/${po.id}/receive`, { lines: [{ product_id: ids.sugar, qty: 2.375 }] });
    const over = async (lines: unknown[], field: string) => {
      const res = await call(owner, 'POST', `/suppliers/purchase-orders/${po.id}/receive`, { lines }, 409);
      expect(res.errors[0]).toMatchObject({ code: 'CONFLICT', field });
    };
    await over([{ product_id: ids.soda, qty: 11 }], 'lines.0.qty');
    await over(
      [
        { product_id: ids.soda, qty: 10 },
        { product_id: ids.sugar, qty: 2.626 },
      ],
      'lines.1.qty',
    );
    await over([{ product_id: ids.soda, pack_id: null, qty: 241, unit_cost: 800 }], 'lines.0.qty');
    expect(await productOf(t, owner, ids.soda)).toMatchObject({ stock: 0 });
    expect(await productOf(t, owner, ids.sugar)).toMatchObject({ stock: 2.375 });
    const seen = Envelope(PurchaseOrder).parse(await call(owner, 'GET', `/suppliers/purchase-orders/${po.id}`)).data;
    expect(figures(seen)).toEqual([
      ['Soda', 240, 0, 240],
      ['Sukari', 5, 2.375, 2.625],
    ]);
    expect(seen.delivery_ids).toHaveLength(1);

    // Loose sodas against a carton line: counted in pieces, and the cost must be said.
    const loose = await call(
      owner,
      'POST',
      `/suppliers/purchase-orders/${po.id}/receive`,
      { lines: [{ product_id: ids.soda, pack_id: null, qty: 30 }] },
      400,
    );
    expect(loose.errors[0]).toMatchObject({ field: 'lines.0.unit_cost' });
    const part = await order(owner, `/${po.id}/receive`, { lines: [{ product_id: ids.soda, pack_id: null, qty: 30, unit_cost: 800 }] });
    expect(figures(part)[0]).toEqual(['Soda', 240, 30, 210]);
    expect(await productOf(t, owner, ids.soda)).toMatchObject({ stock: 30 });
  });

  it('a receive replayed with its Idempotency-Key changes nothing and answers the same; receives at once never take more than owed', async () => {
    const owner = await registerOwner(t);
    const ids = await shop(owner);
    const po = await draft(owner, ids);
    await order(owner, `/${po.id}/send`);
    const receive = (body: unknown, key?: string) =>
      t.request('POST', `/suppliers/purchase-orders/${po.id}/receive`, {
        token: owner.token,
        body,
        headers: key ? { 'idempotency-key': key } : {},
      });
    const six = { invoice_number: 'INV-1', lines: [{ product_id: ids.soda, qty: 6 }] };
    const first = await receive(six, 'receive-po-1');
    expect(first.status, first.text).toBe(200);
    const replay = await receive(six, 'receive-po-1');
    expect(replay.status).toBe(200);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toEqual(first.body);
    expect(await productOf(t, owner, ids.soda)).toMatchObject({ stock: 144 });
    expect(await balanceOf(t, owner, ids.supplier)).toBe(115200);
    const seen = Envelope(PurchaseOrder).parse(await call(owner, 'GET', `/suppliers/purchase-orders/${po.id}`)).data;
    expect([figures(seen)[0], seen.delivery_ids.length]).toEqual([['Soda', 240, 144, 96], 1]);
    const other = await receive({ lines: [{ product_id: ids.soda, qty: 1 }] }, 'receive-po-1');
    expect([other.status, other.body.errors[0].code]).toEqual([422, 'IDEMPOTENCY_MISMATCH']);

    // 4 cartons still owed; three receives of 3 at once (each its own key): one comes in, the others are more than owed.
    const at = await Promise.all(['a', 'b', 'c'].map((k) => receive({ lines: [{ product_id: ids.soda, qty: 3 }] }, `receive-po-${k}`)));
    expect(at.map((r) => r.status).sort()).toEqual([200, 409, 409]);
    expect(await productOf(t, owner, ids.soda)).toMatchObject({ stock: 216 });
    // The last carton, twice at once with no key: once.
    const last = await Promise.all([0, 1].map(() => receive({ lines: [{ product_id: ids.soda, qty: 1 }] })));
    expect(last.map((r) => r.status).sort()).toEqual([200, 409]);
    const after = Envelope(PurchaseOrder).parse(await call(owner, 'GET', `/suppliers/purchase-orders/${po.id}`)).data;
    expect([figures(after)[0], after.status, after.delivery_ids.length]).toEqual([['Soda', 240, 240, 0], 'partly_received', 3]);
    expect(await productOf(t, owner, ids.soda)).toMatchObject({ stock: 240 });
    expect(await balanceOf(t, owner, ids.supplier)).toBe(192000);
  });

  it('cancel: a partly received order keeps what came; again answers the same; a cancelled order takes no delivery', async () => {
    const owner = await registerOwner(t);
    const ids = await shop(owner);
    const untouched = await draft(owner, ids);
    expect((await order(owner, `/${untouched.id}/cancel`)).status).toBe('cancelled');
    const po = await draft(owner, ids);
    await order(owner, `/${po.id}/send`);
    await order(owner, `/${po.id}/receive`, { lines: [{ product_id: ids.soda, qty: 2 }] });
    const cancelled = await order(owner, `/${po.id}/cancel`);
    expect(cancelled.status).toBe('cancelled');
    expect(cancelled.cancelled_at).not.toBeNull();
    expect(figures(cancelled)[0]).toEqual(['Soda', 240, 48, 192]);
    expect(await order(owner, `/${po.id}/cancel`)).toEqual(cancelled);
    expect(await productOf(t, owner, ids.soda)).toMatchObject({ stock: 48 });
    for (const verb of ['send', 'receive'])
      await call(owner, 'POST', `/suppliers/purchase-orders/${po.id}/${verb}`, { lines: [{ product_id: ids.soda, qty: 1 }] }, 409);
  });

  it("another organisation's order is not found; staff without the suppliers permission are refused; bad input 400 naming the field", async () => {
    const owner = await registerOwner(t);
    const other = await registerOwner(t);
    const ids = await shop(owner);
    const theirs = await shop(other);
    const po = await draft(owner, ids);
    for (const [method, path, body] of [
      ['GET', `/suppliers/purchase-orders/${po.id}`, undefined],
      ['POST', `/suppliers/purchase-orders/${po.id}/send`, undefined],
      ['POST', `/suppliers/purchase-orders/${po.id}/receive`, { lines: [{ product_id: theirs.soda, qty: 1 }] }],
      ['POST', `/suppliers/purchase-orders/${po.id}/cancel`, undefined],
    ] as const) {
      const res = await t.request(method, path, { token: other.token, body });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body.message).toBe('purchase order not found');
    }
    expect((await call(other, 'GET', '/suppliers/purchase-orders')).data).toEqual([]);
    // Their supplier, their product, their pack: not found.
    await call(
      owner,
      'POST',
      '/suppliers/purchase-orders',
      { supplier_id: theirs.supplier, lines: [{ product_id: ids.soda, qty: 1, unit_cost: 1 }] },
      404,
    );
    const notMine = await call(
      owner,
      'POST',
      '/suppliers/purchase-orders',
      { supplier_id: ids.supplier, lines: [{ product_id: theirs.soda, qty: 1, unit_cost: 1 }] },
      404,
    );
    expect(notMine.errors[0].field).toBe('lines.0.product_id');

    const staff = await createStaff(t, owner);
    expect((await call(staff, 'GET', `/suppliers/purchase-orders/${po.id}`, undefined, 403)).errors[0].code).toBe('FORBIDDEN');

    const refused = async (body: Record<string, unknown>, field: string, status = 400) => {
      const res = await call(owner, 'POST', '/suppliers/purchase-orders', { supplier_id: ids.supplier, ...body }, status);
      expect(res.errors[0].field).toBe(field);
    };
    const line = { product_id: ids.soda, qty: 1, unit_cost: 800 };
    await refused({ supplier_id: 'nope', lines: [line] }, 'supplier_id');
    await refused({ lines: [] }, 'lines');
    await refused({ lines: [{ ...line, qty: 1.5 }] }, 'lines.0.qty');
    await refused({ lines: [{ ...line, pack_id: ids.carton, qty: 2.5 }] }, 'lines.0.qty');
    await refused({ lines: [{ product_id: ids.sugar, qty: 1.0005, unit_cost: 1 }] }, 'lines.0.qty');
    await refused({ lines: [{ ...line, unit_cost: -1 }] }, 'lines.0.unit_cost');
    await refused({ lines: [line, { ...line, qty: 2 }] }, 'lines.1.product_id');
    await refused({ lines: [{ ...line, pack_id: randomUUID() }] }, 'lines.0.pack_id', 404);
    const notOnIt = await call(
      owner,
      'POST',
      `/suppliers/purchase-orders/${po.id}/receive`,
      { lines: [{ product_id: randomUUID(), qty: 1 }] },
      400,
    );
    expect(notOnIt.errors[0].field).toBe('lines.0.product_id');
    const noPhone = await newSupplier(t, owner, { name: 'Mama Ntilie' });
    const unsent = await order(owner, '', { supplier_id: noPhone.id, lines: [line] });
    const cannot = await call(owner, 'POST', `/suppliers/purchase-orders/${unsent.id}/send`, undefined, 422);
    expect(cannot.errors[0].field).toBe('supplier.phone');
  });
});
