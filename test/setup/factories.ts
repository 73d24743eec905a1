/** Test data, made through the public API wherever a route exists. */
import { randomInt, randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { withTransaction } from '../../server/src/db/transaction.js';
import { toE164 } from '../../server/src/lib/phone.js';
import { createPlatformAdmin } from '../../server/src/modules/admin/create-admin.js';
import { insertStore } from '../../server/src/modules/stores/stores.queries.js';
import type { TestApp } from './test-app.js';

export const PASSWORD = 'kariakoo2026';

/** A Tanzanian mobile number in local form (`07…`) that no other test uses. */
export function uniquePhone(): string {
  for (;;) {
    const local = `07${[1, 5, 6, 8][randomInt(4)]}${String(randomInt(10_000_000)).padStart(7, '0')}`;
    if (toE164(local)) return local;
  }
}

export const uniqueEmail = (name = 'user') => `${name}.${randomUUID().slice(0, 8)}@duka.test`;
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
  return t.db.db.selectFrom('outbox').selectAll().where('recipient', '=', recipient).orderBy('created_at', 'desc').orderBy('id', 'desc').executeTakeFirst();
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
  const res = await t.request('POST', '/accounts/users', { token: owner.token, body: { first_name: 'Juma', last_name: 'Ali', phone, role: 'staff', ...overrides } });
  expect(res.status, res.text).toBe(200);
  const sms = await lastMessage(t, e164(phone));
  const password = sms!.body.match(/temporary password (\S+),/)![1]!;
  const login = await t.request('POST', '/auth/login', { body: { identifier: phone, password } });
  expect(login.status, login.text).toBe(200);
  return { user: res.body.data, phone, password, token: login.body.data.access_token as string, refresh: login.body.data.refresh_token as string };
}

export async function createAdmin(t: TestApp) {
  const email = uniqueEmail('admin');
  await createPlatformAdmin(t.db.db, { email, password: PASSWORD, first_name: 'Platform', last_name: 'Admin' });
  return { email, password: PASSWORD };
}
