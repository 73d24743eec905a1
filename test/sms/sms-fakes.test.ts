/**
 * The gateway fakes refuse what the real gateways refuse, so a driver that drifts from the wire
 * format fails its tests instead of passing against a fake that accepts anything.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AFRICASTALKING_BASE_URL,
  AFRICASTALKING_SANDBOX_URL,
  africasTalkingBaseUrl,
} from '../../server/src/messaging/sms/africastalking.js';
import { AfricasTalkingFake } from '../fakes/africastalking-fake.js';
import { BeemFake } from '../fakes/beem-fake.js';
import { NextSmsFake } from '../fakes/nextsms-fake.js';

const beem = new BeemFake({ apiKey: 'k', secretKey: 's', senderIds: ['DUKA'] });
const at = new AfricasTalkingFake({ username: 'duka', apiKey: 'k', senderIds: ['DUKA'] });
const next = new NextSmsFake({ username: 'u', password: 'p', senderIds: ['DUKA'] });
beforeAll(async () => void (await Promise.all([beem.start(), at.start(), next.start()])));
afterAll(() => Promise.all([beem.stop(), at.stop(), next.stop()]));

const basic = (user: string, pass: string) => `Basic ${Buffer.from(`${user}:${pass}`).toString('base64')}`;

async function post(url: string, headers: Record<string, string>, body: string): Promise<{ status: number; body: string }> {
  const res = await fetch(url, { method: 'POST', headers, body });
  return { status: res.status, body: await res.text() };
}

describe('gateway fakes', () => {
  const beemBody = {
    source_addr: 'DUKA',
    encoding: 0,
    schedule_time: '',
    message: 'Habari',
    recipients: [{ recipient_id: 1, dest_addr: '255712345678' }],
  };

  it('Beem: refuses a missing field, a wrong encoding and a form body, and accepts the documented request', async () => {
    const headers = { authorization: basic('k', 's'), 'content-type': 'application/json' };
    const { recipients: _, ...noRecipients } = beemBody;
    expect((await post(`${beem.url}/v1/send`, headers, JSON.stringify(noRecipients))).status).toBe(400);
    expect((await post(`${beem.url}/v1/send`, headers, JSON.stringify({ ...beemBody, encoding: '0' }))).status).toBe(400);
    expect(
      (await post(`${beem.url}/v1/send`, { ...headers, 'content-type': 'application/x-www-form-urlencoded' }, 'message=Habari')).status,
    ).toBe(400);
    const ok = await post(`${beem.url}/v1/send`, headers, JSON.stringify(beemBody));
    expect(ok.status).toBe(200);
    expect(JSON.parse(ok.body)).toMatchObject({ successful: true, code: 100, valid: 1, invalid: 0 });
  });

  it("Africa's Talking: refuses a JSON body, a missing Accept and a number without +, and a wrong username", async () => {
    const headers = { apikey: 'k', accept: 'application/json', 'content-type': 'application/x-www-form-urlencoded' };
    const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
    expect((await post(`${at.url}/version1/messaging`, { ...headers, 'content-type': 'application/json' }, '{}')).status).toBe(415);
    expect(
      (
        await post(
          `${at.url}/version1/messaging`,
          { apikey: 'k', 'content-type': headers['content-type'] },
          form({ username: 'duka', to: '+255712345678', message: 'x' }),
        )
      ).status,
    ).toBe(406);
    const noPlus = await post(`${at.url}/version1/messaging`, headers, form({ username: 'duka', to: '255712345678', message: 'x' }));
    expect(JSON.parse(noPlus.body).SMSMessageData.Recipients[0]).toMatchObject({ statusCode: 403, status: 'InvalidPhoneNumber' });
    expect(
      (await post(`${at.url}/version1/messaging`, headers, form({ username: 'other', to: '+255712345678', message: 'x' }))).status,
    ).toBe(401);
  });

  it('NextSMS: refuses a missing text and a wrong password, and its reports need the login too', async () => {
    const headers = { authorization: basic('u', 'p'), 'content-type': 'application/json' };
    expect((await post(`${next.url}/api/sms/v1/text/single`, headers, JSON.stringify({ from: 'DUKA', to: '255712345678' }))).status).toBe(
      400,
    );
    expect((await post(`${next.url}/api/sms/v1/text/single`, { ...headers, authorization: basic('u', 'x') }, '{}')).status).toBe(401);
    expect((await fetch(`${next.url}/api/sms/v1/reports?messageId=1`)).status).toBe(401);
  });
});

describe("Africa's Talking host", () => {
  it('is the sandbox for the username sandbox, live otherwise, and the fake when a base URL is given', () => {
    const creds = { provider: 'africastalking' as const, apiKey: 'k', senderId: 'DUKA' };
    expect(africasTalkingBaseUrl({ ...creds, secret: 'sandbox' })).toBe(AFRICASTALKING_SANDBOX_URL);
    expect(africasTalkingBaseUrl({ ...creds, secret: 'duka' })).toBe(AFRICASTALKING_BASE_URL);
    expect(africasTalkingBaseUrl({ ...creds, secret: 'sandbox', baseUrl: 'http://127.0.0.1:1' })).toBe('http://127.0.0.1:1');
  });
});
