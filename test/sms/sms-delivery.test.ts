/**
 * Real SMS end to end: the outbox hands messages to the gateways' drivers, and local fakes of Beem,
 * Africa's Talking and NextSMS check what they receive. The platform's account is Africa's
 * Talking; shops set their own Beem or NextSMS account. Delivery reports come back through the
 * public callback route over real HTTP, or by polling.
 */
import { CreditMessage, CreditProfile, Envelope, SmsAccount } from '@duka/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../server/src/lib/logger.js';
import { platformReportsToken } from '../../server/src/messaging/sms/delivery-reports.js';
import { AfricasTalkingFake } from '../fakes/africastalking-fake.js';
import { BeemFake } from '../fakes/beem-fake.js';
import { basicCredentials, postCallback } from '../fakes/http-fake.js';
import { NextSmsFake } from '../fakes/nextsms-fake.js';
import { codeIn, e164, insertCreditSale, insertSale, registerOwner, type Session, uniquePhone } from '../setup/factories.js';
import { createTestApp, type Listening, listen, type TestApp } from '../setup/test-app.js';

const BEEM = { apiKey: 'neema-beem-key-81c2', secretKey: 'neema-beem-secret-4f0a', senderIds: ['NEEMA'] };
const PLATFORM = { username: 'duka', apiKey: 'duka-at-key-77d1', senderIds: ['DUKA'] };
const NEXT = { username: 'neema-next', password: 'next-pass-22b9', senderIds: ['NEEMA'] };

describe('SMS through the gateways', () => {
  let t: TestApp;
  let http: Listening;
  const beem = new BeemFake(BEEM);
  const at = new AfricasTalkingFake(PLATFORM);
  const next = new NextSmsFake(NEXT);

  beforeAll(async () => {
    await Promise.all([beem.start(), at.start(), next.start()]);
    t = await createTestApp({
      config: {
        SMS_PROVIDER: 'africastalking',
        SMS_API_KEY: PLATFORM.apiKey,
        SMS_API_SECRET: PLATFORM.username,
        SMS_SENDER_ID: 'DUKA',
        SMS_BEEM_URL: beem.url,
        SMS_AFRICASTALKING_URL: at.url,
        SMS_NEXTSMS_URL: next.url,
        SMS_TIMEOUT_MS: 300,
      },
    });
    http = await listen(t);
  });
  afterAll(async () => {
    await http.close();
    await Promise.all([beem.stop(), at.stop(), next.stop()]);
    await t.close();
  });

  const ownAccount = async (owner: Session, account: Record<string, string>) => {
    const res = await t.request('PATCH', '/accounts/organisation', { token: owner.token, body: { sms_sender_id: 'NEEMA', ...account } });
    expect(res.status, res.text).toBe(200);
  };
  const debtor = async (owner: Session, owed: number) => {
    const res = await t.request('POST', '/customers', { token: owner.token, body: { name: 'Selemani', phone: uniquePhone() } });
    expect(res.status, res.text).toBe(200);
    await insertCreditSale(t, { orgId: owner.orgId, storeId: owner.storeId, customerId: res.body.data.id, total: owed });
    return res.body.data as { id: string; phone: string };
  };
  const remind = async (owner: Session, customerId: string) => {
    const res = await t.request('POST', `/credits/customers/${customerId}/remind`, { token: owner.token });
    expect(res.status, res.text).toBe(200);
    return { message: res.body.message as string, data: Envelope(CreditMessage).parse(res.body).data };
  };
  const reminders = async (owner: Session, customerId: string) => {
    const res = await t.request('GET', `/credits/customers/${customerId}`, { token: owner.token });
    return Envelope(CreditProfile).parse(res.body).data.messages;
  };
  const outbox = (recipient: string) =>
    t.db.db.selectFrom('outbox').selectAll().where('recipient', '=', recipient).orderBy('created_at', 'desc').executeTakeFirstOrThrow();
  /** The callback URL an owner pastes into the gateway's dashboard, on this test's real HTTP origin. */
  const reportUrl = async (owner: Session) => {
    const account = Envelope(SmsAccount).parse((await t.request('GET', '/sms/account', { token: owner.token })).body).data;
    return account.delivery_report_url!.replace(/^https?:\/\/[^/]+/, http.origin);
  };

  it("texts a reminder on the shop's own Beem account, and Beem's delivery report marks it delivered", async () => {
    const owner = await registerOwner(t);
    await ownAccount(owner, { sms_provider: 'beem', sms_api_key: BEEM.apiKey, sms_api_secret: BEEM.secretKey });
    const customer = await debtor(owner, 17_500);
    const platformBefore = at.requests.length;

    const { data, message } = await remind(owner, customer.id);
    expect(message).toBe('reminder sent');
    expect(data).toMatchObject({ status: 'sent', delivery: 'pending', failure_reason: null });

    const sent = beem.requests.at(-1)!;
    expect(basicCredentials(sent.headers.authorization)).toEqual([BEEM.apiKey, BEEM.secretKey]);
    const body = JSON.parse(sent.body);
    expect(body).toMatchObject({
      source_addr: 'NEEMA',
      encoding: 0,
      message: data.body,
      recipients: [{ dest_addr: e164(customer.phone).slice(1) }],
    });
    expect(data.body).toContain('deni lako');
    expect(data.body).toContain('TZS 17,500');
    expect(at.requests.length).toBe(platformBefore);

    const row = await outbox(e164(customer.phone));
    expect(row).toMatchObject({ status: 'sent', account: 'organisation', provider: 'beem', delivery_status: 'pending', for_customer: 1 });
    expect(Number(row.segments)).toBe(2);

    const url = await reportUrl(owner);
    expect(url).toContain('/api/v1/sms/reports/beem/');
    expect(await beem.deliver(row.provider_message_id!, 'DELIVERED', url)).toBe(200);
    expect((await reminders(owner, customer.id))[0]).toMatchObject({ id: data.id, status: 'sent', delivery: 'delivered' });
    // A repeated report changes nothing; a wrong token is a missing route.
    expect(await beem.deliver(row.provider_message_id!, 'UNDELIVERED', url)).toBe(200);
    expect((await outbox(e164(customer.phone))).delivery_status).toBe('delivered');
    expect(await beem.deliver(row.provider_message_id!, 'DELIVERED', url.replace(/[^/]+$/, 'x'.repeat(43)))).toBe(404);

    const usage = Envelope(SmsAccount).parse((await t.request('GET', '/sms/account', { token: owner.token })).body).data;
    expect(usage).toMatchObject({
      own_account: true,
      provider: 'beem',
      sender_id: 'NEEMA',
      usage: { own_account: { messages: 1, segments: 2, cost: null }, platform: { messages: 0, segments: 0 } },
    });
  });

  it('writes the delivery-report URL without its token in the request log, for a good token and a wrong one', async () => {
    const owner = await registerOwner(t);
    await ownAccount(owner, { sms_provider: 'beem', sms_api_key: BEEM.apiKey, sms_api_secret: BEEM.secretKey });
    const url = await reportUrl(owner);
    const token = url.split('/').at(-1)!;
    const lines: string[] = [];
    const quiet = t.deps.log;
    t.deps.log = createLogger('info', { write: (line: string) => void lines.push(line) });
    try {
      // Beem's report for a message this shop never sent: taken, and nothing changes.
      const report = JSON.stringify({ request_id: 991, recipient_id: 1, dest_addr: '255754000111', Status: 'DELIVERED' });
      expect(await postCallback(url, report, 'application/json')).toBe(200);
      expect(await postCallback(url.replace(/[^/]+$/, 'y'.repeat(43)), report, 'application/json')).toBe(404);
    } finally {
      t.deps.log = quiet;
    }
    const requests = lines.map((l) => JSON.parse(l)).filter((l) => l.msg === 'request');
    expect(requests.map((r) => [r.path, r.status])).toEqual([
      ['/api/v1/sms/reports/beem/[redacted]', 200],
      ['/api/v1/sms/reports/beem/[redacted]', 404],
    ]);
    expect(lines.filter((l) => l.includes(token) || l.includes('y'.repeat(43)))).toEqual([]);
  });

  it("takes a report only on the URL of the account that sent the message: another shop's URL or the platform's changes nothing", async () => {
    // Two shops on Beem, even with the same key: each gets its own URL.
    const [a, b] = [await registerOwner(t), await registerOwner(t)];
    for (const owner of [a, b]) await ownAccount(owner, { sms_provider: 'beem', sms_api_key: BEEM.apiKey, sms_api_secret: BEEM.secretKey });
    const [urlA, urlB] = [await reportUrl(a), await reportUrl(b)];
    expect(urlA).not.toBe(urlB);
    expect(urlA).toContain(`/api/v1/sms/reports/beem/${a.orgId}.`);

    const saleId = await insertSale(t, { orgId: a.orgId, storeId: a.storeId, total: 4_000, paymentMethod: 'Cash', status: 'paid' });
    const phone = uniquePhone();
    expect((await t.request('POST', `/pos/transactions/${saleId}/receipt`, { token: a.token, body: { phone } })).status).toBe(200);
    const row = await outbox(e164(phone));
    expect(row).toMatchObject({ account: 'organisation', org_id: a.orgId, provider: 'beem', delivery_status: 'pending' });
    const forged = JSON.stringify({ request_id: Number(row.provider_message_id), dest_addr: e164(phone).slice(1), Status: 'UNDELIVERED' });
    const post = (url: string) => fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: forged });

    // B names A's message on B's own URL, and on the platform's Beem URL: the same answer as for a
    // message that does not exist, and A's message stays pending.
    const platformBeem = `${http.origin}/api/v1/sms/reports/beem/${platformReportsToken(t.deps.keys, 'beem')}`;
    for (const url of [urlB, platformBeem]) {
      const res = await post(url);
      expect(res.status).toBe(200);
      expect(((await res.json()) as { message: string }).message).toBe('0 delivery report(s) applied');
    }
    expect((await outbox(e164(phone))).delivery_status).toBe('pending');
    // A token made of another shop's id and B's digest, or of A's id and a guess, is a missing route.
    expect((await post(urlB.replace(b.orgId, a.orgId))).status).toBe(404);
    expect((await post(urlA.replace(/[^.]+$/, 'x'.repeat(43)))).status).toBe(404);

    // On A's own URL it applies.
    const res = await post(urlA);
    expect(((await res.json()) as { message: string }).message).toBe('1 delivery report(s) applied');
    expect((await outbox(e164(phone))).delivery_status).toBe('failed');

    // A new key is a new URL; the old one stops working.
    await ownAccount(a, { sms_provider: 'beem', sms_api_key: 'neema-beem-key-rotated', sms_api_secret: BEEM.secretKey });
    const rotated = await reportUrl(a);
    expect(rotated).not.toBe(urlA);
    expect((await post(urlA)).status).toBe(404);
    expect((await post(rotated)).status).toBe(200);
  });

  it("shows a refused key as failed with Beem's words, never retries it, and never sends it through the platform", async () => {
    const owner = await registerOwner(t);
    await ownAccount(owner, { sms_provider: 'beem', sms_api_key: 'wrong-key', sms_api_secret: BEEM.secretKey });
    const customer = await debtor(owner, 5_000);
    const [beemBefore, platformBefore] = [beem.requests.length, at.requests.length];

    const { data, message } = await remind(owner, customer.id);
    expect(data).toMatchObject({ status: 'failed', delivery: null });
    expect(data.failure_reason).toContain('Invalid Authentication Parameters');
    expect(message).toBe(`the SMS gateway refused the reminder: ${data.failure_reason}`);
    expect((await outbox(e164(customer.phone))).status).toBe('rejected');

    t.clock.advance(600_000);
    await t.deps.messenger.retryFailed();
    expect(beem.requests.length).toBe(beemBefore + 1);
    expect(at.requests.length).toBe(platformBefore);
    expect((await reminders(owner, customer.id))[0]).toMatchObject({ status: 'failed' });
  });

  it('keeps a reminder pending through a gateway outage and sends it on the retry after the backoff', async () => {
    const owner = await registerOwner(t);
    await ownAccount(owner, { sms_provider: 'beem', sms_api_key: BEEM.apiKey, sms_api_secret: BEEM.secretKey });
    const customer = await debtor(owner, 8_000);
    beem.next('fail500', 'hang');
    const before = beem.requests.length;

    const first = await remind(owner, customer.id);
    expect(first.data).toMatchObject({ status: 'pending' });
    expect(first.message).toContain('it will be retried');
    let row = await outbox(e164(customer.phone));
    expect(row).toMatchObject({ status: 'failed', attempts: 1 });
    expect(Number(row.next_attempt_at) - t.clock.now()).toBe(30_000);

    await t.deps.messenger.retryFailed(); // too soon: nothing is sent
    expect(beem.requests.length).toBe(before + 1);
    t.clock.advance(30_000);
    await t.deps.messenger.retryFailed(); // the gateway hangs past SMS_TIMEOUT_MS: retried later again
    row = await outbox(e164(customer.phone));
    expect(row).toMatchObject({ status: 'failed', attempts: 2 });
    expect(Number(row.next_attempt_at) - t.clock.now()).toBe(120_000);

    t.clock.advance(120_000);
    await t.deps.messenger.retryFailed();
    expect(beem.requests.length).toBe(before + 3);
    expect(await outbox(e164(customer.phone))).toMatchObject({ status: 'sent', attempts: 3, provider: 'beem' });
    expect((await reminders(owner, customer.id))[0]).toMatchObject({ id: first.data.id, status: 'sent', delivery: 'pending' });
  });

  it("sends codes through the platform's Africa's Talking account, redacts them once sent, and takes its delivery reports", async () => {
    const owner = await registerOwner(t);
    await ownAccount(owner, { sms_provider: 'beem', sms_api_key: BEEM.apiKey, sms_api_secret: BEEM.secretKey });
    const [beemBefore, platformBefore] = [beem.requests.length, at.requests.length];
    expect((await t.request('POST', '/auth/otp/send', { body: { phone: owner.phone, purpose: 'login' } })).status).toBe(200);
    // Sent after the answer (the code's delivery never holds up the request).
    await expect.poll(async () => (await outbox(e164(owner.phone))).status).toBe('sent');
    expect(at.requests.length).toBe(platformBefore + 1);

    const sent = at.requests.at(-1)!;
    expect(sent.headers.apikey).toBe(PLATFORM.apiKey);
    const form = new URLSearchParams(sent.body);
    expect(form.get('username')).toBe('duka');
    expect(form.get('to')).toBe(e164(owner.phone));
    expect(form.get('from')).toBe('DUKA');
    expect(codeIn(form.get('message')!)).toMatch(/^\d{6}$/);
    expect(beem.requests.length).toBe(beemBefore);

    const row = await outbox(e164(owner.phone));
    expect(row).toMatchObject({
      status: 'sent',
      account: 'platform',
      provider: 'africastalking',
      body: '[redacted after delivery]',
      for_customer: 0,
      cost_cents: 2000,
    });

    const url = `${http.origin}/api/v1/sms/reports/africastalking/${platformReportsToken(t.deps.keys, 'africastalking')}`;
    expect(await at.deliver(row.provider_message_id!, 'Failed', url, 'AbsentSubscriber')).toBe(200);
    expect(await outbox(e164(owner.phone))).toMatchObject({
      delivery_status: 'failed',
      delivery_detail: expect.stringContaining('AbsentSubscriber'),
    });
  });

  it("texts a short receipt on the shop's NextSMS account, and polls NextSMS for its delivery", async () => {
    const owner = await registerOwner(t);
    await ownAccount(owner, { sms_provider: 'nextsms', sms_api_key: NEXT.username, sms_api_secret: NEXT.password });
    const saleId = await insertSale(t, {
      orgId: owner.orgId,
      storeId: owner.storeId,
      total: 12_500,
      paymentMethod: 'M-Pesa',
      status: 'paid',
    });
    const phone = uniquePhone();

    const res = await t.request('POST', `/pos/transactions/${saleId}/receipt`, { token: owner.token, body: { phone } });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({
      message: `receipt sent to ${e164(phone)}`,
      data: { channel: 'sms', phone: e164(phone), email: null, delivered: true, failure_reason: null },
    });
    const sent = next.requests.at(-1)!;
    expect(basicCredentials(sent.headers.authorization)).toEqual([NEXT.username, NEXT.password]);
    const body = JSON.parse(sent.body);
    expect(body).toMatchObject({ from: 'NEEMA', to: e164(phone).slice(1) });
    expect(body.text).toMatch(/Risiti\/Receipt \S+ .* Jumla\/Total TZS 12,500 \(M-Pesa\)\. Asante! \/ Thank you!$/);

    const row = await outbox(e164(phone));
    next.deliver(row.provider_message_id!, 'DELIVERED');
    expect(await t.deps.sms.pollReports()).toBe(0); // not before a minute has passed
    t.clock.advance(61_000);
    expect(await t.deps.sms.pollReports()).toBe(1);
    expect(await outbox(e164(phone))).toMatchObject({ delivery_status: 'delivered', account: 'organisation', provider: 'nextsms' });
  });

  it('refuses a receipt with both or neither of email and phone (400), sending nothing', async () => {
    const owner = await registerOwner(t);
    const saleId = await insertSale(t, { orgId: owner.orgId, storeId: owner.storeId, total: 1_000, paymentMethod: 'Cash', status: 'paid' });
    for (const body of [{}, { email: 'a@duka.test', phone: uniquePhone() }]) {
      const res = await t.request('POST', `/pos/transactions/${saleId}/receipt`, { token: owner.token, body });
      expect(res.status, res.text).toBe(400);
      expect(res.body.errors[0]).toMatchObject({ field: 'email', message: expect.stringContaining('either email or phone') });
    }
  });

  it("counts customer SMS on the platform's account against the plan (402 PLAN_LIMIT), but not those on the shop's own account", async () => {
    const owner = await registerOwner(t);
    const customer = await debtor(owner, 3_000);
    await t.db.db.updateTable('plans').set({ sms_monthly: 1 }).where('code', '=', 'free').execute();
    try {
      expect((await remind(owner, customer.id)).data.status).toBe('sent');
      const refused = await t.request('POST', `/credits/customers/${customer.id}/remind`, { token: owner.token });
      expect(refused.status).toBe(402);
      expect(refused.body.errors[0]).toMatchObject({ code: 'PLAN_LIMIT', field: 'sms' });
      expect(refused.body.message).toMatch(/biashara/i);
      const current = (await t.request('GET', '/subscriptions/current', { token: owner.token })).body.data.usage;
      expect(current).toContainEqual({ limit: 'sms', used: 1, max: 1 });

      await ownAccount(owner, { sms_provider: 'beem', sms_api_key: BEEM.apiKey, sms_api_secret: BEEM.secretKey });
      expect((await remind(owner, customer.id)).data.status).toBe('sent');
    } finally {
      await t.db.db.updateTable('plans').set({ sms_monthly: 50 }).where('code', '=', 'free').execute();
    }
  });

  it('documents the SMS routes and the receipt by SMS in OpenAPI', async () => {
    const doc = (await t.request('GET', '/openapi.json')).body;
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/sms/account', '/sms/reports/{provider}/{token}']));
    expect(doc.components.schemas.ReceiptInput.properties).toHaveProperty('phone');
    expect(doc.components.schemas.Organisation.properties).toHaveProperty('sms_provider');
  });
});
