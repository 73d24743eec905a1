/**
 * Issue 54, the back office's devices: the owner lists the organisation's tills and retires one;
 * a retired till's push, pull and registration are then refused with 403 DEVICE_RETIRED, on the
 * reads the sync paths already make (no statement more).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STATEMENTS_HEADER } from '../../server/src/db/statement-count.js';
import { createStaff, registerOwner } from '../setup/factories.js';

type Session = { token: string };
import { createTestApp, type TestApp } from '../setup/test-app.js';

describe('sync: the owner lists and retires tills', () => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp({ config: { COUNT_STATEMENTS: true } })));
  afterAll(() => t.close());

  let n = 0;
  const uuid = () => `0194f2c1-${String(++n).padStart(4, '0')}-7000-8000-${String(Date.now() % 1e12).padStart(12, '0')}`;
  const register = (s: Session, device_id: string, name = 'Till 1') =>
    t.request('POST', '/sync/devices', { token: s.token, body: { device_id, name } });
  const sale = async (s: Session, seq: number) => {
    const product = (
      await t.request('POST', '/inventory/products', { token: s.token, body: { name: `Soda ${seq}`, selling_price: 1000, stock: 20 } })
    ).body.data as { id: string };
    return {
      id: uuid(),
      seq,
      type: 'sale.create',
      created_at: new Date(t.clock.now() - 60_000).toISOString(),
      payload: {
        id: uuid(),
        client_receipt_number: `MAD-T1-${seq}`,
        lines: [{ product_id: product.id, qty: 1, unit_price: 1000 }],
        payment_method: 'Cash',
      },
    };
  };
  /** `owner` stocks the product the till sells. */
  const push = async (s: Session, device_id: string, seq: number, owner: Session = s) =>
    t.request('POST', '/sync/push', { token: s.token, body: { device_id, mutations: [await sale(owner, seq)] } });
  const pull = (s: Session, query = '') => t.request('GET', `/sync/pull${query}`, { token: s.token });

  it('lists every till of the organisation with its store, till code and when last seen; only the owner may', async () => {
    const owner = await registerOwner(t);
    const cashier = await createStaff(t, owner);
    const first = uuid();
    const second = uuid();
    expect((await register(owner, first, 'Counter')).status).toBe(200);
    expect((await register(cashier, second, 'Back till')).status).toBe(200);
    expect((await push(cashier, second, 1, owner)).status).toBe(200);

    const res = await t.request('GET', '/sync/devices', { token: owner.token });
    expect(res.status, res.text).toBe(200);
    const devices = res.body.data as Array<Record<string, unknown>>;
    expect(devices.map((d) => [d.id, d.name, d.till_code])).toEqual([
      [first, 'Counter', 'T1'],
      [second, 'Back till', 'T2'],
    ]);
    expect(devices[1]).toMatchObject({ store_id: owner.storeId, retired_at: null });
    expect(devices[1]!.last_seen_at).toEqual(expect.any(String));

    expect((await t.request('GET', '/sync/devices', { token: cashier.token })).status).toBe(403);
    // Another organisation sees only its own.
    const stranger = await registerOwner(t);
    expect((await t.request('GET', '/sync/devices', { token: stranger.token })).body.data).toEqual([]);
    expect((await t.request('POST', `/sync/devices/${first}/retire`, { token: stranger.token })).status).toBe(404);
    expect((await t.request('POST', `/sync/devices/${first}/retire`, { token: cashier.token })).status).toBe(403);
  });

  it("refuses a retired till's push, pull and registration with 403 DEVICE_RETIRED; the others sync on", async () => {
    const owner = await registerOwner(t);
    const cashier = await createStaff(t, owner);
    const lost = uuid();
    const kept = uuid();
    await register(cashier, lost, 'Lost till');
    await register(cashier, kept, 'New till');
    expect((await push(cashier, lost, 1, owner)).status).toBe(200);

    const retired = await t.request('POST', `/sync/devices/${lost}/retire`, { token: owner.token });
    expect(retired.status, retired.text).toBe(200);
    expect(retired.body.data).toMatchObject({ id: lost, till_code: 'T1', retired_at: expect.any(String) });
    // Retiring it again answers it unchanged.
    const again = await t.request('POST', `/sync/devices/${lost}/retire`, { token: owner.token });
    expect(again.body.data.retired_at).toBe(retired.body.data.retired_at);

    for (const res of [await push(cashier, lost, 2, owner), await pull(cashier, `?device_id=${lost}`), await register(cashier, lost)]) {
      expect(res.status, res.text).toBe(403);
      expect(res.body.errors[0].code).toBe('DEVICE_RETIRED');
      expect(res.body.message).toMatch(/retired/);
    }
    // The other till, and a pull that does not name a device, go on.
    expect((await push(cashier, kept, 1, owner)).status).toBe(200);
    expect((await pull(cashier, `?device_id=${kept}`)).status).toBe(200);
    expect((await pull(cashier)).status).toBe(200);
    const listed = (await t.request('GET', '/sync/devices', { token: owner.token })).body.data as Array<{
      id: string;
      retired_at: string | null;
    }>;
    expect(listed.find((d) => d.id === lost)!.retired_at).toBe(retired.body.data.retired_at);
    expect(listed.find((d) => d.id === kept)!.retired_at).toBeNull();
  });

  it("checks retirement on the pull's one read: a pull naming its device runs no statement more", async () => {
    const owner = await registerOwner(t);
    const device = uuid();
    await register(owner, device);
    const statements = async (query: string) => Number((await pull(owner, query)).headers.get(STATEMENTS_HEADER));
    const cursor = (await pull(owner)).body.data.cursor as string;
    const plain = await statements(`?cursor=${encodeURIComponent(cursor)}`);
    expect(plain).toBe(1);
    expect(await statements(`?cursor=${encodeURIComponent(cursor)}&device_id=${device}`)).toBe(plain);
  });

  it("lists for the owner what the server refused of the tills' pushes, with the till and the error; nobody else sees them", async () => {
    const owner = await registerOwner(t);
    const other = await registerOwner(t);
    const device = uuid();
    expect((await register(owner, device, 'Counter')).status).toBe(200);
    const refused = { ...(await sale(owner, 1)) };
    // A product this shop does not have: the sale is refused, not booked.
    refused.payload = { ...refused.payload, lines: [{ product_id: uuid(), qty: 1, unit_price: 500 }] };
    const booked = await sale(owner, 2);
    const res = await t.request('POST', '/sync/push', { token: owner.token, body: { device_id: device, mutations: [refused, booked] } });
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.results.map((r: { status: string }) => r.status)).toEqual(['rejected', 'applied']);

    const list = await t.request('GET', '/sync/refusals', { token: owner.token });
    expect(list.status, list.text).toBe(200);
    expect(list.body.meta.total).toBe(1);
    const [refusal] = list.body.data;
    expect(refusal).toMatchObject({ mutation_id: refused.id, device_id: device, till_code: 'T1', type: 'sale.create', code: 'NOT_FOUND' });
    expect(refusal.message).toMatch(/product/i);

    expect((await t.request('GET', '/sync/refusals', { token: other.token })).body.meta.total).toBe(0);
    const cashier = await createStaff(t, owner);
    expect((await t.request('GET', '/sync/refusals', { token: cashier.token })).status).toBe(403);
    expect((await t.request('GET', '/sync/refusals?days=0', { token: owner.token })).status).toBe(400);
  });
});
