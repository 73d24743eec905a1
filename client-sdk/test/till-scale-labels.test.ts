/**
 * Issue 51: the till reads the organisation's shop-scale labels offline, with the layouts the
 * organisation's row brought it on sync, as the server's barcode route reads them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Till, TillError } from '@duka/client-sdk';
import { type Harness, openTill, seedShop, serverView, signIn, startServer } from './harness.js';

const SCALES = {
  enabled: true,
  rules: [
    { prefix: '21', item_digits: 5, value: 'weight', value_digits: 5, decimals: 3 },
    { prefix: '23', item_digits: 5, value: 'price', value_digits: 5, decimals: 0 },
  ],
};

describe('till: scale labels offline', () => {
  let h: Harness;
  const tills: Till[] = [];
  beforeAll(async () => (h = await startServer()));
  afterAll(async () => {
    await Promise.all(tills.map((t) => t.close()));
    await h.close();
  });

  it('reads weight and price labels offline as the server does, refuses a misread one, and follows the layouts after a pull', async () => {
    const shop = await seedShop(h);
    const { token, orgId } = shop.owner;
    expect((await h.t.request('PATCH', '/accounts/organisation', { token, body: { scale_barcodes: SCALES } })).status).toBe(200);
    const post = async (body: Record<string, unknown>) => (await h.t.request('POST', '/inventory/products', { token, body })).body.data;
    const sugar = await post({ name: 'Sukari', selling_price: 3200, scale_code: '00042' });
    const soap = await post({ name: 'Sabuni ya kipande', selling_price: 1500, scale_code: '00001', stock: 10 });
    await h.t.db.db.updateTable('products').set({ unit: 'kg' }).where('org_id', '=', orgId).where('id', '=', sugar.id).execute();
    const online = (await h.t.request('GET', '/inventory/products/barcode/2300042017027', { token })).body.data;

    const t = await openTill(h);
    tills.push(t);
    await signIn(t, shop);
    await t.syncNow();
    h.net.offline = true;

    expect(await t.productByCode('2100042012509')).toMatchObject({
      id: sugar.id,
      unit: 'kg',
      scale_label: { barcode: '2100042012509', qty: 1.25, amount: null },
    });
    const priced = await t.productByCode('2300042017027');
    expect(priced?.scale_label).toEqual({ barcode: '2300042017027', qty: 0.532, amount: 1702 });
    expect(priced?.scale_label).toEqual(online.scale_label);
    const misread = await t.productByCode('2100042012508').catch((e: unknown) => e);
    expect(misread).toBeInstanceOf(TillError);
    expect(misread).toMatchObject({ code: 'VALIDATION_ERROR', field: 'code' });
    expect(await t.productByCode('2100077012505')).toBeNull();
    expect(await t.productByCode('6161100000017')).toMatchObject({ id: shop.soda.id });
    expect((await t.productByCode('6161100000017'))?.scale_label).toBeUndefined();

    // A price label of a piece product: 3,000 TZS buys 2 bars, sold offline and booked by the server.
    const bars = await t.productByCode('2300001030005');
    expect(bars).toMatchObject({ id: soap.id, scale_label: { qty: 2, amount: 3000 } });
    const receipt = await t.sell({ lines: [{ product_id: bars!.id, qty: bars!.scale_label!.qty }], payment_method: 'Cash' });
    expect(receipt.total).toBe(3000);
    h.net.offline = false;
    await t.syncNow();
    const view = await serverView(h, shop);
    expect((await view.transactions()).items.map((s) => s.total)).toEqual([3000]);

    const off = await h.t.request('PATCH', '/accounts/organisation', { token, body: { scale_barcodes: { ...SCALES, enabled: false } } });
    expect(off.status).toBe(200);
    await t.syncNow();
    expect(await t.productByCode('2100042012509')).toBeNull();
  });
});
