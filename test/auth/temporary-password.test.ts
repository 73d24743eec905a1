/**
 * Issue 18: a temporary password (a staff member created by the owner, or a password reset by a
 * platform admin) signs in to a session that can do one thing, set a new password; everything else
 * answers 403 PASSWORD_CHANGE_REQUIRED, the websocket included. Setting it lifts the restriction for
 * that same session at once. Issue 33: the limit is the session's, not the user's: a sign-in by OTP
 * is a full session, though the user is still shown as having to set a password.
 */
import type { ServerType } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attachRealtime, type RealtimeServer } from '../../server/src/sync/ws/attach.js';
import { codeIn, e164, lastMessage, mfaAdminToken, PASSWORD, registerOwner, type Session, uniquePhone } from '../setup/factories.js';
import { newProduct } from '../setup/suppliers-factories.js';
import { createTestApp, listen, type TestApp } from '../setup/test-app.js';
import { connect, refusal, wsUrl } from '../setup/ws-client.js';

const REFUSAL = {
  code: 'PASSWORD_CHANGE_REQUIRED',
  message: 'you signed in with a temporary password; set a new password first (PATCH /accounts/me with password)',
};

describe('temporary passwords', () => {
  let t: TestApp;
  let server: ServerType;
  let realtime: RealtimeServer;
  let url: string;
  let owner: Session;
  let product: { id: string };
  beforeAll(async () => {
    t = await createTestApp();
    let http: string;
    ({ server, origin: http } = await listen(t));
    realtime = attachRealtime(server, t.deps, { heartbeatMs: 1000 });
    url = wsUrl(http);
    owner = await registerOwner(t);
    product = await newProduct(t, owner, { name: 'Soda 500ml', selling_price: 1000, stock: 20 });
  });
  afterAll(async () => {
    await realtime.close();
    await new Promise((resolve) => server.close(resolve));
    await t.close();
  });

  const temporaryIn = async (phone: string) => (await lastMessage(t, e164(phone)))!.body.match(/temporary password (\S+)[,.]/)![1]!;
  const signIn = (identifier: string, password: string) => t.request('POST', '/auth/login', { body: { identifier, password } });

  /** Every kind of route a till or the back office uses, each refused the same way. */
  async function expectRefusedEverywhere(token: string) {
    const device = '0194f2c2-0001-7000-8000-000000000001';
    const asks = [
      ['GET', '/accounts/me', undefined],
      ['PATCH', '/accounts/me', { first_name: 'Juma' }],
      ['GET', '/inventory/products', undefined],
      ['POST', '/pos/sale', { lines: [{ product_id: product.id, qty: 1 }], payment_method: 'Cash' }],
      ['GET', '/customers', undefined],
      ['POST', '/sync/devices', { device_id: device, name: 'Till' }],
      ['GET', '/sync/pull', undefined],
      ['POST', '/accounts/switch-store', { store_id: owner.storeId }],
      ['GET', '/notifications', undefined],
    ] as const;
    for (const [method, path, body] of asks) {
      const res = await t.request(method, path, { token, body });
      expect(res.status, `${method} ${path}: ${res.text}`).toBe(403);
      expect(res.body, `${method} ${path}`).toMatchObject({ success: false, message: REFUSAL.message, errors: [REFUSAL] });
    }
    const ws = await refusal(url, { authorization: `Bearer ${token}` });
    expect(ws).toMatchObject({ status: 403, body: { errors: [REFUSAL] } });
  }

  it('a staff member created by the owner may only set a new password; then the same session does everything', async () => {
    const phone = uniquePhone();
    expect((await t.request('POST', '/staff', { token: owner.token, body: { first_name: 'Juma', last_name: 'Ali', phone } })).status).toBe(
      200,
    );
    const temporary = await temporaryIn(phone);
    const login = await signIn(phone, temporary);
    expect(login.status, login.text).toBe(200);
    expect(login.body.data.user).toMatchObject({ role: 'staff', password_change_required: true });
    const token = login.body.data.access_token as string;
    await expectRefusedEverywhere(token);

    // The refresh token of that sign-in gives another restricted session, not a way around it.
    const refreshed = await t.request('POST', '/auth/refresh', { body: { refresh_token: login.body.data.refresh_token } });
    expect(refreshed.status, refreshed.text).toBe(200);
    expect((await t.request('GET', '/accounts/me', { token: refreshed.body.data.access_token })).body.errors).toEqual([REFUSAL]);

    const same = await t.request('PATCH', '/accounts/me', { token, body: { password: temporary } });
    expect(same.status).toBe(400);
    expect(same.body.errors).toEqual([
      { code: 'VALIDATION_ERROR', field: 'password', message: 'must differ from your temporary password' },
    ]);

    const set = await t.request('PATCH', '/accounts/me', { token, body: { password: PASSWORD } });
    expect(set.status, set.text).toBe(200);
    expect((await t.request('GET', '/accounts/me', { token })).status).toBe(200);
    const sale = await t.request('POST', '/pos/sale', {
      token,
      body: { lines: [{ product_id: product.id, qty: 1 }], payment_method: 'Cash' },
    });
    expect(sale.status, sale.text).toBe(201);
    const socket = await connect(url, token);
    await socket.close();

    expect((await signIn(phone, temporary)).status).toBe(401);
    const again = await signIn(phone, PASSWORD);
    expect(again.status).toBe(200);
    expect(again.body.data.user.password_change_required).toBeUndefined();
    expect((await t.request('GET', '/inventory/products', { token: again.body.data.access_token })).status).toBe(200);

    // Signing out stays possible for a temporary session.
    const other = uniquePhone();
    await t.request('POST', '/accounts/users', { token: owner.token, body: { first_name: 'Neema', phone: other, role: 'manager' } });
    const leaving = (await signIn(other, await temporaryIn(other))).body.data.access_token as string;
    expect((await t.request('POST', '/auth/logout', { token: leaving })).status).toBe(200);
    expect((await t.request('PATCH', '/accounts/me', { token: leaving, body: { password: PASSWORD } })).status).toBe(401);
  });

  it('a staff member who signs in by OTP has a full session; only the session signed in with the temporary password is limited', async () => {
    const phone = uniquePhone();
    expect(
      (await t.request('POST', '/staff', { token: owner.token, body: { first_name: 'Rehema', last_name: 'Said', phone } })).status,
    ).toBe(200);
    const temporary = await temporaryIn(phone);
    expect((await t.request('POST', '/auth/otp/send', { body: { phone, purpose: 'login' } })).status).toBe(200);
    const verified = await t.request('POST', '/auth/otp/verify', {
      body: { phone, purpose: 'login', code: codeIn((await lastMessage(t, e164(phone)))!.body) },
    });
    expect(verified.status, verified.text).toBe(200);
    const token = verified.body.data.access_token as string;

    // The app can still prompt for a password; nothing is refused.
    const me = await t.request('GET', '/accounts/me', { token });
    expect(me.status, me.text).toBe(200);
    expect(me.body.data.user).toMatchObject({ phone: e164(phone), password_change_required: true });
    const sale = await t.request('POST', '/pos/sale', {
      token,
      body: { lines: [{ product_id: product.id, qty: 1 }], payment_method: 'Cash' },
    });
    expect(sale.status, sale.text).toBe(201);
    expect((await t.request('GET', '/sync/pull', { token })).status).toBe(200);
    const socket = await connect(url, token);
    await socket.close();
    // Its refresh is a full session too.
    const refreshed = await t.request('POST', '/auth/refresh', { body: { refresh_token: verified.body.data.refresh_token } });
    expect((await t.request('GET', '/inventory/products', { token: refreshed.body.data.access_token })).status).toBe(200);

    // Beside it, a sign-in with the temporary password is limited, and its refresh stays limited.
    const limited = await signIn(phone, temporary);
    expect(limited.body.data.user).toMatchObject({ password_change_required: true });
    await expectRefusedEverywhere(limited.body.data.access_token);
    const limitedAgain = await t.request('POST', '/auth/refresh', { body: { refresh_token: limited.body.data.refresh_token } });
    expect((await t.request('GET', '/inventory/products', { token: limitedAgain.body.data.access_token })).body.errors).toEqual([REFUSAL]);

    // The OTP session may set the password (not to the temporary one); then nobody is prompted.
    const same = await t.request('PATCH', '/accounts/me', { token, body: { password: temporary } });
    expect(same.body.errors).toEqual([
      { code: 'VALIDATION_ERROR', field: 'password', message: 'must differ from your temporary password' },
    ]);
    const set = await t.request('PATCH', '/accounts/me', { token, body: { password: PASSWORD } });
    expect(set.status, set.text).toBe(200);
    expect(set.body.data.user.password_change_required).toBe(false);
    const again = await signIn(phone, PASSWORD);
    expect(again.body.data.user.password_change_required).toBeUndefined();
    expect((await t.request('GET', '/customers', { token: again.body.data.access_token })).status).toBe(200);
  });

  it('a password reset by a platform admin signs the user out and texts a temporary password with the same restriction', async () => {
    const shopOwner = await registerOwner(t);
    const admin = await mfaAdminToken(t);
    const reset = await t.request('PATCH', `/admin/users/${shopOwner.userId}`, { token: admin.token, body: { reset_password: true } });
    expect(reset.status, reset.text).toBe(200);
    expect(reset.body.data).toMatchObject({ id: shopOwner.userId, is_active: true });
    expect((await t.request('GET', '/accounts/me', { token: shopOwner.token })).status).toBe(401);

    const temporary = await temporaryIn(shopOwner.phone);
    expect(temporary).toMatch(/^[a-z]{4}-\d{4}$/);
    expect((await signIn(shopOwner.phone, PASSWORD)).status).toBe(401);
    const login = await signIn(shopOwner.phone, temporary);
    expect(login.body.data.user).toMatchObject({ role: 'owner', password_change_required: true });
    const token = login.body.data.access_token as string;
    // The owner holds every permission, and still may do nothing but set a password.
    await expectRefusedEverywhere(token);
    expect((await t.request('GET', '/accounts/organisation', { token })).body.errors).toEqual([REFUSAL]);

    expect((await t.request('PATCH', '/accounts/me', { token, body: { password: 'Kilimanjaro2027' } })).status).toBe(200);
    expect((await t.request('GET', '/accounts/organisation', { token })).status).toBe(200);
    const audit = await t.db.db
      .selectFrom('audit_log')
      .select('description')
      .where('action', '=', 'admin.user.update')
      .where('entity_id', '=', shopOwner.userId)
      .execute();
    expect(audit.map((a) => a.description)).toEqual(['Platform admin updated Asha Mushi: temporary password sent (signed out)']);
  });
});
