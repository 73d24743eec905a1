/**
 * Issue 51: shop-scale labels. The organisation's layouts round trip through PATCH/GET
 * /accounts/organisation; a product's `scale_code` is unique in the organisation; the barcode route
 * reads a label as the product and what the label sells.
 */
import { Envelope, Organisation, ScannedProduct } from '@duka/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerOwner, type Session } from '../setup/factories.js';
import { createTestApp, type TestApp } from '../setup/test-app.js';

const SCALES = {
  enabled: true,
  rules: [
    { prefix: '21', item_digits: 5, value: 'weight', value_digits: 5, decimals: 3 },
    { prefix: '23', item_digits: 5, value: 'price', value_digits: 5, decimals: 0 },
  ],
};

describe('inventory: scale barcodes', () => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp()));
  afterAll(() => t.close());

  const product = async (s: Session, body: Record<string, unknown>) => {
    const res = await t.request('POST', '/inventory/products', { token: s.token, body });
    expect(res.status, res.text).toBe(200);
    return res.body.data as { id: string };
  };
  const scan = (s: Session, code: string) => t.request('GET', `/inventory/products/barcode/${code}`, { token: s.token });
  const sellByKg = (s: Session, id: string) =>
    t.db.db.updateTable('products').set({ unit: 'kg' }).where('org_id', '=', s.orgId).where('id', '=', id).execute();

  it("keeps the organisation's label layouts: off by default, set and answered back", async () => {
    const owner = await registerOwner(t);
    const before = Envelope(Organisation).parse((await t.request('GET', '/accounts/organisation', { token: owner.token })).body).data;
    expect(before.scale_barcodes).toEqual({ ...SCALES, enabled: false });

    const set = await t.request('PATCH', '/accounts/organisation', {
      token: owner.token,
      body: { scale_barcodes: { enabled: true, rules: [{ prefix: '27', item_digits: 4, value: 'price', value_digits: 6, decimals: 0 }] } },
    });
    expect(set.status, set.text).toBe(200);
    const after = Envelope(Organisation).parse((await t.request('GET', '/accounts/organisation', { token: owner.token })).body).data;
    expect(after.scale_barcodes).toEqual({
      enabled: true,
      rules: [{ prefix: '27', item_digits: 4, value: 'price', value_digits: 6, decimals: 0 }],
    });

    const bad = await t.request('PATCH', '/accounts/organisation', {
      token: owner.token,
      body: { scale_barcodes: { enabled: true, rules: [{ prefix: '21', item_digits: 6, value: 'weight', value_digits: 5, decimals: 3 }] } },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0]).toMatchObject({ field: 'scale_barcodes.rules.0' });
  });

  it('refuses a scale code another product of the organisation has (409), not one of another organisation', async () => {
    const owner = await registerOwner(t);
    const other = await registerOwner(t);
    const sugar = await product(owner, { name: 'Sukari', selling_price: 3200, scale_code: '00042' });
    expect((await t.request('GET', `/inventory/products/${sugar.id}`, { token: owner.token })).body.data.scale_code).toBe('00042');
    const clash = await t.request('POST', '/inventory/products', { token: owner.token, body: { name: 'Mchele', scale_code: '00042' } });
    expect(clash.status).toBe(409);
    expect(clash.body.errors[0]).toMatchObject({ code: 'DUPLICATE', field: 'scale_code' });
    const rice = await product(owner, { name: 'Mchele', scale_code: '00043' });
    const patched = await t.request('PATCH', `/inventory/products/${rice.id}`, { token: owner.token, body: { scale_code: '00042' } });
    expect(patched.status).toBe(409);
    expect(patched.body.errors[0]).toMatchObject({ code: 'DUPLICATE', field: 'scale_code' });
    await product(other, { name: 'Sukari', scale_code: '00042' });
    const letters = await t.request('POST', '/inventory/products', { token: owner.token, body: { name: 'Maharage', scale_code: '4A' } });
    expect(letters.status).toBe(400);
    expect(letters.body.errors[0]).toMatchObject({ field: 'scale_code' });
  });

  it('reads a weight label and a price label as the product and what the label sells', async () => {
    const owner = await registerOwner(t);
    await t.request('PATCH', '/accounts/organisation', { token: owner.token, body: { scale_barcodes: SCALES } });
    const sugar = await product(owner, { name: 'Sukari', selling_price: 3200, scale_code: '00042', stock: 0 });
    await sellByKg(owner, sugar.id);

    const weighed = await scan(owner, '2100042012509');
    expect(weighed.status, weighed.text).toBe(200);
    const w = Envelope(ScannedProduct).parse(weighed.body).data;
    expect(w).toMatchObject({ id: sugar.id, name: 'Sukari', unit: 'kg', scale_code: '00042' });
    expect(w.scale_label).toEqual({ barcode: '2100042012509', qty: 1.25, amount: null });

    // 1,702 TZS at 3,200/kg buys 0.531875 kg: 0.532 kg, charged 1,702.
    const priced = Envelope(ScannedProduct).parse((await scan(owner, '2300042017027')).body).data;
    expect(priced.scale_label).toEqual({ barcode: '2300042017027', qty: 0.532, amount: 1702 });
  });

  it('refuses a label with a wrong check digit, an unknown item code and a weight of a piece product', async () => {
    const owner = await registerOwner(t);
    await t.request('PATCH', '/accounts/organisation', { token: owner.token, body: { scale_barcodes: SCALES } });
    await product(owner, { name: 'Sabuni', selling_price: 1500, scale_code: '00042' });
    const misread = await scan(owner, '2100042012508');
    expect(misread.status).toBe(400);
    expect(misread.body.errors[0]).toMatchObject({
      field: 'code',
      message: 'is not a readable scale label (its check digit is wrong): scan it again',
    });
    expect((await scan(owner, '2100077012505')).status).toBe(404);
    const piece = await scan(owner, '2100042012509');
    expect(piece.status).toBe(400);
    expect(piece.body.errors[0].message).toBe('a weight label sells a product sold by kg or g, not by piece');
  });

  it('reads no label while the scales are off, and a real barcode before a label', async () => {
    const owner = await registerOwner(t);
    const sugar = await product(owner, { name: 'Sukari', selling_price: 3200, scale_code: '00042' });
    await sellByKg(owner, sugar.id);
    expect((await scan(owner, '2100042012509')).status).toBe(404);
    await t.request('PATCH', '/accounts/organisation', { token: owner.token, body: { scale_barcodes: SCALES } });
    const boxed = await product(owner, { name: 'Sukari 1 kg pakiti', selling_price: 3500, barcode: '2100042012509' });
    const found = Envelope(ScannedProduct).parse((await scan(owner, '2100042012509')).body).data;
    expect(found.id).toBe(boxed.id);
    expect(found.scale_label).toBeUndefined();
  });
});
