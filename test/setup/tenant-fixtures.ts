/**
 * One real row of every kind an organisation owns, made through the API as its owner (the generated
 * access suite, test/api/access-rules.test.ts, calls every operation with another organisation's
 * ids), and a snapshot of the whole database to show that such calls wrote nothing.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { addStore, createStaff, ONE_PIXEL_PNG, type Session, uniqueEmail, uniquePhone } from './factories.js';
import { newMedicine, PRESCRIPTION, receiveLots } from './pharmacy-factories.js';
import { newProduct } from './suppliers-factories.js';
import type { TestApp } from './test-app.js';

/** Each kind of row an organisation owns that a path parameter can name. */
export type TenantKind =
  | 'store'
  | 'user'
  | 'category'
  | 'product'
  | 'barcode'
  | 'batch'
  | 'quarantine'
  | 'recall'
  | 'prescription'
  | 'customer'
  | 'creditTab'
  | 'sale'
  | 'supplier'
  | 'delivery'
  | 'expense'
  | 'shift'
  | 'collectionAccount'
  | 'paymentRequest'
  | 'notification'
  | 'note'
  | 'file'
  | 'conflict'
  | 'device'
  | 'export'
  | 'schedule'
  | 'aiConversation'
  | 'agentConversation'
  | 'agentAction'
  | 'stockTake'
  | 'purchaseOrder';

/** Ids (or names, for a barcode or a file) of real rows, one or more per kind. */
export type TenantRows = Record<TenantKind, string[]>;

/**
 * A row of every kind in the owner's organisation (a pharmacy, so that its medicines have batches,
 * prescriptions, quarantine and recalls), each made the way a shop makes it.
 */
export async function tenantRows(t: TestApp, owner: Session): Promise<TenantRows> {
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await t.request(method, path, { token: owner.token, body });
    expect(res.status, `${method} ${path}: ${res.text}`).toBeLessThan(300);
    return res.body.data;
  };
  const branch = await addStore(t, owner.orgId, 'Tawi la Sinza');
  const staff = await createStaff(t, owner);
  const category = await call('POST', '/inventory/categories', { name: `Dawa ${randomUUID().slice(0, 6)}` });
  const barcode = `6200${String(Date.now()).slice(-9)}`;
  const medicine = await newMedicine(t, owner, {
    name: 'Amoxil 250mg',
    generic_name: 'Amoxicillin',
    strength: '250 mg',
    dosage_form: 'capsule',
    schedule: 'pom',
    barcode,
    category_id: category.id,
  });
  const delivery = await receiveLots(t, owner, [
    { product_id: medicine.id, lot_number: 'AMX-1', expiry_date: '2028-06-30', qty: 20 },
    { product_id: medicine.id, lot_number: 'AMX-2', expiry_date: '2028-09-30', qty: 5 },
  ]);
  const supplierId = (await t.db.db.selectFrom('deliveries').select('supplier_id').where('id', '=', delivery.id).executeTakeFirstOrThrow())
    .supplier_id;
  const batch = await t.db.db
    .selectFrom('batches')
    .select('id')
    .where('product_id', '=', medicine.id)
    .where('lot_number', '=', 'AMX-1')
    .executeTakeFirstOrThrow();
  const customer = await call('POST', '/customers', { name: 'Mzee Hamisi', phone: uniquePhone(), credit_limit: 100_000 });
  const sale = await call('POST', '/pos/sale', {
    lines: [{ product_id: medicine.id, qty: 2 }],
    payment_method: 'Credit',
    customer_id: customer.id,
    prescription: PRESCRIPTION,
  });
  const tab = (await call('GET', `/credits/customers/${customer.id}`)).tabs[0];
  const prescription = (await call('GET', '/pharmacy/prescriptions')).find((p: { transaction_id: string }) => p.transaction_id === sale.id);
  const returned = await call('POST', '/pos/sale', {
    lines: [{ product_id: medicine.id, qty: 1 }],
    payment_method: 'Cash',
    prescription: PRESCRIPTION,
  });
  await call('POST', `/pos/transactions/${returned.id}/refund`, { reason: 'returned unopened' });
  const [held] = await call('GET', '/pharmacy/quarantine');
  const recall = await call('POST', '/pharmacy/recalls', { product_id: medicine.id, lot_number: 'AMX-2', reason: 'TMDA recall notice' });

  const expense = await call('POST', '/expenses', { title: 'Umeme', category: 'Utilities', amount: 45_000 });
  // A closed shift of the owner's (opened after everything above, so nothing belongs to it).
  const shift = await call('POST', '/pos/shifts', { opening_float: 10_000 });
  await call('POST', `/pos/shifts/${shift.id}/close`, { counted: { Cash: 10_000 } });
  const collection = await call('POST', '/payments/collection-accounts', {
    provider: 'azampay',
    label: 'Shop wallet',
    credentials: { appName: 'duka-shop', clientId: 'client-0001', clientSecret: 'secret-0001', apiKey: 'key-0001' },
  });
  // Written as its sale's payment would leave it: asked through the API, it would push to AzamPay, which this suite has no fake of.
  const paymentRequest = randomUUID();
  const at = t.clock.now();
  await t.db.db
    .insertInto('payment_requests')
    .values({
      org_id: owner.orgId,
      id: paymentRequest,
      store_id: owner.storeId,
      account_id: collection.id,
      device_id: null,
      cashier_id: owner.userId,
      sale_input: JSON.stringify({ sale: { id: paymentRequest, lines: [], payment_method: 'M-Pesa' }, unit_prices: {}, holds: [] }),
      method: 'M-Pesa',
      phone: '+255754123456',
      network: 'mpesa',
      amount: 150_000,
      status: 'paid',
      detail: 'paid',
      reference: paymentRequest,
      provider_ref: 'AZ100001',
      received_payment_id: null,
      sale_id: sale.id,
      next_check_at: null,
      expires_at: at + 180_000,
      created_at: at,
      updated_at: at,
    })
    .execute();
  const notification = await call('POST', '/notifications', { category: 'system', title: 'Stock count on Sunday' });
  const note = await call('POST', '/notebook', { title: 'Orders for Monday', content: 'Sugar 20 bags', tags: ['orders'] });
  const form = new FormData();
  form.append('file', new File([ONE_PIXEL_PNG], 'receipt.png', { type: 'image/png' }));
  form.append('kind', 'receipt');
  const upload = await t.request('POST', '/uploads', { token: owner.token, form });
  expect(upload.status, upload.text).toBe(201);

  // A till's offline sale at an old price: the server books it and records a price conflict.
  const soap = await newProduct(t, owner, { name: 'Sabuni', selling_price: 1500, stock: 10 });
  const device = randomUUID();
  await call('POST', '/sync/devices', { device_id: device, name: 'Till 1' });
  const pushed = await call('POST', '/sync/push', {
    device_id: device,
    mutations: [
      {
        id: randomUUID(),
        seq: 1,
        type: 'sale.create',
        created_at: new Date(t.clock.now() - 60_000).toISOString(),
        payload: {
          id: randomUUID(),
          client_receipt_number: 'T1-1',
          lines: [{ product_id: soap.id, qty: 1, unit_price: 1200 }],
          payment_method: 'Cash',
        },
      },
    ],
  });
  expect(pushed.results[0].conflicts?.length, JSON.stringify(pushed)).toBeGreaterThan(0);
  const [conflict] = await call('GET', '/sync/conflicts');
  const stockTake = await call('POST', '/inventory/stock-takes', { scope: 'products', product_ids: [soap.id] });
  const purchaseOrder = await call('POST', '/suppliers/purchase-orders', {
    supplier_id: supplierId,
    lines: [{ product_id: soap.id, qty: 12, unit_cost: 900 }],
  });

  const report = await call('POST', '/reports/generate', { report_type: 'inventory', format: 'json' });
  const schedule = await call('POST', '/reports/scheduled', {
    report_type: 'sales',
    name: 'Weekly sales',
    frequency: 'weekly',
    date_range_preset: '7d',
    recipients: [uniqueEmail('owner')],
  });
  const chat = await call('POST', '/ai/chat', { message: 'Mauzo ya leo?' });
  const agent = await call('POST', '/ai/agent/conversations');
  const action = await call('POST', '/ai/agent/actions', {
    tool: 'updateProduct',
    arguments: { id: soap.id, selling_price: 1600 },
    summary: 'Change Sabuni: selling price to TZS 1,600',
    language: 'en',
    ttl_seconds: 600,
  });

  return {
    store: [owner.storeId, branch.id],
    user: [staff.user.id, owner.userId],
    category: [category.id],
    product: [medicine.id, soap.id],
    barcode: [barcode],
    batch: [batch.id],
    quarantine: [held.id],
    recall: [recall.id],
    prescription: [prescription.id],
    customer: [customer.id],
    creditTab: [tab.id],
    sale: [sale.id],
    supplier: [supplierId],
    delivery: [delivery.id],
    expense: [expense.id],
    shift: [shift.id],
    collectionAccount: [collection.id],
    paymentRequest: [paymentRequest],
    notification: [notification.id],
    note: [note.id],
    file: [upload.body.data.url.split('/').at(-1)],
    conflict: [conflict.id],
    device: [device],
    export: [report.export_id],
    schedule: [schedule.id],
    aiConversation: [chat.id],
    agentConversation: [agent.id],
    agentAction: [action.id],
    stockTake: [stockTake.id],
    purchaseOrder: [purchaseOrder.id],
  };
}

/** Tables a refused call may write to: rate-limit counters and the like, none of them a shop's data. */
const BOOKKEEPING = new Set(['rate_limits', 'auth_counters', 'idempotency_keys', 'job_leases']);

/** Every row of every table (but the bookkeeping above and the search indexes' FTS5 tables), to compare before and after calls that must write nothing. */
export async function databaseSnapshot(t: TestApp): Promise<Record<string, string[]>> {
  const snapshot: Record<string, string[]> = {};
  for (const table of await t.db.db.introspection.getTables()) {
    if (BOOKKEEPING.has(table.name) || table.isView || /^products_(fts|words)/.test(table.name)) continue;
    const rows = await t.db.db
      .selectFrom(table.name as 'users')
      .selectAll()
      .execute();
    snapshot[table.name] = rows.map((row) => JSON.stringify(row, (_, v) => (typeof v === 'bigint' ? String(v) : v))).sort();
  }
  return snapshot;
}
