/**
 * The till's sale pinned to the byte (issue 50): what `sell` writes in its one local transaction
 * (the queued `sale.create` payload, its undo, the local receipt) and what it moves, for a credit
 * sale with a discount, a prescription and a lot, and a cash sale with its tender, both in a shift.
 * The sale's code is cut into stages; a stage that changed a payload or a receipt fails here. (Issue
 * 51 added the receipt's `payments`, one part for a sale paid one way; the payloads are unchanged.)
 */
import Database from 'better-sqlite3';
import { SqliteDialect } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newMedicine, pharmacyOwner, receiveLots } from '../../test/setup/pharmacy-factories.js';
import { type Harness, openTill, startServer } from './harness.js';

describe('the till: a sale queued exactly as before', () => {
  let h: Harness;
  beforeAll(async () => (h = await startServer()));
  afterAll(() => h.close());

  it('writes the same payload, undo and receipt for a discounted credit sale with a lot and a cash sale with its tender', async () => {
    const owner = await pharmacyOwner(h.t);
    const post = async (path: string, body: Record<string, unknown>, method: 'POST' | 'PATCH' = 'POST') => {
      const res = await h.t.request(method, path, { token: owner.token, body });
      expect(res.status, res.text).toBeLessThan(300);
      return res.body.data as Record<string, any>;
    };
    const store = await post(`/stores/${owner.storeId}`, { outlet_type: 'pharmacy' }, 'PATCH');
    const amoxil = await newMedicine(h.t, owner, { name: 'Amoxil 250mg', schedule: 'pom', selling_price: 3500 });
    await receiveLots(h.t, owner, [
      { product_id: amoxil.id, lot_number: 'L-LATE', expiry_date: '2028-06-30', qty: 10 },
      { product_id: amoxil.id, lot_number: 'L-SOON', expiry_date: '2027-01-31', qty: 2 },
    ]);
    const soap = await post('/inventory/products', { name: 'Soap bar', selling_price: 800, stock: 50, track_batches: false });
    const customer = await post('/customers', { name: 'Neema Mushi', phone: '0754000111', credit_limit: 100000 });

    const sqlite = new Database(':memory:');
    const till = await openTill(h, { dbPath: undefined, storage: new SqliteDialect({ database: sqlite }) });
    await till.login(owner.phone, owner.password);
    await till.syncNow();
    const shift = await till.openShift({ opening_float: 10000 });
    const lots: Record<string, string> = Object.fromEntries(
      (await till.batches({ product_id: amoxil.id })).map((b) => [b.lot_number, b.id]),
    );
    const tillCode = JSON.parse((sqlite.prepare("select value from meta where key = 'till_code'").get() as { value: string }).value);
    h.net.offline = true;
    // The till learns the server is gone, so its sales are rung up offline.
    await expect(till.syncNow()).rejects.toMatchObject({ code: 'NETWORK' });
    const at = new Date(h.t.clock.now()).toISOString();
    const rx = {
      patient_name: 'Neema Mushi',
      patient_age: 34,
      patient_sex: 'female' as const,
      prescriber_name: 'Dr. Baraka Lyimo',
      prescriber_registration_number: 'MCT-4411',
      facility: 'Mwananyamala Hospital',
      date_written: at.slice(0, 10),
    };

    const credit = await till.sell({
      lines: [
        { product_id: soap.id, qty: 1 },
        { product_id: amoxil.id, qty: 3 },
        { product_id: soap.id, qty: 1 },
      ],
      payment_method: 'Credit',
      customer_id: customer.id,
      discount_pct: 10,
      notes: 'pay on Friday',
      prescription: rx,
    });
    const cash = await till.sell({
      lines: [{ product_id: soap.id, qty: 2 }],
      payment_method: 'Cash',
      cash_tendered: 2000,
      customer_name: 'Juma',
    });

    const queue = sqlite.prepare("select seq, payload, undo from queue where type = 'sale.create' order by seq").all() as Array<{
      seq: number;
      payload: string;
      undo: string;
    }>;
    const movements = sqlite.prepare('select id, kind, method, amount from shift_movements order by amount').all() as Array<{
      id: string;
      amount: number;
    }>;
    const data = (id: string) => (sqlite.prepare('select data from transactions where id = ?').get(id) as { data: string }).data;
    const number = (n: number) => `${store.code}-${tillCode}-${n}`;

    // 2 Soap at 800 + 3 Amoxil at 3,500 = 12,100, less 10 % = 10,890; the first-expiring lot first.
    expect(queue.map((q) => q.seq)).toEqual([2, 3]);
    expect(queue[0]!.payload).toBe(
      JSON.stringify({
        id: credit.id,
        client_receipt_number: number(1),
        lines: [
          { product_id: soap.id, qty: 2, unit_price: 800 },
          {
            product_id: amoxil.id,
            qty: 3,
            unit_price: 3500,
            batches: [
              { batch_id: lots['L-SOON']!, qty: 2 },
              { batch_id: lots['L-LATE']!, qty: 1 },
            ],
          },
        ],
        payment_method: 'Credit',
        discount_pct: 10,
        customer_id: customer.id,
        notes: 'pay on Friday',
        cashier_id: owner.userId,
        prescription: rx,
        shift_id: shift.id,
        source: 'offline',
      }),
    );
    const creditMove = movements.find((m) => m.amount === 1089000)!;
    expect(queue[0]!.undo).toBe(
      JSON.stringify({
        stock: { [soap.id]: 2, [amoxil.id]: 3 },
        outstanding: { [customer.id]: -1089000 },
        batches: { [lots['L-SOON']!]: 2, [lots['L-LATE']!]: 1 },
        rejectSale: credit.id,
        movements: [creditMove.id],
      }),
    );
    const after = {
      customer_tin: null,
      till_number: null,
    };
    const tail = {
      refund_reason: null,
      refunded_at: null,
      void_reason: null,
      voided_at: null,
      created_at: at,
    };
    const creditReceipt = {
      id: credit.id,
      number: null,
      receipt_number: null,
      client_receipt_number: number(1),
      status: 'credit',
      payment_method: 'Credit',
      payment_reference: null,
      payment_phone: null,
      payment_verification: null,
      // Issue 51: the till's receipt carries its parts as the server's answer does (one, for a sale paid one way).
      payments: [{ method: 'Credit', amount: 10890, reference: null, phone: null, verification: null }],
      price_mode: 'retail',
      subtotal: 12100,
      discount_pct: 10,
      discount: 1210,
      tax: 0,
      total: 10890,
      customer_id: customer.id,
      customer_name: 'Neema Mushi',
      customer_phone: '+255754000111',
      ...after,
      notes: 'pay on Friday',
      cashier_id: owner.userId,
      store_id: owner.storeId,
      source: 'offline',
      client_created_at: at,
      received_at: null,
      cash_tendered: null,
      change_given: null,
      ...tail,
      lines: [
        { product_id: soap.id, product_name: 'Soap bar', qty: 2, unit_price: 800, line_total: 1600, discount: 160, tax: 0, batches: [] },
        {
          product_id: amoxil.id,
          product_name: 'Amoxil 250mg',
          qty: 3,
          unit_price: 3500,
          line_total: 10500,
          discount: 1050,
          tax: 0,
          batches: [
            { batch_id: lots['L-SOON']!, lot_number: 'L-SOON', expiry_date: '2027-01-31', qty: 2 },
            { batch_id: lots['L-LATE']!, lot_number: 'L-LATE', expiry_date: '2028-06-30', qty: 1 },
          ],
        },
      ],
      fiscal: null,
      sync_state: 'pending',
    };
    expect(credit).toEqual(creditReceipt);
    expect(data(credit.id)).toBe(JSON.stringify(creditReceipt));

    expect(queue[1]!.payload).toBe(
      JSON.stringify({
        id: cash.id,
        client_receipt_number: number(2),
        lines: [{ product_id: soap.id, qty: 2, unit_price: 800 }],
        payment_method: 'Cash',
        customer_name: 'Juma',
        cashier_id: owner.userId,
        shift_id: shift.id,
        cash_tendered: 2000,
        source: 'offline',
      }),
    );
    const cashMove = movements.find((m) => m.amount === 160000)!;
    expect(queue[1]!.undo).toBe(
      JSON.stringify({ stock: { [soap.id]: 2 }, outstanding: {}, batches: {}, rejectSale: cash.id, movements: [cashMove.id] }),
    );
    const cashReceipt = {
      id: cash.id,
      number: null,
      receipt_number: null,
      client_receipt_number: number(2),
      status: 'paid',
      payment_method: 'Cash',
      payment_reference: null,
      payment_phone: null,
      payment_verification: null,
      payments: [{ method: 'Cash', amount: 1600, reference: null, phone: null, verification: null }],
      price_mode: 'retail',
      subtotal: 1600,
      discount_pct: 0,
      discount: 0,
      tax: 0,
      total: 1600,
      customer_id: null,
      customer_name: 'Juma',
      customer_phone: null,
      ...after,
      notes: null,
      cashier_id: owner.userId,
      store_id: owner.storeId,
      source: 'offline',
      client_created_at: at,
      received_at: null,
      cash_tendered: 2000,
      change_given: 400,
      ...tail,
      lines: [
        { product_id: soap.id, product_name: 'Soap bar', qty: 2, unit_price: 800, line_total: 1600, discount: 0, tax: 0, batches: [] },
      ],
      fiscal: null,
      sync_state: 'pending',
    };
    expect(cash).toEqual(cashReceipt);
    expect(data(cash.id)).toBe(JSON.stringify(cashReceipt));

    // The local effects: stock, lots, what the customer owes, the shift's money.
    expect(await till.stock(soap.id)).toBe(46);
    expect(await till.stock(amoxil.id)).toBe(9);
    expect((await till.batches({ product_id: amoxil.id })).map((b) => [b.lot_number, b.qty_on_hand])).toEqual([
      ['L-SOON', 0],
      ['L-LATE', 9],
    ]);
    expect((await till.customer(customer.id))?.outstanding_balance).toBe(10890);
    expect(movements.map((m) => [m.amount, (m as Record<string, unknown>).kind, (m as Record<string, unknown>).method])).toEqual([
      [160000, 'sale', 'Cash'],
      [1089000, 'sale', 'Credit'],
    ]);

    // Pushed, the server books both at the till's figures, with no conflict.
    h.net.offline = false;
    expect(await till.syncNow()).toMatchObject({ pushed: 3 });
    expect(await till.conflicts()).toEqual([]);
    await till.close();
  });

  it('refuses a sale short of both cash and lots as the server does online: the tender first, in stage order', async () => {
    const owner = await pharmacyOwner(h.t);
    const panadol = await newMedicine(h.t, owner, { selling_price: 500 });
    await receiveLots(h.t, owner, [{ product_id: panadol.id, lot_number: 'P-1', expiry_date: '2028-01-31', qty: 2 }]);
    const till = await openTill(h);
    await till.login(owner.phone, owner.password);
    await till.syncNow();
    const sale = { lines: [{ product_id: panadol.id, qty: 3 }], payment_method: 'Cash' as const, cash_tendered: 1000 };
    const refusal = { code: 'VALIDATION_ERROR', field: 'cash_tendered', message: "TZS 1,000 is less than the sale's total of TZS 1,500" };

    const online = await h.t.request('POST', '/pos/sale', { token: owner.token, body: sale });
    expect(online.status).toBe(400);
    expect({ code: online.body.errors[0].code, field: online.body.errors[0].field, message: online.body.errors[0].message }).toEqual(
      refusal,
    );
    await expect(till.sell(sale)).rejects.toMatchObject({ ...refusal, message: `cash_tendered ${refusal.message}` });
    expect(till.status().pending).toBe(0);
    await till.close();
  });
});
