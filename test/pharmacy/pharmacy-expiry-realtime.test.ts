/**
 * The daily expiry job (issue 14), continued: each organisation's lots expire at its own midnight,
 * connected tills hear of alerts and expiries over the websocket, and a long catch-up notice stays
 * readable. The job's core cases: pharmacy-expiry.test.ts.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { addDays, localDate, startOfLocalDay } from '../../server/src/lib/time.js';
import { expiredNotice, LISTED_LOTS } from '../../server/src/modules/pharmacy/lots/expiry-notices.js';
import { expiryJobState, runExpiryJob } from '../../server/src/modules/pharmacy/lots/expiry-job.js';
import { attachRealtime } from '../../server/src/sync/ws/attach.js';
import { DAY, lotStates } from '../setup/expiry-factories.js';
import { expectBatchesMatchStock, newMedicine, pharmacyOwner, receiveLots } from '../setup/pharmacy-factories.js';
import { moveClock, signIn, TZ } from '../setup/reports-factories.js';
import { createTestApp, listen, type TestApp } from '../setup/test-app.js';
import { connect } from '../setup/ws-client.js';

const ACCRA = 'Africa/Abidjan'; // UTC+0 all year: three hours behind Dar es Salaam

describe('pharmacy expiry: time zones, the websocket, long notices', () => {
  let t: TestApp;
  const cleanup: Array<() => Promise<unknown>> = [];
  // Each test gets its own database, so what a run of the job did is exactly this test's.
  const app = async () => (t = await createTestApp());
  afterEach(async () => {
    for (const fn of cleanup.splice(0).reverse()) await fn();
    await t.close();
  });

  it('expires each organisation’s lots at its own midnight', async () => {
    await app();
    const dar = await pharmacyOwner(t);
    const accra = await pharmacyOwner(t);
    const zone = await t.request('PATCH', '/accounts/organisation', { token: accra.token, body: { timezone: ACCRA } });
    expect(zone.status, zone.text).toBe(200);
    const expiry = addDays(localDate(t.clock.now(), TZ), 2);
    const meds = [];
    for (const s of [dar, accra]) {
      const med = await newMedicine(t, s, { name: 'Amoxyl 250mg', generic_name: 'Amoxicillin' });
      await receiveLots(t, s, [{ product_id: med.id, lot_number: 'Z1', expiry_date: expiry, qty: 6 }]);
      meds.push(med);
    }
    const state = expiryJobState();
    expect(await runExpiryJob(t.deps, state)).toEqual({ expired: 0, units: 0, alerted: 2, expiredNotices: 0 });

    // A minute past midnight in Dar es Salaam it is 21:01 the evening before in Accra.
    moveClock(t, startOfLocalDay(expiry, TZ) + 60_000);
    expect(await runExpiryJob(t.deps, state)).toEqual({ expired: 1, units: 6, alerted: 0, expiredNotices: 1 });
    expect((await lotStates(t, dar.storeId, meds[0]!.id))[0]!.status).toBe('expired');
    expect((await lotStates(t, accra.storeId, meds[1]!.id))[0]!.status).toBe('sellable');
    // A minute past midnight in Accra: its lot goes; Dar es Salaam's day was swept already.
    moveClock(t, startOfLocalDay(expiry, ACCRA) + 60_000);
    expect(await runExpiryJob(t.deps, state)).toEqual({ expired: 1, units: 6, alerted: 0, expiredNotices: 1 });
    expect((await lotStates(t, accra.storeId, meds[1]!.id))[0]!.status).toBe('expired');
    await expectBatchesMatchStock(t, dar);
    await expectBatchesMatchStock(t, accra);
  });

  it('sends a connected till of the store the alert and the expiry as notification messages, and the new stock', async () => {
    await app();
    const { server, origin, close } = await listen(t);
    const realtime = attachRealtime(server, t.deps, { heartbeatMs: 100 });
    cleanup.push(close, () => realtime.close());
    const url = `${origin.replace('http', 'ws')}/api/v1/sync/ws`;

    const owner = await pharmacyOwner(t);
    const med = await newMedicine(t, owner, { name: 'Amoxyl 250mg', generic_name: 'Amoxicillin' });
    const d0 = localDate(t.clock.now(), TZ);
    await receiveLots(t, owner, [{ product_id: med.id, lot_number: 'W5', expiry_date: addDays(d0, 5), qty: 8 }]);
    const till = await connect(url, owner.token);
    cleanup.push(() => till.close());
    await till.next('hello');
    await runExpiryJob(t.deps, expiryJobState());
    const alert = await till.next('notification');
    expect(alert.notification).toMatchObject({
      category: 'stock',
      title: 'Expiring in 5 days: Amoxyl 250mg lot W5',
      is_read: false,
      store_id: owner.storeId,
    });

    moveClock(t, t.clock.now() + 5 * DAY);
    const later = await connect(url, (await signIn(t, owner)).token);
    cleanup.push(() => later.close());
    await later.next('hello');
    expect(await runExpiryJob(t.deps, expiryJobState())).toEqual({ expired: 1, units: 8, alerted: 0, expiredNotices: 1 });
    expect((await later.next('notification')).notification).toMatchObject({
      category: 'stock',
      title: 'Expired: 1 lot, 8 units taken off sale',
      link: '/pharmacy/batches?status=expired',
    });
    expect(await later.next('stock', 1000, (m) => m.product_id === med.id)).toEqual({ type: 'stock', product_id: med.id, stock: 0 });
    await expectBatchesMatchStock(t, owner);
  });

  it('lists the first lots of a long catch-up by name and counts the rest', async () => {
    await app();
    const expired = Array.from({ length: LISTED_LOTS + 2 }, (_, i) => ({
      productName: 'Panadol 500mg',
      lotNumber: `L${i + 1}`,
      units: i === 0 ? 1 : 2,
    }));
    const notice = expiredNotice(expired);
    expect(notice.title).toBe('Expired: 22 lots, 43 units taken off sale');
    const listed = notice.body.slice(0, notice.body.indexOf('. They can no longer be sold')).split('; ');
    expect(listed).toHaveLength(21);
    expect(listed.slice(0, 2)).toEqual(['Panadol 500mg lot L1: 1 unit', 'Panadol 500mg lot L2: 2 units']);
    expect(listed[19]).toBe('Panadol 500mg lot L20: 2 units');
    expect(listed[20]).toBe('and 2 lots more (4 units)');
  });
});
