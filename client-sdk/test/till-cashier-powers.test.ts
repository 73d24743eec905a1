import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStaff } from '../../test/setup/factories.js';
import { type Harness, openTill, seedShop, serverView, startServer } from './harness.js';

describe('till: what a cashier may do offline, by the server’s rule', () => {
  let h: Harness;
  beforeAll(async () => (h = await startServer()));
  afterAll(() => h.close());

  it('refuses a cashier a stock adjustment and a credit limit offline, naming the permission, and queues nothing for them; a manager may', async () => {
    const shop = await seedShop(h);
    const cashier = await createStaff(h.t, shop.owner);
    const till = await openTill(h);
    expect(await till.login(cashier.phone, cashier.password)).toMatchObject({ role: 'staff', perms: [] });
    await till.syncNow();
    h.net.offline = true;
    await expect(till.adjustStock({ product_id: shop.soda.id, qty_change: -3, reason: 'damaged' })).rejects.toMatchObject({
      code: 'FORBIDDEN',
      message: 'changing stock needs the stock permission (can_manage_stock); ask a manager or the owner',
    });
    await expect(till.createCustomer({ name: 'Amina Juma', credit_limit: 50000 })).rejects.toMatchObject({
      code: 'FORBIDDEN',
      field: 'credit_limit',
      message: "changing a customer's credit limit needs the credit permission (can_manage_credit); ask a manager or the owner",
    });
    const rehema = await till.createCustomer({ name: 'Rehema Said' });
    expect(rehema).toMatchObject({ credit_limit: 0 });
    expect(await till.stock(shop.soda.id)).toBe(40);
    expect(till.status().pending).toBe(1);
    h.net.offline = false;
    expect((await till.syncNow()).pushed).toBe(1);
    expect(await (await serverView(h, shop)).stock(shop.soda.id)).toBe(40);
    await till.close();

    // A manager on another till of the shop may do both.
    const manager = await createStaff(h.t, shop.owner, { role: 'manager' });
    const managers = await openTill(h);
    await managers.login(manager.phone, manager.password);
    await managers.syncNow();
    h.net.offline = true;
    expect(await managers.adjustStock({ product_id: shop.soda.id, qty_change: -3, reason: 'damaged' })).toBe(37);
    expect(await managers.createCustomer({ name: 'Amina Juma', credit_limit: 50000 })).toMatchObject({ credit_limit: 50000 });
    h.net.offline = false;
    expect((await managers.syncNow()).pushed).toBe(2);
    expect(await managers.rejected()).toEqual([]);
    expect(await (await serverView(h, shop)).stock(shop.soda.id)).toBe(37);
    await managers.close();
  });
});
