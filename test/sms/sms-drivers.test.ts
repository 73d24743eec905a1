/**
 * The three SMS drivers against local fakes of their gateways: exactly what each gateway receives,
 * how each of its answers is classified (accepted, permanent, transient), and its delivery
 * reports. No database: this file runs the same in both projects.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { africasTalkingProvider } from '../../server/src/messaging/sms/africastalking.js';
import { beemProvider } from '../../server/src/messaging/sms/beem.js';
import { nextSmsProvider } from '../../server/src/messaging/sms/nextsms.js';
import { type CallbackInput, type SmsCredentials, type SmsProvider, SmsRejected } from '../../server/src/messaging/sms/index.js';
import { AfricasTalkingFake } from '../fakes/africastalking-fake.js';
import { BeemFake } from '../fakes/beem-fake.js';
import { HttpFake, json, type RecordedRequest, type Script } from '../fakes/http-fake.js';
import { NextSmsFake } from '../fakes/nextsms-fake.js';

const SWAHILI = 'Habari Amina, deni lako ni TZS 12,500. Tafadhali lipa kabla ya Ijumaa. Asante! - Duka la Mama Neema';
const PHONE = '255712345678';
const TIMEOUT_MS = 200;

async function rejection(promise: Promise<unknown>): Promise<SmsRejected> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(SmsRejected);
  return err as SmsRejected;
}

const asCallback = (req: RecordedRequest): CallbackInput => ({
  headers: Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(',') : v])),
  query: Object.fromEntries(new URL(req.url, 'http://x').searchParams),
  body: req.body,
  contentType: req.headers['content-type'],
});

/** Our side of a delivery-report callback: records what the provider fake posted. */
const receiver = new HttpFake(() => json(200, { ok: true }));
beforeAll(async () => void (await receiver.start()));
afterAll(() => receiver.stop());

const beemFake = new BeemFake({ apiKey: 'beem-key-1', secretKey: 'beem-secret-1', senderIds: ['DUKA'] });
const atFake = new AfricasTalkingFake({ username: 'duka', apiKey: 'at-key-1', senderIds: ['DUKA'] });
const nextFake = new NextSmsFake({ username: 'dukauser', password: 'next-pass-1', senderIds: ['DUKA'] });
beforeAll(async () => {
  await Promise.all([beemFake.start(), atFake.start(), nextFake.start()]);
});
afterAll(() => Promise.all([beemFake.stop(), atFake.stop(), nextFake.stop()]));

const beemCreds = (): SmsCredentials => ({
  provider: 'beem',
  apiKey: 'beem-key-1',
  secret: 'beem-secret-1',
  senderId: 'DUKA',
  baseUrl: beemFake.url,
});
const atCreds = (): SmsCredentials => ({
  provider: 'africastalking',
  apiKey: 'at-key-1',
  secret: 'duka',
  senderId: 'DUKA',
  baseUrl: atFake.url,
});
const nextCreds = (): SmsCredentials => ({
  provider: 'nextsms',
  apiKey: 'dukauser',
  secret: 'next-pass-1',
  senderId: 'DUKA',
  baseUrl: nextFake.url,
});

interface Case {
  name: string;
  driver: SmsProvider;
  fake: HttpFake;
  creds: () => SmsCredentials;
  badKeyReason: string;
  invalidNumberReason: string;
  badSenderReason: string;
  noBalance: { script: Script; reason: string };
}

const cases: Case[] = [
  {
    name: 'Beem',
    driver: beemProvider({ timeoutMs: TIMEOUT_MS }),
    fake: beemFake,
    creds: beemCreds,
    badKeyReason: 'Invalid Authentication Parameters',
    invalidNumberReason: 'Invalid phone number',
    badSenderReason: 'Invalid Sender Id',
    noBalance: { script: { reject: '102' }, reason: 'Insufficient balance' },
  },
  {
    name: "Africa's Talking",
    driver: africasTalkingProvider({ timeoutMs: TIMEOUT_MS }),
    fake: atFake,
    creds: atCreds,
    badKeyReason: 'The supplied authentication is invalid',
    invalidNumberReason: 'InvalidPhoneNumber',
    badSenderReason: 'InvalidSenderId',
    noBalance: { script: { reject: '405' }, reason: 'InsufficientBalance' },
  },
  {
    name: 'NextSMS',
    driver: nextSmsProvider({ timeoutMs: TIMEOUT_MS }),
    fake: nextFake,
    creds: nextCreds,
    badKeyReason: 'Invalid login details',
    invalidNumberReason: 'REJECTED_DESTINATION: Invalid destination address',
    badSenderReason: 'REJECTED_SENDER: Sender ID not registered',
    noBalance: { script: { reject: 'credits' }, reason: 'REJECTED_NOT_ENOUGH_CREDITS: Not enough credits' },
  },
];

describe.each(cases)('$name refusals', (c) => {
  const send = (creds: SmsCredentials, to = PHONE) => c.driver.send(creds, { to, text: SWAHILI, reference: 'outbox-1' });

  it('a bad key is permanent, in the provider’s words, and never carries the key', async () => {
    const err = await rejection(send({ ...c.creds(), apiKey: 'wrong-key', secret: c.creds().secret }));
    expect({ reason: err.reason, permanent: err.permanent }).toEqual({ reason: c.badKeyReason, permanent: true });
    const secret = await rejection(send({ ...c.creds(), secret: 'wrong-secret-value' }));
    expect(secret.permanent).toBe(true);
    for (const e of [err, secret]) expect(`${e.message} ${e.stack}`).not.toMatch(/wrong-key|wrong-secret-value|beem-secret-1|next-pass-1/);
  });

  it('an invalid number, an unknown sender id and an empty balance are permanent', async () => {
    const number = await rejection(send(c.creds(), '25571234'));
    expect({ reason: number.reason, permanent: number.permanent }).toEqual({ reason: c.invalidNumberReason, permanent: true });
    const sender = await rejection(send({ ...c.creds(), senderId: 'NOTMINE' }));
    expect({ reason: sender.reason, permanent: sender.permanent }).toEqual({ reason: c.badSenderReason, permanent: true });
    c.fake.next(c.noBalance.script);
    const balance = await rejection(send(c.creds()));
    expect({ reason: balance.reason, permanent: balance.permanent }).toEqual({ reason: c.noBalance.reason, permanent: true });
  });

  it('a 500, a dropped connection and a gateway that never answers are transient', async () => {
    c.fake.next('fail500', 'drop', 'hang');
    const server = await rejection(send(c.creds()));
    expect({ reason: server.reason, permanent: server.permanent }).toEqual({ reason: 'Internal Server Error', permanent: false });
    const dropped = await rejection(send(c.creds()));
    expect(dropped.permanent).toBe(false);
    expect(dropped.reason).toMatch(/could not be reached/);
    const started = Date.now();
    const hung = await rejection(send(c.creds()));
    expect({ reason: hung.reason, permanent: hung.permanent }).toEqual({
      reason: `${c.name}: no answer within ${TIMEOUT_MS} ms`,
      permanent: false,
    });
    // The deadline is the driver's, not the test runner's: it gives up long before 5 s.
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});

describe('Beem', () => {
  const beem = beemProvider({ timeoutMs: TIMEOUT_MS });

  it('sends one message as Beem documents it and keeps its request_id', async () => {
    const before = beemFake.requests.length;
    const accepted = await beem.send(beemCreds(), { to: PHONE, text: SWAHILI, reference: 'outbox-7' });
    const req = beemFake.requests[before]!;
    expect({ method: req.method, url: req.url, auth: req.headers.authorization, type: req.headers['content-type'] }).toEqual({
      method: 'POST',
      url: '/v1/send',
      auth: `Basic ${Buffer.from('beem-key-1:beem-secret-1').toString('base64')}`,
      type: 'application/json',
    });
    expect(JSON.parse(req.body)).toEqual({
      source_addr: 'DUKA',
      encoding: 0,
      schedule_time: '',
      message: SWAHILI,
      recipients: [{ recipient_id: 1, dest_addr: PHONE }],
    });
    expect(beemFake.sent.get(accepted.providerMessageId)?.message).toBe(SWAHILI);
    expect(accepted).toEqual({ providerMessageId: accepted.providerMessageId, segments: 1, costCents: null });
    expect(accepted.providerMessageId).toMatch(/^\d+$/);
  });

  it('reads Beem’s delivery reports as delivered or failed, and no other provider’s', async () => {
    const { providerMessageId: id } = await beem.send(beemCreds(), { to: PHONE, text: 'Asante', reference: 'outbox-8' });
    const before = receiver.requests.length;
    expect(await beemFake.deliver(id, 'DELIVERED', `${receiver.url}/sms/beem/s3cret`)).toBe(200);
    expect(await beemFake.deliver(id, 'UNDELIVERED', `${receiver.url}/sms/beem/s3cret`)).toBe(200);
    const [delivered, failed] = receiver.requests.slice(before).map(asCallback);
    expect(beem.parseDeliveryReport(delivered!)).toEqual([{ providerMessageId: id, state: 'delivered', detail: 'DELIVERED' }]);
    expect(beem.parseDeliveryReport(failed!)).toEqual([{ providerMessageId: id, state: 'failed', detail: 'UNDELIVERED' }]);
    const lower = { ...delivered!, body: JSON.stringify({ request_id: id, recipient_id: 1, dest_addr: PHONE, status: 'PENDING' }) };
    expect(beem.parseDeliveryReport(lower)).toEqual([{ providerMessageId: id, state: 'pending', detail: 'PENDING' }]);
    // The same states by polling, for an account whose callback URL is not set.
    const before2 = beemFake.requests.length;
    const polled = await beem.fetchDeliveryReports!(beemCreds(), [
      { providerMessageId: id, to: PHONE },
      { providerMessageId: '1', to: PHONE },
    ]);
    expect(polled).toEqual([{ providerMessageId: id, state: 'failed', detail: 'UNDELIVERED' }]);
    expect(beemFake.requests.slice(before2).map((r) => `${r.method} ${r.url} ${r.headers.authorization}`)).toEqual(
      [id, '1'].map(
        (r) =>
          `GET /public/v1/delivery-reports?dest_addr=${PHONE}&request_id=${r} Basic ${Buffer.from('beem-key-1:beem-secret-1').toString('base64')}`,
      ),
    );
    const atForm = 'id=ATXid_1&status=Success&phoneNumber=%2B255712345678&networkCode=64004&retryCount=0';
    expect(beem.parseDeliveryReport({ headers: {}, query: {}, body: atForm, contentType: 'application/x-www-form-urlencoded' })).toBeNull();
  });
});

describe("Africa's Talking", () => {
  const at = africasTalkingProvider({ timeoutMs: TIMEOUT_MS });

  it('posts the form it documents with the apiKey header and keeps id and cost', async () => {
    const before = atFake.requests.length;
    const accepted = await at.send(atCreds(), { to: PHONE, text: SWAHILI, reference: 'outbox-9' });
    const req = atFake.requests[before]!;
    expect({
      method: req.method,
      url: req.url,
      apikey: req.headers.apikey,
      accept: req.headers.accept,
      type: req.headers['content-type'],
    }).toEqual({
      method: 'POST',
      url: '/version1/messaging',
      apikey: 'at-key-1',
      accept: 'application/json',
      type: 'application/x-www-form-urlencoded',
    });
    expect(Object.fromEntries(new URLSearchParams(req.body))).toEqual({
      username: 'duka',
      to: `+${PHONE}`,
      message: SWAHILI,
      from: 'DUKA',
    });
    expect(accepted.providerMessageId).toMatch(/^ATXid_[0-9a-f]{32}$/);
    expect(accepted).toEqual({ providerMessageId: accepted.providerMessageId, segments: 1, costCents: 2000 });
  });

  it('a gateway fault on the recipient is transient', async () => {
    atFake.next({ reject: '501' });
    const err = await rejection(at.send(atCreds(), { to: PHONE, text: 'Asante', reference: 'outbox-10' }));
    expect({ reason: err.reason, permanent: err.permanent }).toEqual({ reason: 'GatewayError', permanent: false });
  });

  it('reads its form-encoded delivery reports, with the failure reason, and no other provider’s', async () => {
    const { providerMessageId: id } = await at.send(atCreds(), { to: PHONE, text: 'Asante', reference: 'outbox-11' });
    const before = receiver.requests.length;
    expect(await atFake.deliver(id, 'Success', `${receiver.url}/sms/at/s3cret`)).toBe(200);
    expect(await atFake.deliver(id, 'Failed', `${receiver.url}/sms/at/s3cret`, 'UserDoesNotExist')).toBe(200);
    const [delivered, failed] = receiver.requests.slice(before).map(asCallback);
    expect(at.parseDeliveryReport(delivered!)).toEqual([{ providerMessageId: id, state: 'delivered', detail: 'Success' }]);
    expect(at.parseDeliveryReport(failed!)).toEqual([{ providerMessageId: id, state: 'failed', detail: 'Failed: UserDoesNotExist' }]);
    const beemJson = JSON.stringify({ request_id: 5, recipient_id: 1, dest_addr: PHONE, Status: 'DELIVERED' });
    expect(at.parseDeliveryReport({ headers: {}, query: {}, body: beemJson, contentType: 'application/json' })).toBeNull();
  });
});

describe('NextSMS', () => {
  const next = nextSmsProvider({ timeoutMs: TIMEOUT_MS });

  it('sends JSON with our reference behind Basic auth and keeps its messageId and smsCount', async () => {
    const before = nextFake.requests.length;
    const accepted = await next.send(nextCreds(), { to: PHONE, text: SWAHILI, reference: 'outbox-12' });
    const req = nextFake.requests[before]!;
    expect({ method: req.method, url: req.url, auth: req.headers.authorization, type: req.headers['content-type'] }).toEqual({
      method: 'POST',
      url: '/api/sms/v1/text/single',
      auth: `Basic ${Buffer.from('dukauser:next-pass-1').toString('base64')}`,
      type: 'application/json',
    });
    expect(JSON.parse(req.body)).toEqual({ from: 'DUKA', to: PHONE, text: SWAHILI, reference: 'outbox-12' });
    expect(accepted).toEqual({ providerMessageId: accepted.providerMessageId, segments: 1, costCents: null });
    // Two curly quotes make 200 characters UCS-2: NextSMS bills ceil(200 / 67) = 3 parts.
    const long = await next.send(nextCreds(), { to: PHONE, text: `“${'a'.repeat(198)}”`, reference: 'outbox-13' });
    expect(long.segments).toBe(3);
  });

  it('polls the reports API for delivered and failed messages, leaving out ids it does not know', async () => {
    const a = await next.send(nextCreds(), { to: PHONE, text: 'Asante', reference: 'outbox-14' });
    const b = await next.send(nextCreds(), { to: '255754000111', text: 'Karibu', reference: 'outbox-15' });
    const c = await next.send(nextCreds(), { to: '255754000112', text: 'Karibu tena', reference: 'outbox-16' });
    nextFake.deliver(a.providerMessageId, 'DELIVERED');
    nextFake.deliver(b.providerMessageId, 'UNDELIVERABLE');
    const before = nextFake.requests.length;
    const sent = [a, b, c].map((m, i) => ({
      providerMessageId: m.providerMessageId,
      to: ['255712345678', '255754000111', '255754000112'][i]!,
    }));
    const reports = await next.fetchDeliveryReports!(nextCreds(), [...sent, { providerMessageId: '999', to: PHONE }]);
    expect(reports).toEqual([
      { providerMessageId: a.providerMessageId, state: 'delivered', detail: 'DELIVERED_TO_HANDSET: Message delivered to handset' },
      {
        providerMessageId: b.providerMessageId,
        state: 'failed',
        detail: 'UNDELIVERABLE_NOT_DELIVERED: Message sent not delivered; EC_ABSENT_SUBSCRIBER: Absent Subscriber',
      },
      { providerMessageId: c.providerMessageId, state: 'pending', detail: 'PENDING_ENROUTE: Message sent to next instance' },
    ]);
    const polls = nextFake.requests.slice(before);
    expect(polls.map((r) => `${r.method} ${r.url}`)).toEqual(
      [a, b, c].map((m) => `GET /api/sms/v1/reports?messageId=${m.providerMessageId}`).concat('GET /api/sms/v1/reports?messageId=999'),
    );
    expect(new Set(polls.map((r) => r.headers.authorization))).toEqual(
      new Set([`Basic ${Buffer.from('dukauser:next-pass-1').toString('base64')}`]),
    );
  });

  it('a bad password on the reports API is permanent, and NextSMS has no callbacks to parse', async () => {
    const err = await rejection(next.fetchDeliveryReports!({ ...nextCreds(), secret: 'nope' }, [{ providerMessageId: '1', to: PHONE }]));
    expect({ reason: err.reason, permanent: err.permanent }).toEqual({ reason: 'Invalid login details', permanent: true });
    const beemJson = JSON.stringify({ request_id: 5, recipient_id: 1, dest_addr: PHONE, Status: 'DELIVERED' });
    expect(next.parseDeliveryReport({ headers: {}, query: {}, body: beemJson, contentType: 'application/json' })).toBeNull();
  });
});
