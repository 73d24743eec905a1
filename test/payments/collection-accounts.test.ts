/**
 * A shop's own collection accounts over real HTTP: created with each provider, secrets never in
 * any answer nor in the audit log, owner only, another organisation's id 404, one active account
 * per store, rotation and deactivation closing the callback URL.
 */
import { CollectionAccount, Envelope } from '@duka/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AzamPayFake } from '../fakes/azampay-fake.js';
import { createStaff, registerOwner, type Session } from '../setup/factories.js';
import { createTestApp, type Listening, listen, type TestApp } from '../setup/test-app.js';

const AZAM = {
  appName: 'duka-shop',
  clientId: 'azam-client-7731',
  clientSecret: 'azam-secret-CLIENT-9f2e',
  apiKey: 'azam-apikey-SECRET-44aa',
};
const SELCOM = { apiKey: 'selcom-key-0123-8842', apiSecret: 'selcom-SECRET-5e1d', vendor: 'TILL61000042' };
const SECRETS = [AZAM.clientSecret, AZAM.apiKey, SELCOM.apiSecret];

describe('collection accounts', () => {
  let t: TestApp;
  let http: Listening;
  const azampay = new AzamPayFake(AZAM);
  beforeAll(async () => {
    t = await createTestApp();
    http = await listen(t);
  });
  afterAll(async () => {
    await http.close();
    await t.close();
  });

  const create = (s: Session, body: unknown) => t.request('POST', '/payments/collection-accounts', { token: s.token, body });
  const account = (res: { body: unknown }) => Envelope(CollectionAccount).parse(res.body).data;
  /** The callback URL as served by this test's listener. */
  const served = (url: string) => url.replace(/^https?:\/\/[^/]+/, http.origin);
  const push = { accountNumber: '255712345678', amount: '2500', externalId: 'till-ref-1', provider: 'Mpesa', transactionId: 'AZ900001' };
  const leaks = (text: string) => SECRETS.filter((s) => text.includes(s));

  it('creates an AzamPay and a Selcom account whose answers carry no secret, only a hint and the callback URL', async () => {
    const owner = await registerOwner(t);
    const azam = await create(owner, { provider: 'azampay', label: 'AzamPay shop', credentials: AZAM, test_mode: true });
    expect(azam.status, azam.text).toBe(201);
    const a = account(azam);
    expect(a).toMatchObject({
      provider: 'azampay',
      label: 'AzamPay shop',
      store_id: null,
      credentials_set: true,
      credentials_hint: '7731',
      test_mode: true,
      active: true,
    });
    expect(a.callback_url).toMatch(new RegExp(`/api/v1/payments/callbacks/${a.id}\\?token=[A-Za-z0-9_-]{43}$`));

    const sel = await create(owner, { provider: 'selcom', label: 'Selcom branch', store_id: owner.storeId, credentials: SELCOM });
    expect(sel.status, sel.text).toBe(201);
    expect(account(sel)).toMatchObject({ provider: 'selcom', store_id: owner.storeId, credentials_hint: '8842', test_mode: false });

    const list = await t.request('GET', '/payments/collection-accounts', { token: owner.token });
    expect(list.body.data.map((x: { label: string }) => x.label)).toEqual(['AzamPay shop', 'Selcom branch']);
    const renamed = await t.request('PATCH', `/payments/collection-accounts/${a.id}`, {
      token: owner.token,
      body: { label: 'AzamPay Kariakoo', credentials: { ...AZAM, clientId: 'azam-client-5566' } },
    });
    expect(renamed.status, renamed.text).toBe(200);
    expect(account(renamed)).toMatchObject({ label: 'AzamPay Kariakoo', credentials_hint: '5566' });
    // Credentials of the other provider's shape are refused, naming the field.
    const wrong = await t.request('PATCH', `/payments/collection-accounts/${a.id}`, { token: owner.token, body: { credentials: SELCOM } });
    expect(wrong.status).toBe(400);
    expect(wrong.body.errors[0].field).toMatch(/^credentials/);

    for (const res of [
      azam,
      sel,
      list,
      renamed,
      wrong,
      await t.request('GET', `/payments/collection-accounts/${a.id}`, { token: owner.token }),
    ])
      expect(leaks(res.text)).toEqual([]);
    // Sealed at rest, and never in the audit trail.
    const rows = await t.db.db.selectFrom('collection_accounts').selectAll().where('org_id', '=', owner.orgId).execute();
    expect(leaks(JSON.stringify(rows))).toEqual([]);
    const audit = await t.db.db
      .selectFrom('audit_log')
      .selectAll()
      .where('org_id', '=', owner.orgId)
      .where('entity', '=', 'collection_account')
      .execute();
    expect(audit.map((r) => r.action).sort()).toEqual([
      'collection_account.create',
      'collection_account.create',
      'collection_account.update',
    ]);
    expect(leaks(JSON.stringify(audit))).toEqual([]);
  });

  it('keeps the answers of keyed creates and rotations sealed: no callback token in clear in idempotency_keys, and the replay is the same', async () => {
    const owner = await registerOwner(t);
    const body = { provider: 'selcom', label: 'Keyed', credentials: SELCOM };
    const keyed = (key: string) => ({ token: owner.token, body, headers: { 'idempotency-key': key } });
    const first = await t.request('POST', '/payments/collection-accounts', keyed('acct-create-1'));
    expect(first.status, first.text).toBe(201);
    const a = account(first);
    const rotated = await t.request('POST', `/payments/collection-accounts/${a.id}/rotate-callback`, {
      token: owner.token,
      body: {},
      headers: { 'idempotency-key': 'acct-rotate-1' },
    });
    expect(rotated.status, rotated.text).toBe(200);
    const tokens = [a.callback_url, account(rotated).callback_url].map((u) => new URL(u).searchParams.get('token')!);
    expect(tokens[0]).not.toBe(tokens[1]);

    const rows = await t.db.db.selectFrom('idempotency_keys').selectAll().where('key', 'in', ['acct-create-1', 'acct-rotate-1']).execute();
    // The create's answer is stored (replayable); the rotation's, if its route keeps one, too.
    expect(rows.find((r) => r.key === 'acct-create-1')?.status).toBe('done');
    const stored = JSON.stringify(rows);
    expect(tokens.filter((tk) => stored.includes(tk) || stored.includes(encodeURIComponent(tk)))).toEqual([]);
    expect(leaks(stored)).toEqual([]);

    const again = await t.request('POST', '/payments/collection-accounts', keyed('acct-create-1'));
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(account(again)).toEqual(a);
  });

  it('is for the owner only; another organisation sees 404; one active account per store', async () => {
    const owner = await registerOwner(t);
    const other = await registerOwner(t);
    const a = account(await create(owner, { provider: 'selcom', label: 'Main', credentials: SELCOM }));
    const manager = await createStaff(t, owner, { role: 'manager' });
    const cashier = await createStaff(t, owner);
    for (const s of [manager, cashier]) {
      expect((await t.request('GET', '/payments/collection-accounts', { token: s.token })).status).toBe(403);
      expect((await create(s as unknown as Session, { provider: 'selcom', label: 'X', credentials: SELCOM })).status).toBe(403);
    }
    expect((await t.request('GET', `/payments/collection-accounts/${a.id}`, { token: other.token })).status).toBe(404);
    expect(
      (await t.request('PATCH', `/payments/collection-accounts/${a.id}`, { token: other.token, body: { label: 'mine' } })).status,
    ).toBe(404);
    expect((await t.request('DELETE', `/payments/collection-accounts/${a.id}`, { token: other.token })).status).toBe(404);
    expect((await t.request('POST', `/payments/collection-accounts/${a.id}/rotate-callback`, { token: other.token })).status).toBe(404);

    const second = await create(owner, { provider: 'azampay', label: 'Second', credentials: AZAM });
    expect(second.status).toBe(409);
    expect(second.body.message).toContain('"Main"');
    // A store's own account alongside the organisation's is allowed; a store of another organisation is not.
    expect((await create(owner, { provider: 'azampay', label: 'Branch', store_id: owner.storeId, credentials: AZAM })).status).toBe(201);
    const foreign = await create(owner, { provider: 'azampay', label: 'Theirs', store_id: other.storeId, credentials: AZAM });
    expect(foreign.status).toBe(400);
    expect(foreign.body.errors[0].field).toBe('store_id');
  });

  it('rotating the callback makes the old URL 404 and stores nothing; deactivating closes the URL and keeps what was received', async () => {
    const owner = await registerOwner(t);
    const a = account(await create(owner, { provider: 'azampay', label: 'Azam', credentials: AZAM }));
    expect(await azampay.pay(push, served(a.callback_url))).toBe(200);

    const rotated = await t.request('POST', `/payments/collection-accounts/${a.id}/rotate-callback`, { token: owner.token });
    expect(rotated.status, rotated.text).toBe(200);
    const b = account(rotated);
    expect(b.callback_url).not.toBe(a.callback_url);
    expect(await azampay.pay({ ...push, transactionId: 'AZ900002' }, served(a.callback_url))).toBe(404);
    expect(await azampay.pay({ ...push, transactionId: 'AZ900003' }, served(b.callback_url))).toBe(200);

    const off = await t.request('DELETE', `/payments/collection-accounts/${a.id}`, { token: owner.token });
    expect(off.status).toBe(200);
    expect(account(off).active).toBe(false);
    expect(await azampay.pay({ ...push, transactionId: 'AZ900004' }, served(b.callback_url))).toBe(404);
    const refs = await t.db.db
      .selectFrom('received_payments')
      .select('provider_ref')
      .where('org_id', '=', owner.orgId)
      .orderBy('provider_ref')
      .execute();
    expect(refs.map((r) => r.provider_ref)).toEqual(['AZ900001', 'AZ900003']);
    // Deactivated, a new organisation-wide account may be added; reactivating the old one is then 409.
    expect((await create(owner, { provider: 'selcom', label: 'New', credentials: SELCOM })).status).toBe(201);
    expect((await t.request('PATCH', `/payments/collection-accounts/${a.id}`, { token: owner.token, body: { active: true } })).status).toBe(
      409,
    );
    const actions = await t.db.db
      .selectFrom('audit_log')
      .select('action')
      .where('org_id', '=', owner.orgId)
      .where('entity_id', '=', a.id)
      .execute();
    expect(actions.map((r) => r.action).sort()).toEqual([
      'collection_account.create',
      'collection_account.deactivate',
      'collection_account.rotate_callback',
    ]);
  });
});
