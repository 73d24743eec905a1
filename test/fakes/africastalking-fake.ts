/**
 * A local Africa's Talking messaging API (`POST /version1/messaging`), checking what it checks and
 * answering in its words: the `apiKey` header and `username` (else 401 "The supplied
 * authentication is invalid"), `Accept: application/json`, a form body with `to` as +255…
 * (else recipient 403 InvalidPhoneNumber) and a registered `from` (else `InvalidSenderId` with
 * no recipients). `deliver` posts its form-encoded delivery report to a callback URL.
 */
import { randomBytes } from 'node:crypto';
import { type FakeAnswer, HttpFake, json, postCallback, type RecordedRequest } from './http-fake.js';

export interface AfricasTalkingAccount {
  username: string;
  apiKey: string;
  senderIds: string[];
}

/** Recipient refusals by statusCode, as the API names them. */
const RECIPIENT_STATUS: Record<string, string> = {
  '401': 'RiskHold',
  '402': 'InvalidSenderId',
  '403': 'InvalidPhoneNumber',
  '405': 'InsufficientBalance',
  '406': 'UserInBlacklist',
  '500': 'InternalServerError',
  '501': 'GatewayError',
};

const unauthorised: FakeAnswer = { status: 401, body: 'The supplied authentication is invalid', contentType: 'text/plain' };

export class AfricasTalkingFake extends HttpFake {
  readonly sent = new Map<string, { phoneNumber: string; message: string }>();

  constructor(readonly account: AfricasTalkingAccount) {
    super((req, scripted) => this.answerSend(req, scripted));
  }

  private answerSend(req: RecordedRequest, scripted: 'ok' | { reject: string }): FakeAnswer {
    if (req.method !== 'POST' || req.url !== '/version1/messaging') return { status: 404, body: 'Not Found' };
    if (req.headers.apikey !== this.account.apiKey) return unauthorised;
    if (req.headers.accept !== 'application/json')
      return { status: 406, body: 'Accept must be application/json for this fake', contentType: 'text/plain' };
    if (!req.headers['content-type']?.startsWith('application/x-www-form-urlencoded'))
      return { status: 415, body: 'Unsupported Media Type' };
    const form = new URLSearchParams(req.body);
    if (form.get('username') !== this.account.username) return unauthorised;
    const to = form.get('to');
    const message = form.get('message');
    if (!to || !message)
      return { status: 400, body: `Request is missing required form field '${!to ? 'to' : 'message'}'`, contentType: 'text/plain' };
    const from = form.get('from');
    if (from !== null && !this.account.senderIds.includes(from))
      return json(201, { SMSMessageData: { Message: 'InvalidSenderId', Recipients: [] } });
    const refusedWith = !/^\+255[67]\d{8}$/.test(to) ? '403' : scripted === 'ok' ? null : scripted.reject;
    if (refusedWith) {
      const status = RECIPIENT_STATUS[refusedWith];
      if (!status) throw new Error(`the Africa's Talking fake has no status ${refusedWith}`);
      return json(201, {
        SMSMessageData: {
          Message: 'Sent to 0/1 Total Cost: 0',
          Recipients: [{ statusCode: Number(refusedWith), number: to, status, cost: '0', messageId: 'None' }],
        },
      });
    }
    const messageId = `ATXid_${randomBytes(16).toString('hex')}`;
    this.sent.set(messageId, { phoneNumber: to, message });
    return json(201, {
      SMSMessageData: {
        Message: 'Sent to 1/1 Total Cost: TZS 20.0000',
        Recipients: [{ statusCode: 101, number: to, status: 'Success', cost: 'TZS 20.0000', messageId }],
      },
    });
  }

  /** Posts the delivery report (`Success`, `Failed`, `Rejected`, …) for a sent message. */
  async deliver(messageId: string, status: string, callbackUrl: string, failureReason?: string): Promise<number> {
    const sent = this.sent.get(messageId);
    if (!sent) throw new Error(`Africa's Talking never accepted ${messageId}`);
    const form = new URLSearchParams({ id: messageId, status, phoneNumber: sent.phoneNumber, networkCode: '64004', retryCount: '0' });
    if (failureReason) form.set('failureReason', failureReason);
    return postCallback(callbackUrl, form.toString(), 'application/x-www-form-urlencoded');
  }
}
