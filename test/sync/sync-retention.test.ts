import { Envelope, PushResponse } from '@duka/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pruneSyncRecords } from '../../server/src/sync/push/services/retention.js';
import { registerOwner } from '../setup/factories.js';
import { createTestApp, type TestApp } from '../setup/test-app.js';

describe('sync metadata stays bounded', () => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp()));
  afterAll(() => t.close());

  it('prunes mutation records after 90 days but still answers an old replay as duplicate, and retires a device unseen for a year', async () => {
    const owner = await registerOwner(t);
    const p = (
      await t.request('POST', '/inventory/products', { token: owner.token, body: { name: 'Soda', selling_price: 1000, stock: 10 } })
    ).body.data;
    const deviceId = '0194f2c0-aaaa-7000-8000-000000000001';
    await t.request('POST', '/sync/devices', { token: owner.token, body: { device_id: deviceId, name: 'Till' } });
    const m = {
      id: '0194f2c0-aaaa-7000-8000-000000000002',
      seq: 1,
      type: 'sale.create',
      created_at: new Date(t.clock.now()).toISOString(),
      payload: {
        id: '0194f2c0-aaaa-7000-8000-000000000003',
        client_receipt_number: 'X-T1-1',
        lines: [{ product_id: p.id, qty: 1, unit_price: 1000 }],
        payment_method: 'Cash',
      },
    };
    const first = Envelope(PushResponse).parse(
      (await t.request('POST', '/sync/push', { token: owner.token, body: { device_id: deviceId, mutations: [m] } })).body,
    ).data;
    expect(first.results[0]!.status).toBe('applied');

    t.clock.advance(91 * 86_400_000);
    expect(await pruneSyncRecords(t.deps)).toEqual({ mutations: 1, devices: 0 });
    const fresh = (await t.request('POST', '/auth/login', { body: { identifier: owner.phone, password: owner.password } })).body.data
      .access_token;
    const replay = Envelope(PushResponse).parse(
      (await t.request('POST', '/sync/push', { token: fresh, body: { device_id: deviceId, mutations: [m] } })).body,
    ).data;
    expect(replay.results[0]).toEqual({ id: m.id, seq: 1, status: 'duplicate' });
    expect(replay.last_applied_seq).toBe(1);
    expect((await t.request('GET', `/inventory/products/${p.id}`, { token: fresh })).body.data.stock).toBe(9);

    t.clock.advance(366 * 86_400_000);
    expect(await pruneSyncRecords(t.deps)).toEqual({ mutations: 0, devices: 1 });
    const later = (await t.request('POST', '/auth/login', { body: { identifier: owner.phone, password: owner.password } })).body.data
      .access_token;
    expect((await t.request('POST', '/sync/push', { token: later, body: { device_id: deviceId, mutations: [m] } })).status).toBe(404);
  });
});
