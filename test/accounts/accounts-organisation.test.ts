import { Envelope, Organisation } from '@duka/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { e164, registerOwner, uniquePhone, type Session } from '../setup/factories.js';
import { createTestApp, type TestApp } from '../setup/test-app.js';

describe('/accounts/organisation', () => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp()));
  afterAll(() => t.close());

  const patch = (s: Session, body: unknown) => t.request('PATCH', '/accounts/organisation', { token: s.token, body });
  const orgRow = (id: string) => t.db.db.selectFrom('organisations').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const changes = (orgId: string) =>
    t.db.db
      .selectFrom('change_log')
      .select(['version', 'entity', 'entity_id', 'op', 'store_id'])
      .where('org_id', '=', orgId)
      .orderBy('version')
      .execute();

  it('answers the organisation as registered', async () => {
    const owner = await registerOwner(t, {
      shop: { name: 'Duka la Mama Neema', business_type: 'pharmacy', region: 'arusha', district: 'Arusha' },
    });
    const res = await t.request('GET', '/accounts/organisation', { token: owner.token });
    expect(res.status).toBe(200);
    const { data } = Envelope(Organisation).parse(res.body);
    expect(data).toMatchObject({
      id: owner.orgId,
      name: 'Duka la Mama Neema',
      business_type: 'pharmacy',
      region: 'arusha',
      phone: e164(owner.phone),
      email: owner.email,
      sms_api_key_set: false,
      aigateway_api_key_set: false,
      timezone: 'Africa/Dar_es_Salaam',
      currency: 'TZS',
      credit_terms_days: 30,
    });
    expect(res.body.data).not.toHaveProperty('sms_api_key');
    expect(res.body.data).not.toHaveProperty('aigateway_api_key');
  });

  it('updates fields and normalises the phone to +255…', async () => {
    const owner = await registerOwner(t);
    const phone = uniquePhone();
    const res = await patch(owner, {
      name: 'Neema Traders',
      legal_name: 'Neema Traders Ltd',
      tin: '123-456-789',
      credit_terms_days: 14,
      phone,
      sms_sender_id: 'NEEMA',
      district: null,
    });
    expect(res.status).toBe(200);
    const expected = {
      name: 'Neema Traders',
      legal_name: 'Neema Traders Ltd',
      tin: '123-456-789',
      credit_terms_days: 14,
      phone: e164(phone),
      sms_sender_id: 'NEEMA',
      district: null,
    };
    expect(e164(phone)).toMatch(/^\+255\d{9}$/);
    expect(Envelope(Organisation).parse(res.body).data).toMatchObject(expected);
    expect((await t.request('GET', '/accounts/organisation', { token: owner.token })).body.data).toMatchObject(expected);
  });

  it('refuses a phone that is not a valid number (400 naming phone)', async () => {
    const owner = await registerOwner(t);
    const res = await patch(owner, { phone: '0000000000' });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([expect.objectContaining({ code: 'VALIDATION_ERROR', field: 'phone' })]);
    expect((await orgRow(owner.orgId)).phone).toBe(e164(owner.phone));
  });

  it('keeps integration keys write-only: stored encrypted, answered as *_set flags, cleared by null', async () => {
    const owner = await registerOwner(t);
    const smsKey = 'beem-live-key-5f2a9c71';
    const aiKey = 'sk-gateway-0e4d8b2f63';
    const smsSecret = 'beem-secret-77e1d0';
    const half = await patch(owner, { sms_api_key: smsKey });
    expect(half.status).toBe(400);
    expect(half.body.errors).toEqual([expect.objectContaining({ code: 'VALIDATION_ERROR', field: 'sms_provider' })]);
    expect((await orgRow(owner.orgId)).sms_api_key_enc).toBeNull();

    const set = await patch(owner, {
      sms_provider: 'beem',
      sms_api_key: smsKey,
      sms_api_secret: smsSecret,
      sms_sender_id: 'NEEMA',
      aigateway_api_key: aiKey,
    });
    expect(set.status, set.text).toBe(200);
    expect(Envelope(Organisation).parse(set.body).data).toMatchObject({
      sms_provider: 'beem',
      sms_api_key_set: true,
      sms_api_secret_set: true,
      aigateway_api_key_set: true,
    });
    expect(set.text).not.toContain(smsSecret);
    expect(set.text).not.toContain(smsKey);
    expect(set.text).not.toContain(aiKey);

    const row = await orgRow(owner.orgId);
    expect(row.sms_api_key_enc).toBeTruthy();
    expect(row.sms_api_key_enc).not.toContain(smsKey);
    expect(row.aigateway_api_key_enc).toBeTruthy();
    expect(row.aigateway_api_key_enc).not.toContain(aiKey);

    const get = await t.request('GET', '/accounts/organisation', { token: owner.token });
    expect(get.body.data).toMatchObject({ sms_api_key_set: true, aigateway_api_key_set: true });
    expect(get.text).not.toContain(smsKey);
    expect(get.text).not.toContain(aiKey);

    const cleared = await patch(owner, { sms_api_key: null });
    expect(cleared.status).toBe(200);
    expect(cleared.body.data).toMatchObject({ sms_api_key_set: false, aigateway_api_key_set: true });
    const after = await orgRow(owner.orgId);
    expect(after.sms_api_key_enc).toBeNull();
    expect(after.aigateway_api_key_enc).toBe(row.aigateway_api_key_enc);
  });

  it('refuses an unknown time zone (400 naming timezone), changing nothing', async () => {
    const owner = await registerOwner(t);
    const before = await orgRow(owner.orgId);
    const res = await patch(owner, { name: 'Should Not Stick', timezone: 'Africa/Atlantis' });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([expect.objectContaining({ code: 'VALIDATION_ERROR', field: 'timezone' })]);
    const after = await orgRow(owner.orgId);
    expect(after).toMatchObject({ name: before.name, timezone: 'Africa/Dar_es_Salaam', version: before.version });

    const ok = await patch(owner, { timezone: 'Africa/Nairobi' });
    expect(ok.status).toBe(200);
    expect(ok.body.data.timezone).toBe('Africa/Nairobi');
  });

  // Staff, managers and no token: test/api/access-rules.test.ts.
  it("bumps the organisation's version and writes a change_log row on each PATCH", async () => {
    const owner = await registerOwner(t);
    const v0 = Number((await orgRow(owner.orgId)).version);
    const logged0 = (await changes(owner.orgId)).length;

    expect((await patch(owner, { legal_name: 'First Ltd' })).status).toBe(200);
    expect(
      (await patch(owner, { sms_provider: 'nextsms', sms_api_key: 'k-123456', sms_api_secret: 's-654321', sms_sender_id: 'DUKA' })).status,
    ).toBe(200);

    expect(Number((await orgRow(owner.orgId)).version)).toBe(v0 + 2);
    const log = await changes(owner.orgId);
    expect(log).toHaveLength(logged0 + 2);
    expect(log.slice(-2).map((c) => ({ ...c, version: Number(c.version) }))).toEqual([
      { version: v0 + 1, entity: 'organisation', entity_id: owner.orgId, op: 'upsert', store_id: null },
      { version: v0 + 2, entity: 'organisation', entity_id: owner.orgId, op: 'upsert', store_id: null },
    ]);
  });

  it("registration logged the store and the organisation with consecutive versions, and another organisation's PATCH does not touch them", async () => {
    const owner = await registerOwner(t);
    const other = await registerOwner(t);
    expect((await patch(other, { legal_name: 'Other Ltd' })).status).toBe(200);

    const log = (await changes(owner.orgId)).map((c) => ({ ...c, version: Number(c.version) }));
    expect(log).toEqual([
      { version: 1, entity: 'store', entity_id: owner.storeId, op: 'upsert', store_id: owner.storeId },
      { version: 2, entity: 'organisation', entity_id: owner.orgId, op: 'upsert', store_id: null },
    ]);
    expect(Number((await orgRow(owner.orgId)).version)).toBe(2);
  });
});
