import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RejectedMutation, TillConflict } from '@duka/client-sdk';
import { createStaff } from '../../test/setup/factories.js';
import { type Harness, openTill, seedShop, serverView, signIn, startServer } from './harness.js';

describe('till: selling offline and syncing', () => {
  let h: Harness;
  beforeAll(async () => (h = await startServer()));
  afterAll(() => h.close());
  const ready = async () => {
    const shop = await seedShop(h);
    const till = await openTill(h);
    await signIn(till, shop);
    await till.syncNow();
    return { shop, till, code: (await till.store())!.code };
  };

  it('sells with the network down and every sale reaches the server exactly once, numbered', async () => {
    const { shop, till, code } = await ready();
    const events: string[] = [];
    till.on('offline', () => events.push('offline')).on('online', () => events.push('online'));

    h.net.offline = true;
    // The till learns the server is gone (a failed call; in a browser, the `offline` event): its sales are rung up offline.
    await expect(till.syncNow()).rejects.toMatchObject({ code: 'NETWORK' });
    const a = await till.sell({ lines: [{ product_id: shop.soda.id, qty: 2 }], payment_method: 'Cash' });
    const b = await till.sell({
      lines: [
        { product_id: shop.unga.id, qty: 1 },
        { product_id: shop.soda.id, qty: 1 },
        { product_id: shop.unga.id, qty: 1 },
      ],
      payment_method: 'M-Pesa',
      payment_reference: 'QF12',
    });
    const c = await till.sell({ lines: [{ product_id: shop.rice.id, qty: 3 }], payment_method: 'Cash', discount_pct: 10 });
    expect(a).toMatchObject({
      client_receipt_number: `${code}-T1-1`,
      number: null,
      receipt_number: null,
      status: 'paid',
      total: 2000,
      sync_state: 'pending',
    });
    expect(b.lines.map((l) => [l.product_name, l.qty, l.line_total])).toEqual([
      ['Unga 2kg', 2, 5000],
      ['Soda 500ml', 1, 1000],
    ]);
    expect(c).toMatchObject({ client_receipt_number: `${code}-T1-3`, subtotal: 9600, discount: 960, total: 8640 });
    expect(await till.stock(shop.soda.id)).toBe(37);
    expect(till.status().pending).toBe(3);

    await expect(till.syncNow()).rejects.toMatchObject({ code: 'NETWORK' });
    expect(till.status()).toMatchObject({ online: false, pending: 3, lastError: { code: 'NETWORK' } });
    expect(events).toEqual(['offline']);

    h.net.offline = false;
    const report = await till.syncNow();
    expect(events).toEqual(['offline', 'online']);
    expect(report.pushed).toBe(3);
    expect(report.numbered.map((n) => [n.client_receipt_number, n.number])).toEqual([
      [`${code}-T1-1`, 1],
      [`${code}-T1-2`, 2],
      [`${code}-T1-3`, 3],
    ]);
    expect(till.status()).toMatchObject({ online: true, pending: 0, lastError: null });
    expect(await till.transaction(c.id)).toMatchObject({ number: 3, receipt_number: `${code}-000003`, sync_state: 'synced', total: 8640 });

    const server = await serverView(h, shop);
    const { total, items } = await server.transactions();
    expect(total).toBe(3);
    expect(items.map((t) => [t.client_receipt_number, t.total, t.source]).sort()).toEqual([
      [`${code}-T1-1`, 2000, 'offline'],
      [`${code}-T1-2`, 6000, 'offline'],
      [`${code}-T1-3`, 8640, 'offline'],
    ]);
    expect(await server.stock(shop.soda.id)).toBe(37);
    expect(await server.stock(shop.unga.id)).toBe(28);
    expect(await server.stock(shop.rice.id)).toBe(22);
    expect(await till.stock(shop.soda.id)).toBe(37);

    // The server commits a push but its answer is lost: the resent push changes nothing.
    const d = await till.sell({ lines: [{ product_id: shop.soda.id, qty: 1 }], payment_method: 'Cash' });
    h.net.loseReplyTo = '/sync/push';
    await expect(till.syncNow()).rejects.toMatchObject({ code: 'NETWORK' });
    expect((await server.transactions()).total).toBe(4);
    const again = await till.syncNow();
    expect(again.numbered).toEqual([expect.objectContaining({ transaction_id: d.id, number: 4 })]);
    expect((await server.transactions()).total).toBe(4);
    expect(await server.stock(shop.soda.id)).toBe(36);
    expect(await till.stock(shop.soda.id)).toBe(36);
    await till.close();
  });

  it('keeps a rejected sale and says so, while the sales after it apply', async () => {
    const { shop, till } = await ready();
    const soap = (
      await h.t.request('POST', '/inventory/products', { token: shop.owner.token, body: { name: 'Old soap', selling_price: 800 } })
    ).body.data;
    await till.syncNow();
    const rejected: RejectedMutation[] = [];
    till.on('rejected', (r) => rejected.push(r));

    h.net.offline = true;
    const doomed = await till.sell({ lines: [{ product_id: soap.id, qty: 1 }], payment_method: 'Cash' });
    const fine = await till.sell({ lines: [{ product_id: shop.soda.id, qty: 4 }], payment_method: 'Cash' });
    expect((await h.t.request('DELETE', `/inventory/products/${soap.id}`, { token: shop.owner.token })).status).toBe(204);
    h.net.offline = false;

    const report = await till.syncNow();
    expect(rejected).toEqual([expect.objectContaining({ type: 'sale.create', seq: 1, code: 'NOT_FOUND' })]);
    expect(report.numbered.map((n) => n.transaction_id)).toEqual([fine.id]);
    expect(till.status()).toMatchObject({ pending: 0, rejected: 1 });
    expect(await till.rejected()).toEqual([
      expect.objectContaining({ seq: 1, state: 'rejected', error: expect.objectContaining({ code: 'NOT_FOUND' }) }),
    ]);
    expect(await till.transaction(doomed.id)).toMatchObject({ sync_state: 'rejected', number: null });
    expect(await till.transaction(fine.id)).toMatchObject({ sync_state: 'synced', number: 1 });
    expect(await till.product(soap.id)).toBeNull();
    const server = await serverView(h, shop);
    expect((await server.transactions()).total).toBe(1);
    expect(await server.stock(shop.soda.id)).toBe(36);
    await till.close();
  });

  it('undoes a refused refund locally: the sale is paid again, keeps its server number, and its stock is sold again', async () => {
    const shop = await seedShop(h);
    const staff = await createStaff(h.t, shop.owner, { can_refund: true });
    const till = await openTill(h);
    expect(await till.login(staff.phone, staff.password)).toMatchObject({ role: 'staff', perms: ['refund'] });
    await till.syncNow();
    h.net.offline = true;
    const sale = await till.sell({ lines: [{ product_id: shop.soda.id, qty: 5 }], payment_method: 'Cash' });
    await till.refund(sale.id, 'customer changed mind');
    expect(await till.stock(shop.soda.id)).toBe(40);
    await expect(
      till.sell({ lines: [{ product_id: shop.soda.id, qty: 1 }], payment_method: 'Cash', discount_pct: 5 }),
    ).rejects.toMatchObject({ code: 'FORBIDDEN', field: 'discount_pct' });
    // The owner takes the refund permission away; it applies at the till's next token refresh.
    await h.t.request('PATCH', `/staff/${staff.user.id}/permissions`, {
      token: shop.owner.token,
      body: { can_refund: false, can_discount: false, can_view_reports: false },
    });
    h.t.clock.advance(16 * 60_000);
    h.net.offline = false;

    const rejected: RejectedMutation[] = [];
    till.on('rejected', (r) => rejected.push(r));
    // The push goes through; the pull after it is lost, so what the till shows is its own undo.
    h.net.loseReplyTo = '/sync/pull';
    await expect(till.syncNow()).rejects.toMatchObject({ code: 'NETWORK' });
    expect(rejected).toEqual([expect.objectContaining({ type: 'sale.refund', code: 'FORBIDDEN' })]);
    expect(await till.transaction(sale.id)).toMatchObject({ status: 'paid', refund_reason: null, number: 1, sync_state: 'synced' });
    expect(await till.stock(shop.soda.id)).toBe(35);
    await till.syncNow();
    expect(await till.transaction(sale.id)).toMatchObject({ status: 'paid', number: 1 });
    expect(await till.stock(shop.soda.id)).toBe(35);
    expect((await till.user())?.perms).toEqual([]);
    await expect(till.refund(sale.id, 'again')).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await till.close();
  });

  it('emits the conflicts the server noted on offline sales (stale price, oversold)', async () => {
    const { shop, till } = await ready();
    const conflicts: TillConflict[] = [];
    till.on('conflict', (c) => conflicts.push(c));
    h.net.offline = true;
    await h.t.request('PATCH', `/inventory/products/${shop.unga.id}`, { token: shop.owner.token, body: { selling_price: 2700 } });
    h.t.clock.advance(60_000);
    const sale = await till.sell({
      lines: [
        { product_id: shop.unga.id, qty: 1 },
        { product_id: shop.rice.id, qty: 26 },
      ],
      payment_method: 'Cash',
    });
    expect(sale.total).toBe(2500 + 26 * 3200);
    expect(await till.stock(shop.rice.id)).toBe(-1);
    h.net.offline = false;

    await till.syncNow();
    expect(conflicts.map((c) => [c.kind, c.product_id, c.transaction_id]).sort()).toEqual([
      ['oversold', shop.rice.id, sale.id],
      ['stale_price', shop.unga.id, sale.id],
    ]);
    expect((await till.conflicts()).map((c) => c.kind).sort()).toEqual(['oversold', 'stale_price']);
    expect(await till.transaction(sale.id)).toMatchObject({ total: 2500 + 26 * 3200, sync_state: 'synced' });
    expect(await till.stock(shop.rice.id)).toBe(-1);
    expect((await till.product(shop.unga.id))?.selling_price).toBe(2700);
    await till.close();
  });

  it('queues a new customer, a credit sale, a credit payment, a void, a refund and a stock count offline', async () => {
    const { shop, till } = await ready();
    h.net.offline = true;
    const amina = await till.createCustomer({ name: 'Amina Juma', phone: '0765123456', credit_limit: 50000 });
    expect(amina).toMatchObject({ phone: '+255765123456', outstanding_balance: 0 });
    const onCredit = await till.sell({ lines: [{ product_id: shop.unga.id, qty: 4 }], payment_method: 'Credit', customer_id: amina.id });
    expect(onCredit).toMatchObject({ status: 'credit', total: 10000, customer_name: 'Amina Juma' });
    expect((await till.customer(amina.id))?.outstanding_balance).toBe(10000);
    const paid = await till.recordCreditPayment({ customer_id: amina.id, amount: 4000, method: 'M-Pesa' });
    expect(paid.outstanding_balance).toBe(6000);
    await expect(till.recordCreditPayment({ customer_id: amina.id, amount: 7000, method: 'Cash' })).rejects.toMatchObject({
      code: 'OVERPAYMENT',
    });
    const mistake = await till.sell({ lines: [{ product_id: shop.soda.id, qty: 3 }], payment_method: 'Cash' });
    const returned = await till.sell({ lines: [{ product_id: shop.rice.id, qty: 2 }], payment_method: 'Cash' });
    expect(await till.void(mistake.id, 'rang up twice')).toMatchObject({ status: 'void', void_reason: 'rang up twice' });
    expect((await till.refund(returned.id, 'bad rice')).status).toBe('refunded');
    await expect(till.refund(returned.id, 'again')).rejects.toMatchObject({ code: 'INVALID_STATE' });
    expect(await till.adjustStock({ product_id: shop.soda.id, qty_change: 12, reason: 'received' })).toBe(52);
    await expect(till.adjustStock({ product_id: shop.soda.id, qty_change: -100, reason: 'count' })).rejects.toMatchObject({
      code: 'INSUFFICIENT_STOCK',
    });
    expect(await till.stock(shop.rice.id)).toBe(25);
    expect(till.status().pending).toBe(8);
    h.net.offline = false;

    const rejected: RejectedMutation[] = [];
    till.on('rejected', (r) => rejected.push(r));
    const report = await till.syncNow();
    expect(rejected).toEqual([]);
    expect(report.pushed).toBe(8);
    const server = await serverView(h, shop);
    const { items } = await server.transactions();
    expect(Object.fromEntries(items.map((t) => [t.id, t.status]))).toEqual({
      [onCredit.id]: 'credit',
      [mistake.id]: 'void',
      [returned.id]: 'refunded',
    });
    const customer = (await h.t.request('GET', `/customers/${amina.id}`, { token: server.token })).body.data;
    expect(customer).toMatchObject({ name: 'Amina Juma', phone: '+255765123456', outstanding_balance: 6000 });
    expect(await server.stock(shop.soda.id)).toBe(52);
    expect(await server.stock(shop.rice.id)).toBe(25);
    expect(await server.stock(shop.unga.id)).toBe(26);
    expect((await till.customer(amina.id))?.outstanding_balance).toBe(6000);
    expect((await till.creditTabs(amina.id)).map((t) => t.balance)).toEqual([6000]);
    expect(await till.stock(shop.soda.id)).toBe(52);
    await till.close();
  });

  it('keeps selling when its tokens expire offline; syncing asks for a login, then sends everything', async () => {
    const { shop, till } = await ready();
    const asked: string[] = [];
    till.on('auth-required', (e) => asked.push(e.reason));
    h.net.offline = true;
    h.t.clock.advance(31 * 86_400_000);
    await till.sell({ lines: [{ product_id: shop.soda.id, qty: 1 }], payment_method: 'Cash' });
    await till.sell({ lines: [{ product_id: shop.unga.id, qty: 1 }], payment_method: 'Cash' });
    h.net.offline = false;

    await expect(till.syncNow()).rejects.toMatchObject({ code: 'AUTH_REQUIRED' });
    expect(asked).toHaveLength(1);
    expect(till.status()).toMatchObject({ authRequired: true, pending: 2 });
    await expect(till.syncNow()).rejects.toMatchObject({ code: 'AUTH_REQUIRED' });
    // Still selling while signed out.
    await till.sell({ lines: [{ product_id: shop.soda.id, qty: 1 }], payment_method: 'Cash' });
    const server = await serverView(h, shop);
    expect((await server.transactions()).total).toBe(0);

    await signIn(till, shop);
    expect(till.status().authRequired).toBe(false);
    expect((await till.syncNow()).pushed).toBe(3);
    expect((await server.transactions()).total).toBe(3);
    expect(till.status().pending).toBe(0);
    await till.close();
  });

  it('resends what the server lost when it was restored from a backup, without doubling a sale', async () => {
    const { shop, till } = await ready();
    for (let i = 0; i < 3; i++) await till.sell({ lines: [{ product_id: shop.soda.id, qty: 1 }], payment_method: 'Cash' });
    await till.syncNow();
    // The server forgets the device's last two mutations (its sales stay: they came back with the backup).
    await h.t.db.db.updateTable('devices').set({ last_seq: 1 }).where('id', '=', till.deviceId).execute();
    await h.t.db.db.deleteFrom('sync_mutations').where('device_id', '=', till.deviceId).where('seq', '>', 1).execute();
    const restored: Array<{ expected_seq: number; last_acked_seq: number }> = [];
    till.on('server-restored', (e) => restored.push(e));

    const late = await till.sell({ lines: [{ product_id: shop.soda.id, qty: 1 }], payment_method: 'Cash' });
    const report = await till.syncNow();
    expect(restored).toEqual([{ expected_seq: 2, last_acked_seq: 3 }]);
    expect(report.pushed).toBe(3);
    const server = await serverView(h, shop);
    expect((await server.transactions()).total).toBe(4);
    expect(await server.stock(shop.soda.id)).toBe(36);
    expect((await till.transaction(late.id))?.number).toBe(4);
    await till.close();
  });
});
