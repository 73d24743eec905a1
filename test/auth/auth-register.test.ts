import { Envelope, RegisterResult } from '@duka/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { e164, lastMessage, registerOwner, registrationBody, uniqueEmail, uniquePhone } from '../setup/factories.js';
import { createTestApp, type TestApp } from '../setup/test-app.js';

describe('POST /auth/register', () => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp()));
  afterAll(() => t.close());

  const counts = async () => {
    const n = async (table: 'organisations' | 'stores' | 'users') =>
      Number(
        (
          await t.db.db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    return { organisations: await n('organisations'), stores: await n('stores'), users: await n('users') };
  };

  it('creates an owner, organisation and store, and signs in at once (201)', async () => {
    const body = registrationBody({
      shop: { name: 'Duka la Juma', business_type: 'retail_wholesale', region: 'Dar es Salaam', district: 'kinondoni' },
    });
    const res = await t.request('POST', '/auth/register', { body });
    expect(res.status).toBe(201);
    const { data } = Envelope(RegisterResult).parse(res.body);
    expect(data.status).toBe('active');
    expect(data.tokens).toMatchObject({ token_type: 'Bearer', expires_in: 900 });

    const me = await t.request('GET', '/accounts/me', { token: data.tokens.access_token });
    expect(me.status).toBe(200);
    expect(me.body.data.user).toMatchObject({
      id: data.user_id,
      role: 'owner',
      phone: e164(body.phone),
      email: body.email,
      can_refund: true,
    });
    expect(me.body.data.organisation).toMatchObject({
      id: data.org_id,
      name: 'Duka la Juma',
      business_type: 'retail_wholesale',
      region: 'dar-es-salaam',
      district: 'Kinondoni',
    });
    expect(me.body.data.store).toMatchObject({ id: data.store_id, name: 'Duka la Juma', code: 'DLJ', vat_enabled: false, status: 'open' });
    expect(me.body.data.stores).toHaveLength(1);
  });

  it('keeps an unknown region and district as given', async () => {
    const s = await registerOwner(t, { shop: { name: 'Kibanda', region: 'Zanzibar Kusini', district: 'Makunduchi' } });
    const me = await t.request('GET', '/accounts/me', { token: s.token });
    expect(me.body.data.organisation).toMatchObject({ region: 'Zanzibar Kusini', district: 'Makunduchi' });
  });

  it('sends a welcome email with a confirmation link', async () => {
    const s = await registerOwner(t);
    const mail = await lastMessage(t, s.email);
    expect(mail).toMatchObject({ channel: 'email', subject: 'Welcome to Duka: confirm your email' });
    expect(mail!.body).toContain('/api/v1/auth/confirm-email?token=');
  });

  it('answers 409 DUPLICATE naming the field for a used phone (either form) or email, writing nothing', async () => {
    const first = await registerOwner(t);
    const before = await counts();
    const samePhone = await t.request('POST', '/auth/register', { body: registrationBody({ phone: e164(first.phone) }) });
    expect(samePhone.status).toBe(409);
    expect(samePhone.body.errors).toEqual([expect.objectContaining({ code: 'DUPLICATE', field: 'phone' })]);
    const sameEmail = await t.request('POST', '/auth/register', { body: registrationBody({ email: first.email.toUpperCase() }) });
    expect(sameEmail.status).toBe(409);
    expect(sameEmail.body.errors).toEqual([expect.objectContaining({ code: 'DUPLICATE', field: 'email' })]);
    expect(await counts()).toEqual(before);
  });

  it('lets exactly one of two simultaneous registrations with one phone succeed', async () => {
    const phone = uniquePhone();
    const before = await counts();
    const results = await Promise.all(
      [1, 2].map(() => t.request('POST', '/auth/register', { body: registrationBody({ phone, email: uniqueEmail() }) })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([201, 409]);
    expect(await counts()).toEqual({ organisations: before.organisations + 1, stores: before.stores + 1, users: before.users + 1 });
  });

  it('names every bad field as a dot path (400 VALIDATION_ERROR)', async () => {
    const res = await t.request('POST', '/auth/register', {
      body: {
        first_name: '',
        phone: '12',
        email: 'not-an-email',
        password: 'short',
        confirm_password: 'other',
        shop: { name: '', business_type: 'bakery', latitude: 200 },
      },
    });
    expect(res.status).toBe(400);
    const fields = res.body.errors.map((e: { field: string }) => e.field);
    expect(fields).toEqual(
      expect.arrayContaining(['first_name', 'phone', 'email', 'password', 'shop.name', 'shop.business_type', 'shop.latitude']),
    );
    expect(res.body.errors.every((e: { code: string }) => e.code === 'VALIDATION_ERROR')).toBe(true);
  });

  it('refuses mismatched passwords and weak passwords by field', async () => {
    const mismatch = await t.request('POST', '/auth/register', { body: registrationBody({ confirm_password: 'different1' }) });
    expect(mismatch.status).toBe(400);
    expect(mismatch.body.errors).toEqual([expect.objectContaining({ field: 'confirm_password' })]);
    const noDigit = await t.request('POST', '/auth/register', {
      body: registrationBody({ password: 'onlyletters', confirm_password: 'onlyletters' }),
    });
    expect(noDigit.body.errors).toEqual([expect.objectContaining({ field: 'password', message: 'must contain a digit' })]);
  });

  it('refuses a phone number that is not a real Tanzanian number', async () => {
    const res = await t.request('POST', '/auth/register', { body: registrationBody({ phone: '0000000000' }) });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([expect.objectContaining({ field: 'phone', message: 'is not a valid phone number' })]);
  });

  it('answers 400 for a body that is not JSON, and 415 without a JSON content type', async () => {
    const bad = await t.request('POST', '/auth/register', { raw: '{"first_name":', headers: { 'content-type': 'application/json' } });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ success: false, message: 'request body is not valid JSON' });
    const form = await t.request('POST', '/auth/register', {
      raw: 'first_name=Asha',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(form.status).toBe(415);
    expect(form.body.errors[0].code).toBe('UNSUPPORTED_MEDIA_TYPE');
  });
});
