import { Envelope, newId, PushResponse, type SyncConflict } from '@duka/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerOwner, type Session } from '../setup/factories.js';
import { createTestApp, type TestApp } from '../setup/test-app.js';

const MIN = 60_000;
const DAY = 86_400_000;

describe('sync: a pushed sale’s tender, source and clock', () => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp()));
  afterAll(() => t.close());

  const setup = async () => {
    const owner = await registerOwner(t);
    const soda = (
      await t.request('POST', '/inventory/products', { token: owner.token, body: { name: 'Soda', selling_price: 1000, stock: 50 } })
    ).body.data as { id: string };
    const device_id = newId();
    expect((await t.request('POST', '/sync/devices', { token: owner.token, body: { device_id, name: 'Till 1' } })).status).toBe(200);
    return { owner, soda, device_id, seq: 0 };
  };
  type Shop = Awaited<ReturnType<typeof setup>>;
  const sale = (s: Shop, at: number, extra: Record<string, unknown> = {}, unit_price = 1000) => ({
    id: newId(),
    seq: ++s.seq,
    type: 'sale.create',
    created_at: new Date(at).toISOString(),
    payload: {
      id: newId(),
      client_receipt_number: `T1-${s.seq}`,
      lines: [{ product_id: s.soda.id, qty: 2, unit_price }],
      payment_method: 'Cash',
      ...extra,
    },
  });
  const push = async (s: Shop, mutations: unknown[]) => {
    const res = await t.request('POST', '/sync/push', { token: s.owner.token, body: { device_id: s.device_id, mutations } });
    expect(res.status, res.text).toBe(200);
    return Envelope(PushResponse).parse(res.body).data;
  };
  const tx = async (s: { owner: Session }, id: unknown) =>
    (await t.request('GET', `/pos/transactions/${id}`, { token: s.owner.token })).body.data as Record<string, unknown>;
  const conflicts = async (s: Shop) =>
    (await t.request('GET', '/sync/conflicts?kind=clock', { token: s.owner.token })).body.data as SyncConflict[];
  const iso = (ms: number) => new Date(ms).toISOString();

  it('keeps the till’s tender and change, and refuses a short tender like any invalid payload', async () => {
    const s = await setup();
    const now = t.clock.now();
    const res = await push(s, [
      sale(s, now - 5 * MIN, { cash_tendered: 5000 }),
      sale(s, now - 4 * MIN, { cash_tendered: 1999.99 }),
      sale(s, now - 3 * MIN, { payment_method: 'M-Pesa', cash_tendered: 2000 }),
      sale(s, now - 2 * MIN, { cash_tendered: 1e12 }),
    ]);
    expect(res.results.map((r) => r.status)).toEqual(['applied', 'rejected', 'rejected', 'rejected']);
    expect(res.results[3]!.error!.message).toBe(
      'payload.cash_tendered TZS 1,000,000,000,000 would leave TZS 999,999,998,000 in change, more than TZS 100,000 (ten of the largest note): check the amount',
    );
    expect(res.results[1]!.error).toEqual({
      code: 'VALIDATION_ERROR',
      message: "payload.cash_tendered TZS 1,999.99 is less than the sale's total of TZS 2,000",
    });
    expect(res.results[2]!.error!.message).toBe('payload.cash_tendered is only for a cash sale');
    expect(await tx(s, res.results[0]!.result!.transaction_id)).toMatchObject({ total: 2000, cash_tendered: 5000, change_given: 3000 });
  });

  it('gives the change the till counted from its own prices when the server books another price', async () => {
    const s = await setup();
    // 700 was never Soda's price: booked at 1,000 (price_mismatch); the cashier gave change from 1,400.
    const res = await push(s, [sale(s, t.clock.now() - MIN, { cash_tendered: 2000 }, 700)]);
    expect(res.results[0]).toMatchObject({ status: 'applied', conflicts: [{ kind: 'price_mismatch' }] });
    expect(await tx(s, res.results[0]!.result!.transaction_id)).toMatchObject({ total: 2000, cash_tendered: 2000, change_given: 600 });
  });

  it('records how the till says each sale was rung up; a till that does not say is offline', async () => {
    const s = await setup();
    const now = t.clock.now();
    const res = await push(s, [
      sale(s, now - 3 * MIN, { source: 'online' }),
      sale(s, now - 2 * MIN, { source: 'offline' }),
      sale(s, now - MIN),
    ]);
    const sources = await Promise.all(res.results.map(async (r) => (await tx(s, r.result!.transaction_id)).source));
    expect(sources).toEqual(['online', 'offline', 'offline']);
    const bad = await push(s, [sale(s, now, { source: 'telepathy' })]);
    expect(bad.results[0]!.error!.message).toMatch(/^payload\.source /);
  });

  it('keeps the own day of sales made days ago with a right clock, even pushed after a later batch', async () => {
    const s = await setup();
    const now = t.clock.now();
    const threeDaysAgo = now - 3 * DAY;
    // The queue goes up in two batches: the second's sales are older than the first push, rightly.
    const first = await push(s, [sale(s, threeDaysAgo), sale(s, threeDaysAgo + 10 * MIN)]);
    t.clock.advance(1000);
    const second = await push(s, [sale(s, threeDaysAgo + 20 * MIN), sale(s, threeDaysAgo + 30 * MIN)]);
    const all = [...first.results, ...second.results];
    expect(all.every((r) => r.status === 'applied' && !r.conflicts)).toBe(true);
    const booked = await Promise.all(all.map((r) => tx(s, r.result!.transaction_id)));
    expect(booked.map((b) => [b.created_at, b.client_created_at])).toEqual(
      [0, 10, 20, 30].map((m) => [iso(threeDaysAgo + m * MIN), iso(threeDaysAgo + m * MIN)]),
    );
    expect(booked.map((b) => b.received_at)).toEqual([iso(now), iso(now), iso(now + 1000), iso(now + 1000)]);
    expect(await conflicts(s)).toEqual([]);
  });

  it('books a sale dated in the future at the receipt time and flags it with both times; within 5 minutes it is just clamped', async () => {
    const s = await setup();
    const now = t.clock.now();
    const res = await push(s, [sale(s, now + 4 * MIN), sale(s, now + 2 * 60 * MIN + 15 * MIN)]);
    expect(res.results[0]!.conflicts).toBeUndefined();
    const message = `the till's clock read ${iso(now + 135 * MIN)} for this sale, 2 h 15 min ahead of the server's; it is booked at the server's receipt time ${iso(now)}`;
    expect(res.results[1]).toMatchObject({ status: 'applied', conflicts: [{ kind: 'clock', message }] });
    const [near, far] = await Promise.all(res.results.map((r) => tx(s, r.result!.transaction_id)));
    expect(near).toMatchObject({ created_at: iso(now), client_created_at: iso(now + 4 * MIN), received_at: iso(now) });
    expect(far).toMatchObject({ created_at: iso(now), client_created_at: iso(now + 135 * MIN), received_at: iso(now) });
    expect(await conflicts(s)).toEqual([
      expect.objectContaining({
        kind: 'clock',
        message,
        transaction_id: far!.id,
        detail: { reason: 'future', client_created_at: iso(now + 135 * MIN), received_at: iso(now), booked_at: iso(now) },
      }),
    ]);
  });

  it('books a sale dated before the device’s previous sale (its clock went back) at the receipt time, flagged; a minute’s slip is not', async () => {
    const s = await setup();
    const now = t.clock.now();
    await push(s, [sale(s, now - 10 * MIN)]);
    t.clock.advance(MIN);
    const res = await push(s, [sale(s, now - 11 * MIN), sale(s, now - 2 * DAY), sale(s, now - 9 * MIN)]);
    expect(res.results.map((r) => r.conflicts?.map((c) => c.kind) ?? [])).toEqual([[], ['clock'], []]);
    const booked = await Promise.all(res.results.map((r) => tx(s, r.result!.transaction_id)));
    expect(booked.map((b) => [b.created_at, b.client_created_at])).toEqual([
      [iso(now - 11 * MIN), iso(now - 11 * MIN)],
      [iso(now + MIN), iso(now - 2 * DAY)],
      [iso(now - 9 * MIN), iso(now - 9 * MIN)],
    ]);
    const [flag] = await conflicts(s);
    expect(flag).toMatchObject({
      transaction_id: booked[1]!.id,
      detail: {
        reason: 'backwards',
        previous_sale_at: iso(now - 10 * MIN),
        client_created_at: iso(now - 2 * DAY),
        received_at: iso(now + MIN),
        booked_at: iso(now + MIN),
      },
    });
    expect(flag!.message).toContain(`1 d 23 h before the till's previous sale (${iso(now - 10 * MIN)}): its clock went back`);
  });
});
