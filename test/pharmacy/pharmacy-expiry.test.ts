/**
 * The daily expiry job (issue 14): at the organisation's midnight sellable lots whose date has come
 * become `expired` through the batch ledger, one notice per store lists them; lots entering their
 * alert window get one notice each, never twice, across restarts and server instances; a server
 * that was off catches up at its next run. Time zones and the websocket: pharmacy-expiry-realtime.test.ts.
 */
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { createDeps } from '../../server/src/app.js';
import { withTransaction } from '../../server/src/db/transaction.js';
import { addDays, localDate, startOfLocalDay } from '../../server/src/lib/time.js';
import { lockStock, moveBatch } from '../../server/src/modules/pharmacy/lots/batch-ledger.js';
import { expiryJobState, runExpiryJob } from '../../server/src/modules/pharmacy/lots/expiry-job.js';
import { addStore, type Session } from '../setup/factories.js';
import { DAY, expiryNotices, lotStates } from '../setup/expiry-factories.js';
import { batchRows, expectBatchesMatchStock, newMedicine, pharmacyOwner, receiveLots } from '../setup/pharmacy-factories.js';
import { moveClock, signIn, TZ } from '../setup/reports-factories.js';
import { productOf } from '../setup/suppliers-factories.js';
import { createTestApp, type TestApp } from '../setup/test-app.js';

const SWAHILI_EXPIRED = 'Muda wa dawa hizi umekwisha na haziuzwi tena: ziteketeze na uandike kwenye rejista ya uteketezaji.';

describe('pharmacy: the daily expiry job and expiry alerts', () => {
  let t: TestApp;
  // Each test gets its own database, so what a run of the job did is exactly this test's.
  const app = async () => (t = await createTestApp());
  afterEach(() => t.close());

  const today = () => localDate(t.clock.now(), TZ);
  const notices = (s: { token: string }) => expiryNotices(t, s);
  const lots = (storeId: string, productId: string) => lotStates(t, storeId, productId);
  const alertedLots = async (orgId: string) =>
    (
      await t.db.db
        .selectFrom('batches')
        .select(['lot_number', 'expiry_alerted_at'])
        .where('org_id', '=', orgId)
        .orderBy('lot_number')
        .execute()
    )
      .filter((b) => b.expiry_alerted_at !== null)
      .map((b) => b.lot_number);
  const sell = async (s: { token: string }, productId: string, qty: number) => {
    const res = await t.request('POST', '/pos/sale', {
      token: s.token,
      body: { lines: [{ product_id: productId, qty }], payment_method: 'Cash' },
    });
    expect(res.status, res.text).toBe(201);
    return res.body.data as { id: string };
  };
  const secondInstance = () => createDeps(t.config, t.db, pino({ level: 'silent' }), t.clock);

  it('alerts once per lot with units as it enters its window (the product’s own or the organisation’s), never twice, on one instance or two', async () => {
    await app();
    const owner = await pharmacyOwner(t);
    const amoxyl = await newMedicine(t, owner, {
      name: 'Amoxyl 250mg',
      generic_name: 'Amoxicillin',
      strength: '250 mg',
      dosage_form: 'capsule',
      expiry_alert_days: 30,
    });
    const panadol = await newMedicine(t, owner, { name: 'Panadol 500mg' });
    const d0 = today();
    await receiveLots(t, owner, [
      { product_id: amoxyl.id, lot_number: 'A30', expiry_date: addDays(d0, 30), qty: 12 },
      { product_id: amoxyl.id, lot_number: 'A31', expiry_date: addDays(d0, 31), qty: 4 },
      { product_id: panadol.id, lot_number: 'P10', expiry_date: addDays(d0, 10), qty: 2 },
      { product_id: panadol.id, lot_number: 'P90', expiry_date: addDays(d0, 90), qty: 1 },
      { product_id: panadol.id, lot_number: 'P91', expiry_date: addDays(d0, 91), qty: 6 },
    ]);
    // P10 is sold out (FEFO takes it first): an empty lot is not worth an alert.
    await sell(owner, panadol.id, 2);

    const state = expiryJobState();
    expect(await runExpiryJob(t.deps, state)).toEqual({ expired: 0, units: 0, alerted: 2, expiredNotices: 0 });
    const [a30, p90] = [(await batchRows(t, owner.storeId, amoxyl.id))[0]!, (await batchRows(t, owner.storeId, panadol.id))[1]!];
    expect(await notices(owner)).toEqual([
      {
        category: 'stock',
        title: 'Expiring in 30 days: Amoxyl 250mg lot A30',
        body: `12 units of Amoxyl 250mg, lot A30, expire on ${addDays(d0, 30)} (in 30 days): sell them first or return them to the supplier. Vipande 12 vya Amoxyl 250mg, toleo A30, vinaisha muda wake tarehe ${addDays(d0, 30)} (baada ya siku 30): viuze kwanza au virudishe kwa msambazaji.`,
        link: `/pharmacy/batches/${a30.id}`,
      },
      {
        category: 'stock',
        title: 'Expiring in 90 days: Panadol 500mg lot P90',
        body: `1 unit of Panadol 500mg, lot P90, expires on ${addDays(d0, 90)} (in 90 days): sell it first or return it to the supplier. Kipande 1 cha Panadol 500mg, toleo P90, kinaisha muda wake tarehe ${addDays(d0, 90)} (baada ya siku 90): kiuze kwanza au kirudishe kwa msambazaji.`,
        link: `/pharmacy/batches/${p90.id}`,
      },
    ]);
    expect(await alertedLots(owner.orgId)).toEqual(['A30', 'P90']);

    // The same day again: this process has swept it; a restarted one sweeps and finds nothing new.
    expect(await runExpiryJob(t.deps, state)).toEqual({ expired: 0, units: 0, alerted: 0, expiredNotices: 0 });
    expect(await runExpiryJob(t.deps, expiryJobState())).toEqual({ expired: 0, units: 0, alerted: 0, expiredNotices: 0 });
    expect(await notices(owner)).toHaveLength(2);

    // Next day: A31 and P91 enter their windows; two instances run at once and alert each once.
    moveClock(t, t.clock.now() + DAY);
    const runs = await Promise.all([runExpiryJob(t.deps, state), runExpiryJob(secondInstance(), expiryJobState())]);
    expect(runs.reduce((n, r) => n + r.alerted, 0)).toBe(2);
    expect(runs.map((r) => r.expired)).toEqual([0, 0]);
    const fresh = await signIn(t, owner);
    expect((await notices(fresh)).map((n) => n.title)).toEqual([
      'Expiring in 30 days: Amoxyl 250mg lot A30',
      'Expiring in 30 days: Amoxyl 250mg lot A31',
      'Expiring in 90 days: Panadol 500mg lot P90',
      'Expiring in 90 days: Panadol 500mg lot P91',
    ]);
    expect(await alertedLots(owner.orgId)).toEqual(['A30', 'A31', 'P90', 'P91']);
    await expectBatchesMatchStock(t, owner);
  });

  it('at the organisation’s midnight expires the sellable lots whose date has come: stock falls, one ledger line each, one notice; quarantine stays quarantined', async () => {
    await app();
    const owner = await pharmacyOwner(t);
    const amoxyl = await newMedicine(t, owner, { name: 'Amoxyl 250mg', generic_name: 'Amoxicillin' });
    const panadol = await newMedicine(t, owner, { name: 'Panadol 500mg' });
    const d0 = today();
    const midnight = startOfLocalDay(addDays(d0, 1), TZ);
    await receiveLots(t, owner, [
      { product_id: amoxyl.id, lot_number: 'X0', expiry_date: addDays(d0, 1), qty: 2 },
      { product_id: amoxyl.id, lot_number: 'X3', expiry_date: addDays(d0, 2), qty: 5 },
      { product_id: panadol.id, lot_number: 'X1', expiry_date: addDays(d0, 1), qty: 10 },
      { product_id: panadol.id, lot_number: 'X2', expiry_date: addDays(d0, 1), qty: 3 },
    ]);
    await sell(owner, amoxyl.id, 2); // X0 is empty now
    const sale = await sell(owner, panadol.id, 4); // from X1, then refunded into its quarantine row
    expect(
      (await t.request('POST', `/pos/transactions/${sale.id}/refund`, { token: owner.token, body: { reason: 'patient allergic' } })).status,
    ).toBe(200);
    expect([(await productOf(t, owner, amoxyl.id)).stock, (await productOf(t, owner, panadol.id)).stock]).toEqual([5, 9]);

    // Half a minute before midnight nothing is due yet (the lots with units alert: 1 and 2 days left).
    if (t.clock.now() < midnight - 30_000) moveClock(t, midnight - 30_000);
    const state = expiryJobState();
    expect(await runExpiryJob(t.deps, state)).toEqual({ expired: 0, units: 0, alerted: 3, expiredNotices: 0 });
    // Half a minute after it, the same process sweeps the new day.
    moveClock(t, midnight + 30_000);
    expect(await runExpiryJob(t.deps, state)).toEqual({ expired: 3, units: 9, alerted: 0, expiredNotices: 1 });

    expect(await lots(owner.storeId, amoxyl.id)).toEqual([
      { lot_number: 'X0', status: 'expired', qty_on_hand: 0, quarantine: false },
      { lot_number: 'X3', status: 'sellable', qty_on_hand: 5, quarantine: false },
    ]);
    expect(await lots(owner.storeId, panadol.id)).toEqual([
      { lot_number: 'X1', status: 'expired', qty_on_hand: 6, quarantine: false },
      { lot_number: 'X1', status: 'quarantined', qty_on_hand: 4, quarantine: true },
      { lot_number: 'X2', status: 'expired', qty_on_hand: 3, quarantine: false },
    ]);
    const fresh = await signIn(t, owner);
    expect([(await productOf(t, fresh, amoxyl.id)).stock, (await productOf(t, fresh, panadol.id)).stock]).toEqual([5, 0]);
    const ledger = await t.db.db
      .selectFrom('batch_movements as m')
      .innerJoin('batches as b', 'b.id', 'm.batch_id')
      .select([
        'b.lot_number',
        'm.qty',
        'm.qty_after',
        'm.stock_change',
        'm.status_from',
        'm.status_to',
        'm.user_id',
        'm.note',
        'm.created_at',
      ])
      .where('m.org_id', '=', owner.orgId)
      .where('m.kind', '=', 'expired')
      .orderBy('b.lot_number')
      .execute();
    const line = (lot: string, qtyAfter: number, stockChange: number) => ({
      lot_number: lot,
      qty: 0,
      qty_after: qtyAfter,
      stock_change: stockChange,
      status_from: 'sellable',
      status_to: 'expired',
      user_id: null,
      note: `expiry date ${addDays(d0, 1)} reached`,
      created_at: midnight + 30_000,
    });
    expect(
      ledger.map((l) => ({
        ...l,
        qty: Number(l.qty),
        qty_after: Number(l.qty_after),
        stock_change: Number(l.stock_change),
        created_at: Number(l.created_at),
      })),
    ).toEqual([line('X0', 0, 0), line('X1', 6, -6), line('X2', 3, -3)]);

    const all = await notices(fresh);
    expect(all.map((n) => n.title)).toEqual([
      'Expired: 2 lots, 9 units taken off sale',
      'Expiring in 1 day: Panadol 500mg lot X1',
      'Expiring in 1 day: Panadol 500mg lot X2',
      'Expiring in 2 days: Amoxyl 250mg lot X3',
    ]);
    expect(all[0]).toEqual({
      category: 'stock',
      title: 'Expired: 2 lots, 9 units taken off sale',
      body: `Panadol 500mg lot X1: 6 units; Panadol 500mg lot X2: 3 units. They can no longer be sold: dispose of them and record the disposal. ${SWAHILI_EXPIRED}`,
      link: '/pharmacy/batches?status=expired',
    });

    // Nothing twice: again in this process, in a restarted one, and a day later for these lots.
    expect(await runExpiryJob(t.deps, state)).toEqual({ expired: 0, units: 0, alerted: 0, expiredNotices: 0 });
    expect(await runExpiryJob(t.deps, expiryJobState())).toEqual({ expired: 0, units: 0, alerted: 0, expiredNotices: 0 });
    const refused = await t.request('POST', '/pos/sale', {
      token: fresh.token,
      body: { lines: [{ product_id: panadol.id, qty: 1 }], payment_method: 'Cash' },
    });
    expect(refused.status).toBe(409);
    expect(refused.body.errors[0]).toMatchObject({ code: 'INSUFFICIENT_STOCK', field: 'lines.0.qty' });
    expect(await notices(fresh)).toHaveLength(4);
    await expectBatchesMatchStock(t, owner);
  });

  it('catches up after three days off: everything due expires at the next run, one notice per store, on two instances at once', async () => {
    await app();
    const owner = await pharmacyOwner(t);
    const amoxyl = await newMedicine(t, owner, { name: 'Amoxyl 250mg', generic_name: 'Amoxicillin' });
    const d0 = today();
    await receiveLots(t, owner, [
      { product_id: amoxyl.id, lot_number: 'K1', expiry_date: addDays(d0, 1), qty: 5 },
      { product_id: amoxyl.id, lot_number: 'K2', expiry_date: addDays(d0, 2), qty: 7 },
      { product_id: amoxyl.id, lot_number: 'K3', expiry_date: addDays(d0, 3), qty: 2 },
      { product_id: amoxyl.id, lot_number: 'K9', expiry_date: addDays(d0, 100), qty: 1 },
    ]);
    const branch = await addStore(t, owner.orgId, 'Tawi la Kariakoo');
    const switchTo = async (s: Session) => {
      const res = await t.request('POST', '/accounts/switch-store', { token: (await signIn(t, s)).token, body: { store_id: branch.id } });
      expect(res.status, res.text).toBe(200);
      return { token: res.body.data.tokens.access_token as string };
    };
    await receiveLots(t, await switchTo(owner), [{ product_id: amoxyl.id, lot_number: 'B1', expiry_date: addDays(d0, 2), qty: 4 }]);
    expect(await runExpiryJob(t.deps, expiryJobState())).toEqual({ expired: 0, units: 0, alerted: 4, expiredNotices: 0 });

    // Every server is off for three days; two come back at once.
    moveClock(t, t.clock.now() + 3 * DAY);
    const runs = await Promise.all([runExpiryJob(t.deps, expiryJobState()), runExpiryJob(secondInstance(), expiryJobState())]);
    const sum = runs.reduce((a, r) => ({
      expired: a.expired + r.expired,
      units: a.units + r.units,
      alerted: a.alerted + r.alerted,
      expiredNotices: a.expiredNotices + r.expiredNotices,
    }));
    expect(sum).toEqual({ expired: 4, units: 18, alerted: 0, expiredNotices: 2 });

    const main = await signIn(t, owner);
    const there = await switchTo(owner);
    expect(await lots(owner.storeId, amoxyl.id)).toEqual([
      { lot_number: 'K1', status: 'expired', qty_on_hand: 5, quarantine: false },
      { lot_number: 'K2', status: 'expired', qty_on_hand: 7, quarantine: false },
      { lot_number: 'K3', status: 'expired', qty_on_hand: 2, quarantine: false },
      { lot_number: 'K9', status: 'sellable', qty_on_hand: 1, quarantine: false },
    ]);
    expect(await lots(branch.id, amoxyl.id)).toEqual([{ lot_number: 'B1', status: 'expired', qty_on_hand: 4, quarantine: false }]);
    expect([(await productOf(t, main, amoxyl.id)).stock, (await productOf(t, there, amoxyl.id)).stock]).toEqual([1, 0]);
    const expiredIn = async (s: { token: string }) => (await notices(s)).filter((n) => n.title.startsWith('Expired'));
    expect(await expiredIn(main)).toEqual([
      {
        category: 'stock',
        title: 'Expired: 3 lots, 14 units taken off sale',
        body: `Amoxyl 250mg lot K1: 5 units; Amoxyl 250mg lot K2: 7 units; Amoxyl 250mg lot K3: 2 units. They can no longer be sold: dispose of them and record the disposal. ${SWAHILI_EXPIRED}`,
        link: '/pharmacy/batches?status=expired',
      },
    ]);
    expect((await expiredIn(there)).map((n) => [n.title, n.body.split('.')[0]])).toEqual([
      ['Expired: 1 lot, 4 units taken off sale', 'Amoxyl 250mg lot B1: 4 units'],
    ]);
    expect(await notices(main)).toHaveLength(4);
    expect(await notices(there)).toHaveLength(2);
    const expiredLines = await t.db.db
      .selectFrom('batch_movements')
      .select('batch_id')
      .where('org_id', '=', owner.orgId)
      .where('kind', '=', 'expired')
      .execute();
    expect(expiredLines).toHaveLength(4);
    await expectBatchesMatchStock(t, owner);
  });

  it('alerts again for a lot whose expiry date was corrected, once the new date is in the window', async () => {
    await app();
    const owner = await pharmacyOwner(t);
    const med = await newMedicine(t, owner, { name: 'Ciprobay 500mg', generic_name: 'Ciprofloxacin' });
    const d0 = today();
    await receiveLots(t, owner, [{ product_id: med.id, lot_number: 'R1', expiry_date: addDays(d0, 20), qty: 3 }]);
    expect((await runExpiryJob(t.deps, expiryJobState())).alerted).toBe(1);
    // The correction route belongs to the batch routes; this goes through the same ledger move it makes.
    const correct = (expiry: string) =>
      withTransaction(t.serviceCtx(), async (tx) => {
        await lockStock(tx, owner.orgId, owner.storeId, med.id);
        const row = await tx.db.selectFrom('batches').selectAll().where('product_id', '=', med.id).executeTakeFirstOrThrow();
        await moveBatch(tx, row, { kind: 'corrected', qty: 0, set: { expiry_date: expiry } }, { productName: med.name });
      });
    await correct(addDays(d0, 200));
    expect(await alertedLots(owner.orgId)).toEqual([]);
    expect((await runExpiryJob(t.deps, expiryJobState())).alerted).toBe(0);
    await correct(addDays(d0, 50));
    expect((await runExpiryJob(t.deps, expiryJobState())).alerted).toBe(1);
    expect((await notices(owner)).map((n) => n.title)).toEqual([
      'Expiring in 20 days: Ciprobay 500mg lot R1',
      'Expiring in 50 days: Ciprobay 500mg lot R1',
    ]);
    await expectBatchesMatchStock(t, owner);
  });
});
