import { Envelope, Product } from '@duka/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Till } from '@duka/client-sdk';
import { type Harness, openTill, seedShop, signIn, startServer } from './harness.js';

describe('till replica: medicine fields', () => {
  let h: Harness;
  const tills: Till[] = [];
  beforeAll(async () => (h = await startServer()));
  afterAll(async () => {
    await Promise.all(tills.map((t) => t.close()));
    await h.close();
  });

  it('holds a medicine exactly as the REST route answers it, and follows the organisation default after a pull', async () => {
    const shop = await seedShop(h);
    const { token } = shop.owner;
    const made = await h.t.request('POST', '/inventory/products', {
      token,
      body: {
        name: 'Amoxil 250mg',
        barcode: '6009800000017',
        selling_price: 3500,
        generic_name: 'amoxicillin',
        strength: '250 mg',
        dosage_form: 'capsule',
        schedule: 'pom',
      },
    });
    expect(made.status, made.text).toBe(200);
    const id = made.body.data.id as string;
    const rest = async () => Envelope(Product).parse((await h.t.request('GET', `/inventory/products/${id}`, { token })).body).data;

    const t = await openTill(h);
    tills.push(t);
    await signIn(t, shop);
    await t.syncNow();
    h.net.offline = true;
    expect(await t.product(id)).toEqual(await rest());
    expect(await t.productByCode('6009800000017')).toMatchObject({
      generic_name: 'amoxicillin',
      strength: '250 mg',
      dosage_form: 'capsule',
      schedule: 'pom',
      track_batches: true,
      expiry_alert_days: null,
      effective_expiry_alert_days: 90,
    });
    h.net.offline = false;

    expect((await h.t.request('PATCH', '/accounts/organisation', { token, body: { expiry_alert_days: 45 } })).status).toBe(200);
    await t.syncNow();
    const local = await t.product(id);
    expect(local?.effective_expiry_alert_days).toBe(45);
    expect(local).toEqual(await rest());
  });
});
