/**
 * A local Beem Africa SMS gateway (`POST /v1/send`), checking what Beem checks and answering in
 * Beem's words: Basic `api_key:secret_key` (else 401, code 120), a registered `source_addr` (else
 * code 111), `dest_addr` as 255… digits (else counted `invalid`), and the rest of the JSON body.
 * `deliver` posts Beem's delivery report for a sent message to the callback URL a test gives, and
 * sets what `GET /public/v1/delivery-reports?dest_addr=&request_id=` then answers.
 */
import { basicCredentials, type FakeAnswer, HttpFake, json, postCallback, type RecordedRequest } from './http-fake.js';

export interface BeemAccount {
  apiKey: string;
  secretKey: string;
  senderIds: string[];
}

const REFUSALS: Record<string, { status: number; code: number; message: string }> = {
  '102': { status: 400, code: 102, message: 'Insufficient balance' },
  '111': { status: 400, code: 111, message: 'Invalid Sender Id' },
  '120': { status: 401, code: 120, message: 'Invalid Authentication Parameters' },
};

const refuse = (code: string): FakeAnswer => {
  const r = REFUSALS[code];
  if (!r) throw new Error(`the Beem fake has no refusal ${code}`);
  // Beem answers a bad login at the top level and other refusals inside `data`.
  return r.code === 120
    ? json(r.status, { code: r.code, message: r.message })
    : json(r.status, { data: { code: r.code, message: r.message } });
};

export class BeemFake extends HttpFake {
  readonly sent = new Map<string, { recipient_id: unknown; dest_addr: string; message: string; status: string }>();
  private nextRequestId = 48_210_000;

  constructor(readonly account: BeemAccount) {
    super((req, scripted) => this.answerSend(req, scripted));
  }

  private answerSend(req: RecordedRequest, scripted: 'ok' | { reject: string }): FakeAnswer {
    const auth = basicCredentials(req.headers.authorization);
    if (!auth || auth[0] !== this.account.apiKey || auth[1] !== this.account.secretKey) return refuse('120');
    const url = new URL(req.url, 'http://fake');
    if (req.method === 'GET' && url.pathname === '/public/v1/delivery-reports') return this.answerReport(url.searchParams);
    if (req.method !== 'POST' || req.url !== '/v1/send') return json(404, { message: 'Not Found' });
    if (!req.headers['content-type']?.startsWith('application/json'))
      return json(400, { data: { code: 104, message: 'Content-Type must be application/json' } });
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(req.body) as Record<string, unknown>;
    } catch {
      return json(400, { data: { code: 104, message: 'Invalid JSON' } });
    }
    for (const field of ['source_addr', 'encoding', 'schedule_time', 'message', 'recipients']) {
      if (!(field in body)) return json(400, { data: { code: 104, message: `Missing ${field}` } });
    }
    if (body.encoding !== 0 || typeof body.schedule_time !== 'string')
      return json(400, { data: { code: 104, message: 'Invalid encoding or schedule_time' } });
    if (typeof body.message !== 'string' || body.message.length === 0)
      return json(400, { data: { code: 104, message: 'Missing message' } });
    if (!this.account.senderIds.includes(String(body.source_addr))) return refuse('111');
    const recipients = body.recipients;
    if (!Array.isArray(recipients) || recipients.length !== 1) return json(400, { data: { code: 104, message: 'Invalid recipients' } });
    const recipient = recipients[0] as { recipient_id?: unknown; dest_addr?: unknown };
    if (recipient.recipient_id === undefined) return json(400, { data: { code: 104, message: 'Missing recipient_id' } });
    if (scripted !== 'ok') return refuse(scripted.reject);
    const requestId = this.nextRequestId++;
    const valid = typeof recipient.dest_addr === 'string' && /^255[67]\d{8}$/.test(recipient.dest_addr);
    if (valid)
      this.sent.set(String(requestId), {
        recipient_id: recipient.recipient_id,
        dest_addr: recipient.dest_addr as string,
        message: body.message,
        status: 'PENDING',
      });
    return json(200, {
      successful: true,
      request_id: requestId,
      code: 100,
      message: 'Message Submitted Successfully',
      valid: valid ? 1 : 0,
      invalid: valid ? 0 : 1,
      duplicates: 0,
    });
  }

  private answerReport(query: URLSearchParams): FakeAnswer {
    const requestId = query.get('request_id');
    const destAddr = query.get('dest_addr');
    if (!requestId || !destAddr) return json(400, { data: { code: 104, message: 'request_id and dest_addr are required' } });
    const sent = this.sent.get(requestId);
    if (!sent || sent.dest_addr !== destAddr) return json(200, []);
    return json(200, [{ dest_addr: destAddr, request_id: Number(requestId), status: sent.status }]);
  }

  /** Posts Beem's delivery report (`DELIVERED`, `UNDELIVERED`, `PENDING`, …) for a sent message. */
  async deliver(requestId: string, status: string, callbackUrl: string): Promise<number> {
    const sent = this.sent.get(requestId);
    if (!sent) throw new Error(`Beem never accepted request ${requestId}`);
    sent.status = status;
    const report = { request_id: Number(requestId), recipient_id: sent.recipient_id, dest_addr: sent.dest_addr, Status: status };
    return postCallback(callbackUrl, JSON.stringify(report), 'application/json');
  }
}
