/**
 * Issue 51: the till sells by weight, from a scale label and by the pack, offline: counted exactly
 * in the replica, priced as the server prices, queued with what the server needs to read it again,
 * and booked by the server to the gram.
 */
import { perUnitText, quantityText } from '@duka/shared';
import { describe, expect, it } from 'vitest';
import { type Till, TillError } from '@duka/client-sdk';
import { seedShop, serverView, signIn, tillServer } from './harness.js';

const SCALES = { enabled: true, rules: [{ prefix: '23', item_digits: 5, value: 'price', value_digits: 5, decimals: 0 }] };
/** Item 00042 for 1,702 TZS (0.532 kg at 3,200/kg, 1,702.40). */
const PRICE_1702 = '2300042017027';

describe('till: by weight, by scale label and by the pack, offline', () => {
  const server = tillServer();

  async function shopWithUnits() {
    const { h } = server;
    const shop = await seedShop(h);
    const { token } = shop.owner;
    expect((await h.t.request('PATCH', '/accounts/organisation', { token, body: { scale_barcodes: SCALES } })).status).toBe(200);
    const post = async (body: Record<string, unknown>) => {
      const res = await h.t.request('POST', '/inventory/products', { token, body });
      expect(res.status, res.text).toBe(200);
      return res.body.data as { id: string; packs: Array<{ id: string; name: string; barcode: string | null }> };
    };
    const sugar = await post({ name: 'Sukari', unit: 'kg', selling_price: 3200, stock: 10, scale_code: '00042' });
    const beer = await post({
      name: 'Safari Lager',
      selling_price: 2500,
      stock: 50,
      packs: [{ name: 'Crate of 24', units: 24, barcode: '6009000000241', selling_price: 55000 }],
    });
    const pushed: Array<{ mutations: Array<{ payload: { lines: unknown[] } }> }> = [];
    const fetch = (input: string, init?: RequestInit) => {
      if (input.endsWith('/sync/push') && !h.net.offline) pushed.push(JSON.parse(String(init?.body)));
      return h.net.fetch(input, init);
    };
    const t = await server.till({ fetch });
    await signIn(t, shop);
    await t.syncNow();
    return { shop, sugar, beer, t, pushed };
  }

  it('sells 0.5 kg, a 0.532 kg price label and a crate offline; the replica counts exactly; the server books it to the gram', async () => {
    const { h } = server;
    const { shop, sugar, beer, t, pushed } = await shopWithUnits();
    expect(t.status().serverProtocol).toBe(4);
    h.net.offline = true;
    const label = (await t.productByCode(PRICE_1702))!;
    const crate = (await t.productByCode('6009000000241'))!;
    expect(crate).toMatchObject({ id: beer.id, scanned_pack: { name: 'Crate of 24', units: 24 } });

    const receipt = await t.sell({
      lines: [
        { product_id: sugar.id, qty: 0.5 },
        { product_id: label.id, qty: label.scale_label!.qty, scale_barcode: PRICE_1702 },
        { product_id: beer.id, pack_id: crate.scanned_pack!.id, qty: 1 },
        { product_id: beer.id, qty: 2 },
      ],
      payment_method: 'Cash',
      cash_tendered: 70000,
    });
    // 0.5 kg at 3,200 = 1,600 plus the label's printed 1,702 (not 1.032 kg × 3,200 = 3,302.40); a crate at its price; two bottles.
    expect(receipt.lines.map((l) => [quantityText(l.qty, l.unit), `${l.unit_price}${perUnitText(l.unit)}`, l.line_total])).toEqual([
      ['1.032 kg', '3200/kg', 3302],
      ['24', '55000', 55000],
      ['2', '2500', 5000],
    ]);
    expect(receipt.lines[1]!.pack).toEqual({ id: crate.scanned_pack!.id, name: 'Crate of 24', units: 24, qty: 1 });
    expect([receipt.total, receipt.change_given]).toEqual([63302, 6698]);
    // The replica's levels: 10 − 1.032 = 8.968 kg (not 8.968000000000002); 50 − 24 − 2 = 24.
    expect([await t.stock(sugar.id), await t.stock(beer.id)]).toEqual([8.968, 24]);
    expect(t.status().pending).toBe(1);

    h.net.offline = false;
    expect(await t.syncNow()).toMatchObject({ pushed: 1 });
    // Queued as the server reads it again: the label as scanned, the rest loose, the crate by its pack.
    expect(pushed.at(-1)!.mutations[0]!.payload.lines).toEqual([
      { product_id: sugar.id, qty: 0.532, unit_price: 3200, scale_barcode: PRICE_1702 },
      { product_id: sugar.id, qty: 0.5, unit_price: 3200 },
      { product_id: beer.id, qty: 1, unit_price: 55000, pack_id: crate.scanned_pack!.id },
      { product_id: beer.id, qty: 2, unit_price: 2500 },
    ]);
    const view = await serverView(h, shop);
    const [booked] = (await view.transactions()).items;
    expect([booked!.total, booked!.change_given]).toEqual([63302, 6698]);
    expect(booked!.lines.map((l: { qty: number; line_total: number }) => [l.qty, l.line_total])).toEqual([
      [1.032, 3302],
      [24, 55000],
      [2, 5000],
    ]);
    expect([await view.stock(sugar.id), await view.stock(beer.id)]).toEqual([8.968, 24]);
    expect(await t.conflicts()).toEqual([]);
  });

  it('refuses half a soap bar and half a crate as the server does, naming the field', async () => {
    const { shop, beer, t } = await shopWithUnits();
    const crate = beer.packs[0]!;
    const half = await t.sell({ lines: [{ product_id: shop.soda.id, qty: 0.5 }], payment_method: 'Cash' }).catch((e: unknown) => e);
    expect(half).toBeInstanceOf(TillError);
    expect(half).toMatchObject({
      code: 'VALIDATION_ERROR',
      field: 'lines.0.qty',
      message: 'lines.0.qty a product sold by the piece takes whole numbers',
    });
    await expect(t.sell({ lines: [{ product_id: beer.id, pack_id: crate.id, qty: 1.5 }], payment_method: 'Cash' })).rejects.toMatchObject({
      code: 'VALIDATION_ERROR',
      field: 'lines.0.qty',
      message: 'lines.0.qty packs are sold whole',
    });
    await expect(t.sell({ lines: [{ product_id: shop.soda.id, qty: 1.0005 }], payment_method: 'Cash' })).rejects.toMatchObject({
      field: 'lines.0.qty',
    });
    expect(t.status().pending).toBe(0);
  });

  it('a label that does not say what the line says is refused, naming the line', async () => {
    const { shop, sugar, t } = await shopWithUnits();
    const wrong = (line: Record<string, unknown>) =>
      t.sell({ lines: [{ product_id: sugar.id, qty: 0.532, scale_barcode: PRICE_1702, ...line }], payment_method: 'Cash' });
    await expect(wrong({ qty: 0.6 })).rejects.toMatchObject({
      field: 'lines.0.qty',
      message: "lines.0.qty is not the scale label's quantity (0.532 kg)",
    });
    await expect(wrong({ product_id: shop.soda.id })).rejects.toMatchObject({ field: 'lines.0.product_id' });
    await expect(wrong({ scale_barcode: '2300042017028' })).rejects.toMatchObject({ field: 'lines.0.scale_barcode' });
  });
});

export type { Till };
