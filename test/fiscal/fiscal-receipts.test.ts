/**
 * TRA fiscal receipts end to end: the real driver against a local fake TRA that verifies every
 * signature and counter (test/fakes/tra-fake.ts). Sales online and from an offline till's push are
 * fiscalised in counter order, exactly once; a lost reply is resent byte for byte; a stale token is
 * renewed; nothing about a sale waits for TRA.
 */
import { newId, type Transaction } from '@duka/shared';
import { CompiledQuery } from 'kysely';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { registerOwner, type Session } from '../setup/factories.js';
import { DAY_START, fiscalise, fiscalSuite, settingsBody } from '../setup/fiscal.js';
import type { TestApp } from '../setup/test-app.js';
import { DIALECT } from '../setup/test-db.js';
import { ISSUED } from '../../server/src/modules/fiscal/fiscal.queries.js';
import { releaseDeadClaims, runFiscalJobs } from '../../server/src/modules/fiscal/services/jobs.js';
import { FiscalQueue } from '../../server/src/modules/fiscal/services/queue.js';
import { traVfd } from '../../server/src/modules/fiscal/tra/tra-vfd.js';

const VERIFY = 'https://virtual.tra.go.tz/efdmsRctVerify/';

describe('fiscal receipts', () => {
  const suite = fiscalSuite(6);
  const { w, product, sell } = suite;
  let t: TestApp;
  beforeAll(() => void (t = suite.t));
  const transaction = async (s: Session, id: string) =>
    (await t.request('GET', `/pos/transactions/${id}`, { token: s.token })).body.data as Transaction;
  const cents = (tzs: number) => Math.round(tzs * 100);
  /** A claim left by a server that died: stamped now by the clock claims are judged by (the database's, on Postgres). */
  const deadClaim = (storeId: string) =>
    t.db.db.updateTable('fiscal_devices').set({ claimed_at: t.deps.leases.now() }).where('store_id', '=', storeId).execute();
  /** Time passes for the process, and for the claim (on Postgres its age is the database's to tell). */
  const age = async (storeId: string, ms: number) => {
    t.clock.advance(ms);
    if (t.dialect === 'postgres')
      await t.db.db
        .updateTable('fiscal_devices')
        .set((eb) => ({ claimed_at: eb('claimed_at', '-', ms) }))
        .where('store_id', '=', storeId)
        .execute();
  };

  it('lets only the owner set a store up, checks the certificate, never returns it, and refuses enabling before registration', async () => {
    const owner = await registerOwner(t);
    expect((await t.request('GET', `/stores/${owner.storeId}/fiscal`, { token: owner.token })).status).toBe(404);
    const wrong = await t.request('PUT', `/stores/${owner.storeId}/fiscal`, {
      token: owner.token,
      body: settingsBody(w, 0, { certificate_password: 'not-it' }),
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.errors[0]).toMatchObject({ field: 'certificate', message: 'the password does not open it' });
    const notPfx = await t.request('PUT', `/stores/${owner.storeId}/fiscal`, {
      token: owner.token,
      body: settingsBody(w, 0, { certificate: 'bm90IGEgY2VydGlmaWNhdGU=' }),
    });
    expect(notPfx.status).toBe(400);
    // Another organisation's owner (404) and a manager (403): test/api/access-rules.test.ts.

    const early = await t.request('PUT', `/stores/${owner.storeId}/fiscal`, {
      token: owner.token,
      body: settingsBody(w, 0, { enabled: true }),
    });
    expect(early.status).toBe(422);
    expect(early.body.errors[0].field).toBe('enabled');
    const saved = await t.request('PUT', `/stores/${owner.storeId}/fiscal`, { token: owner.token, body: settingsBody(w, 0) });
    expect(saved.status, saved.text).toBe(200);
    expect(saved.body.data).toMatchObject({ enabled: false, tin: w.tin(0), has_certificate: true, registration: null, last_gc: 0 });
    expect(saved.text).not.toContain(w.certs[0]!.pfxBase64.slice(0, 40));
    expect(saved.text).not.toContain(w.certs[0]!.password);
    // Nothing secret in the row either: the certificate and its password are sealed.
    const row = await t.db.db.selectFrom('fiscal_devices').selectAll().where('store_id', '=', owner.storeId).executeTakeFirstOrThrow();
    expect(row.certificate_enc).not.toContain(w.certs[0]!.pfxBase64.slice(0, 40));
    expect(row.certificate_password_enc).not.toContain(w.certs[0]!.password);

    // An answer not signed with TRA's key (TRA_ANSWER_CERT) is no answer: nothing is kept, try again.
    w.tra.forgeAnswers = 1;
    const forged = await t.request('POST', `/stores/${owner.storeId}/fiscal/register`, { token: owner.token });
    expect(forged.status).toBe(503);
    expect(forged.body.message).toBe("TRA's answer does not carry TRA's signature (TRA_ANSWER_CERT); try again later");
    expect((await t.request('GET', `/stores/${owner.storeId}/fiscal`, { token: owner.token })).body.data.registration).toBeNull();
    const registered = await t.request('POST', `/stores/${owner.storeId}/fiscal/register`, { token: owner.token });
    expect(registered.status, registered.text).toBe(200);
    const device = w.tra.device(w.certs[0]!.serial);
    expect(registered.body.data.registration).toMatchObject({
      regid: device.taxpayer.regId,
      efd_serial: device.taxpayer.efdSerial,
      receipt_code: device.taxpayer.receiptCode,
      uin: device.uin,
    });
    expect(registered.text).not.toContain(device.password);
    expect((await t.request('POST', `/stores/${owner.storeId}/fiscal/register`, { token: owner.token })).status).toBe(422);
    const moved = await t.request('PUT', `/stores/${owner.storeId}/fiscal`, {
      token: owner.token,
      body: settingsBody(w, 0, { tin: '999999999' }),
    });
    expect(moved.status).toBe(422);

    // A sale before switching on is not fiscalised.
    const bread = await product(owner, { name: 'Mkate', selling_price: 1500 });
    expect((await sell(owner, { lines: [{ product_id: bread.id, qty: 1 }], payment_method: 'Cash' })).fiscal).toBeNull();

    // The Store says whether it fiscalises, and its tills learn a switch through sync.
    const storeOf = async () => (await t.request('GET', `/stores/${owner.storeId}`, { token: owner.token })).body.data;
    expect(await storeOf()).toMatchObject({ fiscal: false });
    const pulled = async (cursor?: string) =>
      (await t.request('GET', `/sync/pull${cursor ? `?cursor=${encodeURIComponent(cursor)}` : ''}`, { token: owner.token })).body.data as {
        changes: Array<{ entity: string; data: { fiscal?: boolean } }>;
        cursor: string;
      };
    const { cursor } = await pulled();
    const { certificate: _c, certificate_password: _p, ...rest } = settingsBody(w, 0);
    for (const enabled of [true, false]) {
      expect((await t.request('PUT', `/stores/${owner.storeId}/fiscal`, { token: owner.token, body: { ...rest, enabled } })).status).toBe(
        200,
      );
      expect(await storeOf()).toMatchObject({ fiscal: enabled });
      expect((await pulled(cursor)).changes.filter((c) => c.entity === 'store').map((c) => c.data.fiscal)).toEqual([enabled]);
    }
  });

  it('fiscalises online sales in order with exact totals, tax codes, payment types and the buyer’s TIN', async () => {
    const owner = await registerOwner(t);
    expect((await t.request('PATCH', `/stores/${owner.storeId}`, { token: owner.token, body: { vat_enabled: true } })).status).toBe(200);
    await fiscalise(t, w, owner, 1);
    const code = w.tra.device(w.certs[1]!.serial).taxpayer.receiptCode;
    const sugar = await product(owner, { name: 'Sukari 1kg', selling_price: 3500 });
    const flour = await product(owner, { name: 'Unga wa mahindi', selling_price: 6500, tax_rate: 0, tax_code: 'E' });
    const looseSugar = await product(owner, { name: 'Sukari (kg)', unit: 'kg', selling_price: 3250 });
    expect(
      (
        await t.request('POST', '/inventory/products', {
          token: owner.token,
          body: { name: 'Wrong', selling_price: 10, tax_rate: 0, tax_code: 'A' },
        })
      ).status,
    ).toBe(400);
    const customer = (await t.request('POST', '/customers', { token: owner.token, body: { name: 'Bi. Zuhura', phone: '0713000111' } })).body
      .data;

    const sales = [
      await sell(owner, {
        lines: [
          { product_id: sugar.id, qty: 2 },
          { product_id: flour.id, qty: 1 },
        ],
        payment_method: 'Cash',
        discount_pct: 5,
      }),
      await sell(owner, {
        lines: [{ product_id: sugar.id, qty: 1 }],
        payment_method: 'M-Pesa',
        customer_tin: '123456789',
        customer_name: 'Kampuni Ltd',
      }),
      await sell(owner, { lines: [{ product_id: flour.id, qty: 2 }], payment_method: 'Credit', customer_id: customer.id }),
      await sell(owner, { lines: [{ product_id: sugar.id, qty: 3 }], payment_method: 'Bank' }),
      await sell(owner, { lines: [{ product_id: flour.id, qty: 1 }], payment_method: 'Airtel Money' }),
      // Issue 51: paid 2,000 cash + 5,000 M-Pesa, one PMTTYPE/PMTAMOUNT pair per part.
      await sell(owner, {
        lines: [{ product_id: sugar.id, qty: 2 }],
        payments: [
          { method: 'Cash', amount: 2000 },
          { method: 'M-Pesa', amount: 5000, reference: 'TRA-SPLIT' },
        ],
      }),
      // Issue 51: 1.25 kg of loose sugar at 3,250/kg, priced once: 4,062.50 rounds half up to 4,063.
      await sell(owner, { lines: [{ product_id: looseSugar.id, qty: 1.25 }], payment_method: 'Cash' }),
    ];
    // The code and link are on the sale's own answer, before TRA has answered; its QR code is not
    // (issue 39: drawing it halved a fiscal store's sales a second): it is drawn when the sale is read.
    sales.forEach((s, i) => {
      expect(s.fiscal).toMatchObject({ gc: i + 1, dc: i + 1, rctvnum: `${code}${i + 1}`, verify_url: `${VERIFY}${code}${i + 1}_100000` });
      expect(s.fiscal!.qr).toBeNull();
    });
    expect(sales[1]!.customer_tin).toBe('123456789');
    const qr = /^data:image\/svg\+xml;base64,/;
    const firstRead = (await transaction(owner, sales[0]!.id)).fiscal!;
    // Read at once (whether TRA has answered yet or not): the same receipt, its QR code drawn.
    const { qr: _none, status: _s, acknowledged_at: _a, ...numbered } = sales[0]!.fiscal!;
    expect(firstRead).toMatchObject(numbered);
    expect(firstRead.qr).toMatch(qr);
    expect(Buffer.from(firstRead.qr!.split(',')[1]!, 'base64').toString()).toMatch(/^<svg /);

    await t.deps.fiscal.idle();
    for (const s of sales)
      expect((await transaction(owner, s.id)).fiscal).toMatchObject({
        status: 'issued',
        acknowledged_at: new Date(DAY_START).toISOString(),
        qr: expect.stringMatching(qr),
      });
    // Drawn again from the same link, the same code: a read answers what the last one did.
    expect((await transaction(owner, sales[0]!.id)).fiscal!.qr).toBe(firstRead.qr);
    const got = w.tra.device(w.certs[1]!.serial).receipts;
    expect(got.map((r) => [r.gc, r.dc, r.znum, r.date, r.time])).toEqual(
      sales.map((_, i) => [i + 1, i + 1, '20261120', '2026-11-20', '10:00:00']),
    );
    expect(got.map((r) => r.totalInclCents)).toEqual(sales.map((s) => cents(s.total)));
    expect(got.map((r) => Object.keys(r.payments))).toEqual([
      ['CASH'],
      ['EMONEY'],
      ['INVOICE'],
      ['CCARD'],
      ['EMONEY'],
      ['CASH', 'EMONEY'],
      ['CASH'],
    ]);
    expect(got[5]!.payments).toEqual({ CASH: 200_000, EMONEY: 500_000 });
    // The weighed line's QTY is its weight in kg and its amount the line as priced; the fake TRA
    // accepted it (no violations), its VAT 18/118 of 4,063.
    expect(got[6]!.items.map((i) => [i.desc, i.qty, i.taxCode, i.amtCents])).toEqual([['Sukari (kg)', '1.25', 1, 406_300]]);
    expect(got[6]).toMatchObject({ totalInclCents: 406_300, vat: { A: { net: 344_322, tax: 61_978 } } });
    // 7,000 + 6,500 less 5 %: 12,825; the sugar's VAT is 18/118 of its 6,650 share.
    expect(got[0]).toMatchObject({
      totalInclCents: 1_282_500,
      discountCents: 67_500,
      vat: { A: { net: 563_559, tax: 101_441 }, E: { net: 617_500, tax: 0 } },
    });
    expect(got[0]!.items.map((i) => [i.desc, i.taxCode, i.amtCents])).toEqual([
      ['Sukari 1kg', 1, 700_000],
      ['Unga wa mahindi', 5, 650_000],
    ]);
    expect(got[1]).toMatchObject({ custIdType: 1, custId: '123456789', custName: 'Kampuni Ltd' });
    expect(got[2]).toMatchObject({ custIdType: 6, custId: '', custName: 'Bi. Zuhura', mobile: '255713000111' });

    const settings = (await t.request('GET', `/stores/${owner.storeId}/fiscal`, { token: owner.token })).body.data;
    expect(settings).toMatchObject({ last_gc: 7, queue: { pending: 0, failed: 0, oldest_pending_at: null } });
  });

  it('numbers 200 sales of an offline till in its order when its push commits, after the online ones, gapless', async () => {
    const owner = await registerOwner(t);
    await fiscalise(t, w, owner, 2);
    const tea = await product(owner, { name: 'Majani ya chai', selling_price: 1200 });
    await sell(owner, { lines: [{ product_id: tea.id, qty: 1 }], payment_method: 'Cash' });
    await sell(owner, { lines: [{ product_id: tea.id, qty: 2 }], payment_method: 'Cash' });

    const device = await t.request('POST', '/sync/devices', { token: owner.token, body: { device_id: newId(), name: 'Till 1' } });
    expect(device.status, device.text).toBe(200);
    const ids = Array.from({ length: 200 }, () => newId());
    const mutation = (i: number) => ({
      id: newId(),
      seq: i + 1,
      type: 'sale.create',
      created_at: new Date(DAY_START - 3_600_000 + i * 1000).toISOString(),
      payload: {
        id: ids[i],
        client_receipt_number: `T1-${i + 1}`,
        lines: [{ product_id: tea.id, qty: 1 + (i % 3), unit_price: 1200 }],
        payment_method: i % 2 ? 'M-Pesa' : 'Cash',
      },
    });
    for (let from = 0; from < 200; from += 50) {
      const pushed = await t.request('POST', '/sync/push', {
        token: owner.token,
        body: { device_id: device.body.data.device_id, mutations: Array.from({ length: 50 }, (_, k) => mutation(from + k)) },
      });
      expect(pushed.status, pushed.text).toBe(200);
    }
    await t.deps.fiscal.idle();

    const got = w.tra.device(w.certs[2]!.serial).receipts;
    expect(got.map((r) => r.gc)).toEqual(Array.from({ length: 202 }, (_, i) => i + 1));
    expect(got.map((r) => r.dc)).toEqual(Array.from({ length: 202 }, (_, i) => i + 1));
    const rows = await t.db.db
      .selectFrom('fiscal_receipts')
      .select(['transaction_id', 'gc', 'status'])
      .where('store_id', '=', owner.storeId)
      .orderBy('gc')
      .execute();
    expect(rows.slice(2).map((r) => r.transaction_id)).toEqual(ids);
    expect(rows.every((r) => r.status === 'issued')).toBe(true);
    // Each receipt says what its sale says: 1,200 × (1, 2 or 3) units.
    expect(got.slice(2).map((r) => r.totalInclCents)).toEqual(ids.map((_, i) => 120_000 * (1 + (i % 3))));
    expect(w.tra.device(w.certs[2]!.serial)).toMatchObject({ attempts: 202, resends: 0 });
  });

  it('resends the original bytes after a lost reply, renews a revoked token, and retries a timeout and a refusal without touching the sale', async () => {
    const owner = await registerOwner(t);
    await fiscalise(t, w, owner, 3);
    const dev = w.tra.device(w.certs[3]!.serial);
    const soap = await product(owner, { name: 'Sabuni', selling_price: 2000 });

    // The first receipt fetches the token; the second one's reply is lost.
    await sell(owner, { lines: [{ product_id: soap.id, qty: 1 }], payment_method: 'Cash' });
    await t.deps.fiscal.idle();
    w.tra.next('lose');
    const first = await sell(owner, { lines: [{ product_id: soap.id, qty: 1 }], payment_method: 'Cash' });
    await t.deps.fiscal.idle();
    expect((await transaction(owner, first.id)).fiscal!.status).toBe('pending');
    // TRA kept it; we never heard.
    expect(dev.receipts.map((r) => r.gc)).toEqual([1, 2]);
    const queue = (await t.request('GET', `/stores/${owner.storeId}/fiscal`, { token: owner.token })).body.data.queue;
    expect(queue).toMatchObject({ pending: 1, failed: 0, last_error: 'TRA could not be reached' });

    t.clock.advance(31_000);
    await runFiscalJobs(t.deps);
    expect((await transaction(owner, first.id)).fiscal!.status).toBe('issued');
    const posts = w.tra.requests
      .filter((r) => r.url.endsWith('/api/efdmsRctInfo') && r.body.includes(`<RCTVNUM>${dev.taxpayer.receiptCode}2<`))
      .map((r) => r.body);
    expect(posts).toHaveLength(2);
    expect(posts[1]).toBe(posts[0]);
    expect(dev).toMatchObject({ resends: 1, attempts: 3 });

    const tokens = w.tra.tokensIssued.length;
    w.tra.revokeTokens();
    const second = await sell(owner, { lines: [{ product_id: soap.id, qty: 2 }], payment_method: 'Cash' });
    await t.deps.fiscal.idle();
    expect((await transaction(owner, second.id)).fiscal!.status).toBe('issued');
    expect(w.tra.tokensIssued.length).toBe(tokens + 1);

    // TRA takes longer than TRA_TIMEOUT_MS: no answer, tried again later.
    w.tra.next('hang');
    const slow = await sell(owner, { lines: [{ product_id: soap.id, qty: 1 }], payment_method: 'Cash' });
    await t.deps.fiscal.idle();
    expect((await t.request('GET', `/stores/${owner.storeId}/fiscal`, { token: owner.token })).body.data.queue).toMatchObject({
      pending: 1,
      last_error: 'TRA did not answer within 2000 ms',
    });
    t.clock.advance(31_000);
    await runFiscalJobs(t.deps);
    expect((await transaction(owner, slow.id)).fiscal!.status).toBe('issued');

    w.tra.next({ reject: 'Invalid receipt' });
    const third = await sell(owner, { lines: [{ product_id: soap.id, qty: 3 }], payment_method: 'Cash' });
    await t.deps.fiscal.idle();
    expect((await transaction(owner, third.id)).fiscal!.status).toBe('failed');
    expect((await t.request('GET', `/stores/${owner.storeId}/fiscal`, { token: owner.token })).body.data.queue).toMatchObject({
      pending: 1,
      failed: 1,
    });
    expect((await transaction(owner, third.id)).status).toBe('paid');
    t.clock.advance(31_000);
    await runFiscalJobs(t.deps);
    expect((await transaction(owner, third.id)).fiscal!.status).toBe('issued');
    expect(dev.receipts.map((r) => r.gc)).toEqual([1, 2, 3, 4, 5]);

    // An acknowledgement not signed with TRA's key (forged on the way) counts as no answer: the
    // receipt stays pending, is resent byte for byte, and TRA's own acknowledgement issues it.
    w.tra.forgeAnswers = 1;
    const spoofed = await sell(owner, { lines: [{ product_id: soap.id, qty: 1 }], payment_method: 'Cash' });
    await t.deps.fiscal.idle();
    expect((await transaction(owner, spoofed.id)).fiscal!.status).toBe('pending');
    expect((await t.request('GET', `/stores/${owner.storeId}/fiscal`, { token: owner.token })).body.data.queue).toMatchObject({
      pending: 1,
      last_error: "TRA's answer does not carry TRA's signature (TRA_ANSWER_CERT)",
    });
    t.clock.advance(31_000);
    await runFiscalJobs(t.deps);
    expect((await transaction(owner, spoofed.id)).fiscal!.status).toBe('issued');
    expect(dev.receipts.map((r) => r.gc)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(dev.resends).toBe(2);
  });

  it('numbers 30 concurrent sales and 2 pushes gaplessly; two workers (two server instances) send each receipt once, in order, even after the store switched off', async () => {
    const owner = await registerOwner(t);
    await fiscalise(t, w, owner, 4);
    const dev = w.tra.device(w.certs[4]!.serial);
    const water = await product(owner, { name: 'Maji 1.5l', selling_price: 1000 });
    const till = (await t.request('POST', '/sync/devices', { token: owner.token, body: { device_id: newId(), name: 'Till 1' } })).body.data;
    const push = (from: number) =>
      t.request('POST', '/sync/push', {
        token: owner.token,
        body: {
          device_id: till.device_id,
          mutations: Array.from({ length: 10 }, (_, k) => ({
            id: newId(),
            seq: from + k + 1,
            type: 'sale.create',
            created_at: new Date(DAY_START - 3_600_000 + (from + k) * 1000).toISOString(),
            payload: {
              id: newId(),
              client_receipt_number: `T1-${from + k + 1}`,
              lines: [{ product_id: water.id, qty: 1, unit_price: 1000 }],
              payment_method: 'Cash',
            },
          })),
        },
      });
    w.tra.down = 'refuse';
    // Online sales, written together as they queue, racing a till's two pushes for the counters.
    const [sales, pushed] = await Promise.all([
      Promise.all(
        Array.from({ length: 30 }, (_, i) => sell(owner, { lines: [{ product_id: water.id, qty: 1 + (i % 4) }], payment_method: 'Cash' })),
      ),
      (async () => [await push(0), await push(10)])(),
    ]);
    for (const p of pushed) expect(p.status, p.text).toBe(200);
    for (const p of pushed) expect(p.body.data.results.map((r: { status: string }) => r.status)).toEqual(Array(10).fill('applied'));
    await t.deps.fiscal.idle();
    const all = Array.from({ length: 50 }, (_, i) => i + 1);
    expect(sales.map((s) => s.fiscal!.gc).every((gc) => gc >= 1 && gc <= 50)).toBe(true);
    // Every sale numbered once, the counters gapless, and the store's own receipt numbers in the same order.
    const numbered = await t.db.db
      .selectFrom('fiscal_receipts as f')
      .innerJoin('transactions as x', 'x.id', 'f.transaction_id')
      .select(['f.gc', 'f.dc', 'x.number'])
      .where('f.store_id', '=', owner.storeId)
      .orderBy('x.number')
      .execute();
    expect(numbered.map((r) => Number(r.gc))).toEqual(all);
    expect(numbered.map((r) => r.dc)).toEqual(all);
    expect((await t.request('GET', `/stores/${owner.storeId}/fiscal`, { token: owner.token })).body.data).toMatchObject({ last_gc: 50 });

    // Switched off meanwhile: new sales are not numbered, those numbered are still sent.
    const { certificate: _c, certificate_password: _p, ...identity } = settingsBody(w, 4);
    expect(
      (await t.request('PUT', `/stores/${owner.storeId}/fiscal`, { token: owner.token, body: { ...identity, enabled: false } })).status,
    ).toBe(200);
    expect((await sell(owner, { lines: [{ product_id: water.id, qty: 1 }], payment_method: 'Cash' })).fiscal).toBeNull();

    w.tra.down = false;
    t.clock.advance(6 * 60_000);
    const other = new FiscalQueue(t.deps, traVfd(2_000));
    await Promise.all([
      t.deps.fiscal.kick(owner.orgId, owner.storeId),
      other.kick(owner.orgId, owner.storeId),
      other.kick(owner.orgId, owner.storeId),
      t.deps.fiscal.kick(owner.orgId, owner.storeId),
    ]);
    await Promise.all([t.deps.fiscal.idle(), other.idle()]);
    await runFiscalJobs(t.deps);
    expect(dev.receipts.map((r) => r.gc)).toEqual(all);
    expect(dev).toMatchObject({ attempts: 50, resends: 0 });
  });

  it('takes over within a minute the claim of a server that died mid-send, while a worker waiting on a slow TRA keeps its own', async () => {
    const owner = await registerOwner(t);
    await fiscalise(t, w, owner, 5);
    const dev = w.tra.device(w.certs[5]!.serial);
    const tea = await product(owner, { name: 'Chai', selling_price: 500 });
    const posts = () =>
      w.tra.requests.filter(
        (r) => r.url.endsWith('/api/efdmsRctInfo') && r.headers['cert-serial'] === Buffer.from(w.certs[5]!.serial).toString('base64'),
      ).length;

    // A server died while sending: its claim is left on the device row.
    await deadClaim(owner.storeId);
    const first = await sell(owner, { lines: [{ product_id: tea.id, qty: 2 }], payment_method: 'Cash' });
    await t.deps.fiscal.idle();
    await age(owner.storeId, 30_000);
    await runFiscalJobs(t.deps);
    expect(posts()).toBe(0);
    await age(owner.storeId, 31_000);
    await runFiscalJobs(t.deps);
    expect((await transaction(owner, first.id)).fiscal!.status).toBe('issued');

    // TRA takes its time over the next receipt; the worker sending it renews its claim meanwhile.
    w.tra.down = 'refuse';
    const second = await sell(owner, { lines: [{ product_id: tea.id, qty: 1 }], payment_method: 'Cash' });
    await t.deps.fiscal.idle();
    w.tra.down = false;
    t.clock.advance(31_000);
    const slow = new FiscalQueue(t.deps, traVfd(1_500), 50);
    const other = new FiscalQueue(t.deps, traVfd(1_500), 50);
    w.tra.next('hang');
    const sending = slow.kick(owner.orgId, owner.storeId);
    await vi.waitFor(() => expect(posts()).toBe(2), { timeout: 5_000 });
    t.clock.advance(61_000);
    await new Promise((r) => setTimeout(r, 300));
    await other.kick(owner.orgId, owner.storeId);
    expect(posts()).toBe(2);
    await sending;
    // Its second try timed out: the next one waits a minute.
    t.clock.advance(61_000);
    await runFiscalJobs(t.deps);
    expect((await transaction(owner, second.id)).fiscal!.status).toBe('issued');
    expect(dev.receipts.map((r) => r.gc)).toEqual([1, 2]);

    // A server on embedded SQLite is its database's only one: restarted, it frees a dead claim at once.
    await deadClaim(owner.storeId);
    const third = await sell(owner, { lines: [{ product_id: tea.id, qty: 3 }], payment_method: 'Cash' });
    await t.deps.fiscal.idle();
    expect((await transaction(owner, third.id)).fiscal!.status).toBe('pending');
    await releaseDeadClaims(t.deps);
    await t.deps.fiscal.kick(owner.orgId, owner.storeId);
    expect((await transaction(owner, third.id)).fiscal!.status).toBe('issued');
    expect(dev.receipts.map((r) => r.gc)).toEqual([1, 2, 3]);
  });

  // PostgreSQL plans these by the table's size (tiny here) and, partitioned, names each part's index.
  it.skipIf(DIALECT !== 'sqlite')(
    "reads the queue's waiting and unbuilt receipts from their partial indexes, never the store's history (SQLite's plan)",
    async () => {
      const head = t.db.db.selectFrom('fiscal_receipts').select('id').where('org_id', '=', 'o').where('store_id', '=', 's');
      const plans = await Promise.all(
        [head.where('status', '!=', ISSUED), head.where('body', 'is', null)].map(async (q) => {
          const c = q.orderBy('gc').limit(100).compile();
          const plan = await t.db.db.executeQuery<{ detail: string }>(CompiledQuery.raw(`explain query plan ${c.sql}`, [...c.parameters]));
          return plan.rows.map((r) => r.detail).join('; ');
        }),
      );
      expect(plans[0]).toMatch(/USING INDEX ix__fiscal_receipts__waiting/);
      expect(plans[1]).toMatch(/USING INDEX ix__fiscal_receipts__unbuilt/);
    },
  );
});
