/** Test data, made through the public API wherever a route exists. */
import { newId, type PaymentMethod, type TransactionStatus } from '@duka/shared';
import { randomBytes, randomInt } from 'node:crypto';
import { expect } from 'vitest';
import { withTransaction } from '../../server/src/db/transaction.js';
import { toE164 } from '../../server/src/lib/phone.js';
import { createPlatformAdmin } from '../../server/src/modules/admin/create-admin.js';
import { insertStore } from '../../server/src/modules/tenancy/stores.queries.js';
import { newCreditTab, openCreditTabs } from '../../server/src/modules/credits/services/tabs.js';
import { currentTotp } from '../../server/src/lib/auth/totp.js';
import type { TestApp } from './test-app.js';

/** A 1×1 PNG: the smallest real image an upload accepts. */
export const ONE_PIXEL_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

export const PASSWORD = 'kariakoo2026';

/** A Tanzanian mobile number in local form (`07…`) that no other test uses. */
/** Numbers handed out in this test file: a random one drawn twice (1 in 2,000 for 200 accounts) failed a suite on `users.phone`. */
const issuedPhones = new Set<string>();

export function uniquePhone(): string {
  for (;;) {
    const local = `07${[1, 5, 6, 8][randomInt(4)]}${String(randomInt(10_000_000)).padStart(7, '0')}`;
    if (toE164(local) && !issuedPhones.has(local)) {
      issuedPhones.add(local);
      return local;
    }
  }
}

export const uniqueEmail = (name = 'user') => `${name}.${randomBytes(5).toString('hex')}@duka.test`;
export const e164 = (local: string) => toE164(local)!;

export interface Session {
  token: string;
  refresh: string;
  userId: string;
  orgId: string;
  storeId: string;
  phone: string;
  email: string;
  password: string;
}

export function registrationBody(overrides: Record<string, unknown> = {}) {
  return {
    first_name: 'Asha',
    last_name: 'Mushi',
    phone: uniquePhone(),
    email: uniqueEmail('owner'),
    password: PASSWORD,
    confirm_password: PASSWORD,
    occupation: 'Shopkeeper',
    shop: { name: 'Mama Asha Duka', business_type: 'retail', region: 'dar-es-salaam', district: 'Kinondoni' },
    ...overrides,
  };
}

export async function registerOwner(t: TestApp, overrides: Record<string, unknown> = {}): Promise<Session> {
  const body = registrationBody(overrides);
  const res = await t.request('POST', '/auth/register', { body });
  expect(res.status, res.text).toBe(201);
  const d = res.body.data;
  return {
    token: d.tokens.access_token,
    refresh: d.tokens.refresh_token,
    userId: d.user_id,
    orgId: d.org_id,
    storeId: d.store_id,
    phone: body.phone as string,
    email: body.email as string,
    password: PASSWORD,
  };
}

/** The newest message sent to `recipient` (E.164 phone or email). */
export async function lastMessage(t: TestApp, recipient: string) {
  return t.db.db
    .selectFrom('outbox')
    .selectAll()
    .where('recipient', '=', recipient)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .executeTakeFirst();
}

export async function messageCount(t: TestApp, recipient: string) {
  const rows = await t.db.db.selectFrom('outbox').select('id').where('recipient', '=', recipient).execute();
  return rows.length;
}

export function codeIn(body: string | undefined): string {
  const m = body?.match(/\b(\d{6})\b/);
  if (!m) throw new Error(`no 6-digit code in message: ${body}`);
  return m[1]!;
}

/** A second store for an organisation (the /stores routes come with the stores issue). */
export async function addStore(t: TestApp, orgId: string, name = 'Kariakoo Branch') {
  return withTransaction(t.serviceCtx(), (ctx) => insertStore(ctx, orgId, { name }));
}

/** A staff member created by the owner, signed in with the temporary password from their SMS. */
export async function createStaff(t: TestApp, owner: Session, overrides: Record<string, unknown> = {}) {
  const phone = uniquePhone();
  const res = await t.request('POST', '/accounts/users', {
    token: owner.token,
    body: { first_name: 'Juma', last_name: 'Ali', phone, role: 'staff', ...overrides },
  });
  expect(res.status, res.text).toBe(200);
  const sms = await lastMessage(t, e164(phone));
  const temporaryPassword = sms!.body.match(/temporary password (\S+),/)![1]!;
  const login = await t.request('POST', '/auth/login', { body: { identifier: phone, password: temporaryPassword } });
  expect(login.status, login.text).toBe(200);
  const token = login.body.data.access_token as string;
  // A temporary password's session may only set a new password; that done, the same session works.
  const changed = await t.request('PATCH', '/accounts/me', { token, body: { password: PASSWORD } });
  expect(changed.status, changed.text).toBe(200);
  return { user: res.body.data, phone, password: PASSWORD, temporaryPassword, token, refresh: login.body.data.refresh_token as string };
}

export async function createAdmin(t: TestApp) {
  const email = uniqueEmail('admin');
  await createPlatformAdmin(t.db.db, { email, password: PASSWORD, first_name: 'Platform', last_name: 'Admin' });
  return { email, password: PASSWORD };
}

/** An admin who enrolled an authenticator and signed in with a code: a token whose amr holds `mfa`. */
export async function mfaAdminToken(t: TestApp): Promise<{ token: string; passwordOnly: string; userId: string }> {
  const admin = await createAdmin(t);
  const login = () => t.request('POST', '/auth/login', { body: { identifier: admin.email, password: admin.password } });
  const first = await login();
  const passwordOnly = first.body.data.access_token as string;
  const userId = first.body.data.user.id as string;
  const secret = (await t.request('POST', '/accounts/mfa/totp/setup', { token: passwordOnly })).body.data.secret as string;
  expect(
    (await t.request('POST', '/accounts/mfa/totp/verify', { token: passwordOnly, body: { code: currentTotp(secret, t.clock.now()) } }))
      .status,
  ).toBe(200);
  t.clock.advance(30_000);
  const challenge = (await login()).body.data.mfa_token as string;
  const res = await t.request('POST', '/auth/mfa/totp/verify', {
    body: { mfa_token: challenge, code: currentTotp(secret, t.clock.now()) },
  });
  expect(res.status, res.text).toBe(200);
  return { token: res.body.data.access_token as string, passwordOnly, userId };
}

export interface SaleRow {
  orgId: string;
  storeId: string;
  cashierId?: string | null;
  /** TZS, e.g. 1500.5 */
  total: number;
  discount?: number;
  status?: TransactionStatus;
  paymentMethod?: PaymentMethod;
  /** Epoch ms; defaults to the test clock's now. */
  at?: number;
  lines?: Array<{ productId: string; name?: string; qty: number; unitPrice: number }>;
}

/**
 * A row in the sales ledger, written directly (the sale route arrives with the point-of-sale
 * issue). Numbers follow the store's counter so they stay gapless.
 */
export async function insertSale(t: TestApp, sale: SaleRow): Promise<string> {
  const db = t.db.db;
  const at = sale.at ?? t.clock.now();
  const id = newId();
  const store = await db
    .updateTable('stores')
    .set((eb) => ({ last_number: eb('last_number', '+', 1) }))
    .where('id', '=', sale.storeId)
    .returning(['last_number', 'code'])
    .executeTakeFirstOrThrow();
  const total = Math.round(sale.total * 100);
  const discount = Math.round((sale.discount ?? 0) * 100);
  await db
    .insertInto('transactions')
    .values({
      id,
      org_id: sale.orgId,
      store_id: sale.storeId,
      number: store.last_number,
      receipt_number: `${store.code}-${String(store.last_number).padStart(6, '0')}`,
      client_receipt_number: null,
      status: sale.status ?? 'paid',
      payment_method: sale.paymentMethod ?? 'Cash',
      payment_reference: null,
      subtotal: total + discount,
      discount,
      tax: 0,
      total,
      customer_id: null,
      customer_name: null,
      customer_phone: null,
      till_number: null,
      notes: null,
      cashier_id: sale.cashierId ?? null,
      device_id: null,
      client_created_at: null,
      refund_reason: null,
      refunded_at: sale.status === 'refunded' ? at : null,
      refunded_by: null,
      void_reason: null,
      voided_at: sale.status === 'void' ? at : null,
      voided_by: null,
      created_at: at,
      updated_at: at,
    })
    .execute();
  // Every sale has its parts (issue 51): one, its method and total.
  await db
    .insertInto('transaction_payments')
    .values({
      org_id: sale.orgId,
      transaction_id: id,
      seq: 1,
      method: sale.paymentMethod ?? 'Cash',
      amount: total,
      reference: null,
      phone: null,
      verification: null,
    })
    .execute();
  for (const line of sale.lines ?? []) {
    const unit = Math.round(line.unitPrice * 100);
    await db
      .insertInto('transaction_lines')
      .values({
        id: newId(),
        org_id: sale.orgId,
        transaction_id: id,
        product_id: line.productId,
        product_name: line.name ?? 'Item',
        qty: line.qty,
        unit_price: unit,
        line_total: unit * line.qty,
      })
      .execute();
  }
  return id;
}

/** A credit sale in the ledger with its open tab (until tests can use POST /pos/sale). */
export async function insertCreditSale(
  t: TestApp,
  sale: Omit<SaleRow, 'status' | 'paymentMethod'> & { customerId: string },
): Promise<{ transactionId: string; tabId: string }> {
  const at = sale.at ?? t.clock.now();
  const transactionId = await insertSale(t, { ...sale, at, status: 'credit', paymentMethod: 'Credit' });
  await t.db.db.updateTable('transactions').set({ customer_id: sale.customerId }).where('id', '=', transactionId).execute();
  const org = await t.db.db
    .selectFrom('organisations')
    .select(['timezone', 'credit_terms_days'])
    .where('id', '=', sale.orgId)
    .executeTakeFirstOrThrow();
  const tab = newCreditTab(
    { orgId: sale.orgId, storeId: sale.storeId, customerId: sale.customerId, transactionId, amount: Math.round(sale.total * 100), at },
    org,
    t.clock.now(),
  );
  await withTransaction(t.serviceCtx(), (ctx) => openCreditTabs(ctx, sale.orgId, [tab]));
  return { transactionId, tabId: tab.id };
}
