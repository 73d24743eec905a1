import { Batch, Envelope, PagedEnvelope, PullResponse, QuarantineItem, RecallDetail, Transaction } from '@duka/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTransaction } from '../../server/src/db/transaction.js';
import { authenticate } from '../../server/src/lib/auth/middleware.js';
import type { AuthedContext } from '../../server/src/lib/context.js';
import { lockStock, moveBatch } from '../../server/src/modules/pharmacy/lots/batch-ledger.js';
import { disposeBatch, releaseQuarantine } from '../../server/src/modules/pharmacy/recalls/quarantine.js';
import { createRecall } from '../../server/src/modules/pharmacy/recalls/recalls.js';
import { addStore, createStaff, registerOwner } from '../setup/factories.js';
import { batchRows, expectBatchesMatchStock, newMedicine, pharmacyOwner, receiveLots } from '../setup/pharmacy-factories.js';
import { productOf } from '../setup/suppliers-factories.js';
import { createTestApp, type TestApp } from '../setup/test-app.js';

type Who = { token: string };

describe('pharmacy: quarantine release and disposal, recalls across the organisation', () => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp()));
  afterAll(() => t.close());

  const call = (s: Who, method: string, path: string, body?: unknown) => t.request(method, path, { token: s.token, body });
  const sell = async (s: Who, productId: string, qty: number, extra: Record<string, unknown> = {}) => {
    const res = await call(s, 'POST', '/pos/sale', { lines: [{ product_id: productId, qty }], payment_method: 'Cash', ...extra });
    expect(res.status, res.text).toBe(201);
    return Envelope(Transaction).parse(res.body).data;
  };
  const refund = async (s: Who, id: string) =>
    expect((await call(s, 'POST', `/pos/transactions/${id}/refund`, { reason: 'returned unopened' })).status).toBe(200);
  const lots = async (storeId: string, productId: string) =>
    (await batchRows(t, storeId, productId)).map((b) => [b.lot_number, b.status, b.qty_on_hand, b.source_batch_id !== null]);
  const quarantine = async (s: Who) => {
    const res = await call(s, 'GET', '/pharmacy/quarantine');
    expect(res.status, res.text).toBe(200);
    return PagedEnvelope(QuarantineItem).parse(res.body).data;
  };

  it('releases inspected units back to their lot, disposes of all or part of a quarantine row, and refuses what the rules refuse', async () => {
    const owner = await pharmacyOwner(t);
    const med = await newMedicine(t, owner, {
      name: 'Amoxyl 250mg',
      generic_name: 'Amoxicillin',
      strength: '250 mg',
      dosage_form: 'capsule',
    });
    await receiveLots(t, owner, [{ product_id: med.id, lot_number: 'Q-1', expiry_date: '2027-05-31', qty: 10 }]);
    const sale = await sell(owner, med.id, 4);
    await refund(owner, sale.id);
    expect((await productOf(t, owner, med.id)).stock).toBe(6);

    const [held] = await quarantine(owner);
    expect(held).toMatchObject({
      product_id: med.id,
      product_name: 'Amoxyl 250mg',
      lot_number: 'Q-1',
      expiry_date: '2027-05-31',
      qty: 4,
      cost_price: 300,
      transaction_id: sale.id,
      receipt_number: sale.receipt_number,
    });
    const noNote = await call(owner, 'POST', `/pharmacy/quarantine/${held!.id}/release`, {});
    expect([noNote.status, noNote.body.errors[0].field]).toEqual([400, 'note']);

    const released = await call(owner, 'POST', `/pharmacy/quarantine/${held!.id}/release`, { note: 'blister packs sealed' });
    expect(released.status, released.text).toBe(200);
    expect(Envelope(Batch).parse(released.body).data).toMatchObject({
      lot_number: 'Q-1',
      status: 'sellable',
      qty_on_hand: 10,
      source_batch_id: null,
    });
    expect((await productOf(t, owner, med.id)).stock).toBe(10);
    expect(await quarantine(owner)).toEqual([]);
    const again = await call(owner, 'POST', `/pharmacy/quarantine/${held!.id}/release`, { note: 'twice' });
    expect([again.status, again.body.errors[0]]).toEqual([409, { code: 'INVALID_STATE', message: 'this batch is already sellable' }]);
    const audit = await t.db.db
      .selectFrom('audit_log')
      .select(['action', 'description'])
      .where('org_id', '=', owner.orgId)
      .where('action', 'like', 'pharmacy.%')
      .execute();
    expect(audit).toEqual([
      { action: 'pharmacy.quarantine.release', description: 'Released 4 × Amoxyl 250mg lot Q-1 from quarantine: blister packs sealed' },
    ]);

    // A sellable lot is stock, not waste.
    const main = (await batchRows(t, owner.storeId, med.id)).find((b) => b.source_batch_id === null)!;
    const sellable = await call(owner, 'POST', `/pharmacy/batches/${main.id}/dispose`, { reason: 'x', method: 'y', witness: 'z' });
    expect([sellable.status, sellable.body.errors[0]]).toEqual([
      409,
      { code: 'INVALID_STATE', message: 'a sellable batch cannot be disposed of' },
    ]);

    // Part of a quarantine row, then the rest.
    const second = await sell(owner, med.id, 3);
    await refund(owner, second.id);
    const [row] = await quarantine(owner);
    const dispose = (body: Record<string, unknown>) =>
      call(owner, 'POST', `/pharmacy/batches/${row!.id}/dispose`, {
        reason: 'capsules crushed',
        method: 'incineration',
        witness: 'Dr. Hassan',
        ...body,
      });
    const tooMany = await dispose({ qty: 4 });
    expect([tooMany.status, tooMany.body.errors[0]]).toEqual([
      400,
      { code: 'VALIDATION_ERROR', field: 'qty', message: 'is more than the 3 units this batch holds' },
    ]);
    const part = await dispose({ qty: 1 });
    expect(part.status, part.text).toBe(200);
    expect(Envelope(Batch).parse(part.body).data).toMatchObject({ status: 'quarantined', qty_on_hand: 2 });
    expect((await quarantine(owner)).map((q) => q.qty)).toEqual([2]);
    const rest = await dispose({});
    expect(Envelope(Batch).parse(rest.body).data).toMatchObject({ status: 'disposed', qty_on_hand: 0 });
    expect(await quarantine(owner)).toEqual([]);
    const disposedAgain = await dispose({});
    expect([disposedAgain.status, disposedAgain.body.errors[0].message]).toEqual([409, 'this batch is already disposed']);
    expect(await lots(owner.storeId, med.id)).toEqual([
      ['Q-1', 'sellable', 7, false],
      ['Q-1', 'sellable', 0, true],
      ['Q-1', 'disposed', 0, true],
    ]);
    expect((await productOf(t, owner, med.id)).stock).toBe(7);

    // Staff need the permission (another organisation's batch: test/api/access-rules.test.ts).
    const staff = await createStaff(t, owner);
    for (const [method, path, body] of [
      ['GET', '/pharmacy/quarantine'],
      ['POST', `/pharmacy/quarantine/${row!.id}/release`, { note: 'n' }],
      ['POST', `/pharmacy/batches/${main.id}/dispose`, { reason: 'x', method: 'y', witness: 'z' }],
    ] as const) {
      const res = await call(staff, method, path, body);
      expect([res.status, res.body.message]).toEqual([403, 'you are not allowed to manage pharmacy stock or registers']);
    }
    await expectBatchesMatchStock(t, owner);
  });

  it('refuses to release units of a lot past expiry, and disposes of them and of an expired lot', async () => {
    const owner = await pharmacyOwner(t);
    const med = await newMedicine(t, owner, { name: 'Cipro 500mg', generic_name: 'Ciprofloxacin' });
    await receiveLots(t, owner, [{ product_id: med.id, lot_number: 'C-9', expiry_date: '2027-01-31', qty: 5 }]);
    await refund(owner, (await sell(owner, med.id, 2)).id);
    const [row] = await quarantine(owner);
    const main = (await batchRows(t, owner.storeId, med.id)).find((b) => b.source_batch_id === null)!;

    // The lot's expiry comes; the daily job (another slice of issue 14) would mark it expired through the ledger, as here.
    t.clock.advance(Date.parse('2027-02-01T06:00:00Z') - t.clock.now());
    const login = await t.request('POST', '/auth/login', { body: { identifier: owner.phone, password: owner.password } });
    const token = login.body.data.access_token as string;
    const late = await call({ token }, 'POST', `/pharmacy/quarantine/${row!.id}/release`, { note: 'looks fine' });
    expect([late.status, late.body.errors[0]]).toEqual([
      409,
      { code: 'INVALID_STATE', field: 'expiry_date', message: 'this batch expired on 2027-01-31: dispose of it instead of releasing it' },
    ]);
    const mainRow = await t.db.db.selectFrom('batches').selectAll().where('id', '=', main.id).executeTakeFirstOrThrow();
    await withTransaction(t.serviceCtx(), async (tx) => {
      await lockStock(tx, owner.orgId, owner.storeId, med.id);
      await moveBatch(tx, mainRow, { kind: 'expired', qty: 0, status: 'expired' }, { productName: med.name });
    });
    expect((await productOf(t, { token }, med.id)).stock).toBe(0);

    for (const id of [row!.id, main.id]) {
      const res = await call({ token }, 'POST', `/pharmacy/batches/${id}/dispose`, {
        reason: 'expired',
        method: 'incineration',
        witness: 'Dr. Hassan',
      });
      expect(res.status, res.text).toBe(200);
    }
    expect(await lots(owner.storeId, med.id)).toEqual([
      ['C-9', 'disposed', 0, false],
      ['C-9', 'disposed', 0, true],
    ]);
    await expectBatchesMatchStock(t, owner);
  });

  it('recalls a lot in every store at once, notifies them, and lists the sales that dispensed it', async () => {
    const owner = await pharmacyOwner(t);
    const med = await newMedicine(t, owner, {
      name: 'Amoxyl 250mg',
      generic_name: 'Amoxicillin',
      strength: '250 mg',
      dosage_form: 'capsule',
    });
    await receiveLots(t, owner, [
      { product_id: med.id, lot_number: 'AX-101', expiry_date: '2027-03-31', qty: 10 },
      { product_id: med.id, lot_number: 'AX-202', expiry_date: '2027-09-30', qty: 6 },
    ]);
    const branch = await addStore(t, owner.orgId, 'Kariakoo Branch');
    const switched = await call(owner, 'POST', '/accounts/switch-store', { store_id: branch.id });
    const atBranch = { token: switched.body.data.tokens.access_token as string };
    await receiveLots(t, atBranch, [{ product_id: med.id, lot_number: 'AX-101', expiry_date: '2027-03-31', qty: 8 }]);

    const first = await sell(owner, med.id, 3, { customer_name: 'Neema Said', customer_phone: '0712345678' });
    const second = await sell(owner, med.id, 2);
    await refund(owner, second.id);
    const voided = await sell(owner, med.id, 1);
    expect((await call(owner, 'POST', `/pos/transactions/${voided.id}/void`, { reason: 'rang twice' })).status).toBe(200);
    const atBranchSale = await sell(atBranch, med.id, 4);
    expect([(await productOf(t, owner, med.id)).stock, (await productOf(t, atBranch, med.id)).stock]).toEqual([11, 4]);
    const cursor = Envelope(PullResponse).parse((await call(owner, 'GET', '/sync/pull')).body).data.cursor;

    const res = await call(owner, 'POST', '/pharmacy/recalls', {
      product_id: med.id,
      lot_number: ' ax-101 ',
      reason: 'TMDA recall: failed dissolution',
    });
    expect(res.status, res.text).toBe(201);
    const recall = Envelope(RecallDetail).parse(res.body).data;
    const mainStore = await t.db.db.selectFrom('stores').select('name').where('id', '=', owner.storeId).executeTakeFirstOrThrow();
    expect(recall).toMatchObject({
      product_id: med.id,
      product_name: 'Amoxyl 250mg',
      lot_number: 'AX-101',
      reason: 'TMDA recall: failed dissolution',
      batch_count: 3,
      units: 11,
      user_name: 'Asha Mushi',
    });
    expect(recall.stores.map((s) => ({ ...s, batches: s.batches.map(({ batch_id: _, ...b }) => b) }))).toEqual(
      [
        {
          store_id: owner.storeId,
          store_name: mainStore.name,
          stock_removed: 5,
          batches: [
            { lot_number: 'AX-101', expiry_date: '2027-03-31', status_before: 'sellable', qty: 5, quarantine: false },
            { lot_number: 'AX-101', expiry_date: '2027-03-31', status_before: 'quarantined', qty: 2, quarantine: true },
          ],
        },
        {
          store_id: branch.id,
          store_name: 'Kariakoo Branch',
          stock_removed: 4,
          batches: [{ lot_number: 'AX-101', expiry_date: '2027-03-31', status_before: 'sellable', qty: 4, quarantine: false }],
        },
      ].sort((a, b) => a.store_name.localeCompare(b.store_name)),
    );
    expect(
      recall.sales.map((s) => [s.transaction_id, s.receipt_number, s.store_id, s.status, s.qty, s.customer_name, s.customer_phone]),
    ).toEqual([
      [first.id, first.receipt_number, owner.storeId, 'paid', 3, 'Neema Said', '+255712345678'],
      [second.id, second.receipt_number, owner.storeId, 'refunded', 2, null, null],
      [atBranchSale.id, atBranchSale.receipt_number, branch.id, 'paid', 4, null, null],
    ]);

    expect([(await productOf(t, owner, med.id)).stock, (await productOf(t, atBranch, med.id)).stock]).toEqual([6, 0]);
    expect(await lots(owner.storeId, med.id)).toEqual([
      ['AX-101', 'recalled', 5, false],
      ['AX-101', 'recalled', 2, true],
      ['AX-202', 'sellable', 6, false],
    ]);
    expect(await lots(branch.id, med.id)).toEqual([['AX-101', 'recalled', 4, false]]);
    // Tills learn it on their next pull, and the next sale takes the other lot.
    const pulled = Envelope(PullResponse)
      .parse((await call(owner, 'GET', `/sync/pull?cursor=${cursor}`)).body)
      .data.changes.filter((c) => c.entity === 'batch');
    const quarantined = (await batchRows(t, owner.storeId, med.id)).find((b) => b.source_batch_id !== null)!;
    // A till holds no quarantine rows: that one is a delete for it.
    expect(
      pulled.map((c) =>
        c.op === 'upsert'
          ? [c.op, ...(({ lot_number, status, qty_on_hand }) => [lot_number, status, qty_on_hand])(Batch.parse(c.data))]
          : [c.op, c.id],
      ),
    ).toEqual([
      ['upsert', 'AX-101', 'recalled', 5],
      ['delete', quarantined.id],
    ]);
    expect((await sell(owner, med.id, 1)).lines[0]!.batches.map((b) => b.lot_number)).toEqual(['AX-202']);

    const notes = await t.db.db
      .selectFrom('notifications')
      .select(['store_id', 'category', 'title', 'body'])
      .where('org_id', '=', owner.orgId)
      .where('title', 'like', 'Recall%')
      .orderBy('store_id')
      .execute();
    expect(notes).toEqual(
      [
        {
          store_id: owner.storeId,
          category: 'stock',
          title: 'Recall: Amoxyl 250mg lot AX-101',
          body: '7 units of lot AX-101 in this store are recalled and out of sale (stock down by 5). Reason: TMDA recall: failed dissolution',
        },
        {
          store_id: branch.id,
          category: 'stock',
          title: 'Recall: Amoxyl 250mg lot AX-101',
          body: '4 units of lot AX-101 in this store are recalled and out of sale (stock down by 4). Reason: TMDA recall: failed dissolution',
        },
      ].sort((a, b) => a.store_id.localeCompare(b.store_id)),
    );
    const audit = await t.db.db
      .selectFrom('audit_log')
      .select(['action', 'entity_id', 'description'])
      .where('org_id', '=', owner.orgId)
      .where('action', '=', 'pharmacy.recall')
      .execute();
    expect(audit).toEqual([
      {
        action: 'pharmacy.recall',
        entity_id: recall.id,
        description: 'Recalled Amoxyl 250mg lot AX-101 in 2 store(s), 11 units: TMDA recall: failed dissolution',
      },
    ]);

    const list = await call(owner, 'GET', '/pharmacy/recalls?page_size=5');
    expect(list.status, list.text).toBe(200);
    expect(list.body.meta).toEqual({ page: 1, page_size: 5, total: 1, total_pages: 1 });
    expect(list.body.data).toEqual([
      {
        id: recall.id,
        product_id: med.id,
        product_name: 'Amoxyl 250mg',
        lot_number: 'AX-101',
        reason: 'TMDA recall: failed dissolution',
        batch_count: 3,
        units: 11,
        user_id: owner.userId,
        user_name: 'Asha Mushi',
        created_at: recall.created_at,
      },
    ]);
    expect((await call(owner, 'GET', `/pharmacy/recalls/${recall.id}`)).body.data).toEqual(recall);

    // Recalled units are disposed of like expired ones; the register of each store keeps them.
    const held = (await batchRows(t, owner.storeId, med.id)).find((b) => b.lot_number === 'AX-101' && b.source_batch_id === null)!;
    expect(
      (
        await call(owner, 'POST', `/pharmacy/batches/${held.id}/dispose`, {
          reason: 'recalled',
          method: 'returned to supplier',
          witness: 'Dr. Hassan',
          qty: 5,
        })
      ).status,
    ).toBe(200);
    expect((await batchRows(t, owner.storeId, med.id)).find((b) => b.id === held.id)).toMatchObject({ status: 'disposed', qty_on_hand: 0 });
    await expectBatchesMatchStock(t, owner);
  });

  it('answers 404 for another organisation’s product or recall, 422 for a lot never held, 400 naming the field, 403 without the permission', async () => {
    const owner = await pharmacyOwner(t);
    const med = await newMedicine(t, owner, { name: 'Metformin 500mg', generic_name: 'Metformin' });
    await receiveLots(t, owner, [{ product_id: med.id, lot_number: 'MF-1', expiry_date: '2027-06-30', qty: 4 }]);
    const recall = (body: Record<string, unknown>, s: Who = owner) =>
      call(s, 'POST', '/pharmacy/recalls', { product_id: med.id, lot_number: 'MF-1', reason: 'supplier notice', ...body });

    const never = await recall({ lot_number: 'MF-9' });
    expect([never.status, never.body.errors[0]]).toEqual([
      422,
      { code: 'BUSINESS_RULE', field: 'lot_number', message: 'no store of yours holds or has held lot MF-9 of Metformin 500mg' },
    ]);
    const unallocated = await recall({ lot_number: 'UNALLOCATED' });
    expect(unallocated.status).toBe(422);
    const noReason = await recall({ reason: '  ' });
    expect([noReason.status, noReason.body.errors[0].field]).toEqual([400, 'reason']);
    const stranger = await registerOwner(t, {
      shop: { name: 'Duka la Dawa', business_type: 'pharmacy', region: 'arusha', district: 'Arusha' },
    });
    const foreign = await recall({}, stranger);
    expect([foreign.status, foreign.body.message]).toEqual([404, 'product not found']);
    const staff = await createStaff(t, owner);
    const forbidden = await recall({}, staff);
    expect([forbidden.status, forbidden.body.message]).toEqual([403, 'you are not allowed to manage pharmacy stock or registers']);
    expect((await batchRows(t, owner.storeId, med.id)).map((b) => b.status)).toEqual(['sellable']);

    const made = await recall({});
    expect(made.status, made.text).toBe(201);
    const id = made.body.data.id as string;
    const other = await call(stranger, 'GET', `/pharmacy/recalls/${id}`);
    expect([other.status, other.body.message]).toEqual([404, 'recall not found']);
    expect((await call(stranger, 'GET', '/pharmacy/recalls')).body.data).toEqual([]);
    // Recalling it again moves nothing (already recalled) but is recorded: the call-back list still matters.
    const twice = Envelope(RecallDetail).parse((await recall({ reason: 'second notice' })).body).data;
    expect([twice.batch_count, twice.units, twice.stores]).toEqual([0, 0, []]);
    // No store receives the lot again, not even one that never held it.
    const branch = await addStore(t, owner.orgId, 'Mbezi Branch');
    const atBranch = {
      token: (await call(owner, 'POST', '/accounts/switch-store', { store_id: branch.id })).body.data.tokens.access_token as string,
    };
    const supplier = (await call(atBranch, 'POST', '/suppliers', { name: 'Medisel' })).body.data.id as string;
    const again = await call(atBranch, 'POST', `/suppliers/${supplier}/deliveries`, {
      status: 'delivered',
      lines: [{ product_id: med.id, qty: 3, unit_cost: 300, lot_number: 'mf-1', expiry_date: '2027-06-30' }],
    });
    expect([again.status, again.body.message, again.body.errors[0]]).toEqual([
      409,
      'lot MF-1 of Metformin 500mg has been recalled: it cannot be received',
      { code: 'INVALID_STATE', field: 'lines.0.lot_number', message: 'this lot has been recalled' },
    ]);
    expect(await batchRows(t, branch.id, med.id)).toEqual([]);
    await expectBatchesMatchStock(t, owner);
  });

  it('checks the caller inside the verbs: a cashier is refused, a session without a store cannot release or dispose, nothing is written', async () => {
    const owner = await pharmacyOwner(t);
    const med = await newMedicine(t, owner, { name: 'Flagyl 400mg', generic_name: 'Metronidazole' });
    await receiveLots(t, owner, [{ product_id: med.id, lot_number: 'F-1', expiry_date: '2027-06-30', qty: 5 }]);
    await refund(owner, (await sell(owner, med.id, 2)).id);
    const [row] = await quarantine(owner);
    const ctxOf = (token: string) => authenticate({ ...t.deps, actor: null, requestId: 'pharmacy-verbs' }, token);
    const cashier: AuthedContext = await ctxOf((await createStaff(t, owner)).token);
    const ownerCtx = await ctxOf(owner.token);
    const noStore: AuthedContext = { ...ownerCtx, actor: { ...ownerCtx.actor, storeId: null } };
    const disposal = { reason: 'x', method: 'y', witness: 'z' };
    for (const [verb, call] of [
      ['releaseQuarantine', () => releaseQuarantine(cashier, row!.id, { note: 'fine' })],
      ['disposeBatch', () => disposeBatch(cashier, row!.id, disposal)],
      ['createRecall', () => createRecall(cashier, { product_id: med.id, lot_number: 'F-1', reason: 'notice' })],
    ] as const) {
      await expect(call(), verb).rejects.toMatchObject({
        code: 'FORBIDDEN',
        status: 403,
        message: 'you are not allowed to manage pharmacy stock or registers',
      });
    }
    for (const [verb, call] of [
      ['releaseQuarantine', () => releaseQuarantine(noStore, row!.id, { note: 'fine' })],
      ['disposeBatch', () => disposeBatch(noStore, row!.id, disposal)],
    ] as const) {
      await expect(call(), verb).rejects.toMatchObject({
        code: 'INVALID_STATE',
        status: 409,
        message: 'your session has no active store; switch to a store first',
      });
    }
    expect(await lots(owner.storeId, med.id)).toEqual([
      ['F-1', 'sellable', 3, false],
      ['F-1', 'quarantined', 2, true],
    ]);
    expect(await t.db.db.selectFrom('recalls').select('id').where('org_id', '=', owner.orgId).execute()).toEqual([]);
    await expectBatchesMatchStock(t, owner);
  });

  it('a recall and a delivery of the same lot to another store at the same moment never leave that lot sellable', async () => {
    const owner = await pharmacyOwner(t);
    const med = await newMedicine(t, owner, { name: 'Augmentin 625', generic_name: 'Amoxicillin/Clavulanate' });
    const branch = await addStore(t, owner.orgId, 'Sinza Branch');
    const atBranch = {
      token: (await call(owner, 'POST', '/accounts/switch-store', { store_id: branch.id })).body.data.tokens.access_token as string,
    };
    const supplier = (await call(atBranch, 'POST', '/suppliers', { name: 'Medisel' })).body.data.id as string;
    for (const round of [1, 2, 3, 4]) {
      const lot = `RACE-${round}`;
      await receiveLots(t, owner, [{ product_id: med.id, lot_number: lot, expiry_date: '2027-08-31', qty: 6 }]);
      const [recalled, delivered] = await Promise.all([
        call(owner, 'POST', '/pharmacy/recalls', { product_id: med.id, lot_number: lot, reason: 'TMDA notice' }),
        call(atBranch, 'POST', `/suppliers/${supplier}/deliveries`, {
          status: 'delivered',
          lines: [{ product_id: med.id, qty: 4, unit_cost: 900, lot_number: lot, expiry_date: '2027-08-31' }],
        }),
      ]);
      expect(recalled.status, recalled.text).toBe(201);
      // Either the delivery came first and the recall took it too, or it came second and was refused.
      expect([200, 409]).toContain(delivered.status);
      const sellable = (await batchRows(t, branch.id, med.id)).filter((b) => b.lot_number === lot && b.status === 'sellable');
      expect(sellable).toEqual([]);
      expect((await productOf(t, atBranch, med.id)).stock).toBe(0);
    }
    await expectBatchesMatchStock(t, owner);
  });
});
