/**
 * A local AzamPay (authenticator and checkout on one server), checking what AzamPay checks and
 * answering in its words: `POST /AppRegistration/GenerateToken` with the app's `appName`,
 * `clientId` and `clientSecret` (else 423), and `POST /azampay/mno/checkout` with a live token
 * this fake issued (else 401), the API key, and every field in its format (else 400). `pay`
 * posts AzamPay's callback for a push to the URL a test gives, as often as asked.
 */
import { type FakeAnswer, HttpFake, json, postCallback, type RecordedRequest } from './http-fake.js';

export interface AzamPayApp {
  appName: string;
  clientId: string;
  clientSecret: string;
  apiKey: string;
}

const PROVIDERS = ['Airtel', 'Tigo', 'Halopesa', 'Azampesa', 'Mpesa'];

export interface Push {
  accountNumber: string;
  amount: string;
  externalId: string;
  provider: string;
  transactionId: string;
}

export class AzamPayFake extends HttpFake {
  readonly pushes: Push[] = [];
  readonly tokensIssued: string[] = [];
  /** Tokens the fake has revoked before their time (a 401 until a new one is taken). */
  readonly revoked = new Set<string>();
  /** How long a token lives, in ms. */
  tokenTtlMs = 3_600_000;
  private tokens = new Map<string, number>();

  constructor(readonly app: AzamPayApp) {
    super((req, scripted) => this.route(req, scripted));
  }

  private route(req: RecordedRequest, scripted: 'ok' | { reject: string }): FakeAnswer {
    if (req.method === 'POST' && req.url === '/AppRegistration/GenerateToken') return this.token(req);
    if (req.method === 'POST' && req.url === '/azampay/mno/checkout') return this.checkout(req, scripted);
    return json(404, { message: 'Not Found' });
  }

  private token(req: RecordedRequest): FakeAnswer {
    const b = parse(req.body);
    if (!b || b.appName !== this.app.appName || b.clientId !== this.app.clientId || b.clientSecret !== this.app.clientSecret) {
      return json(423, {
        data: null,
        message: 'Provided detail is not valid for this app or secret key has been expired',
        success: false,
        statusCode: 423,
      });
    }
    const accessToken = `tok-${this.tokensIssued.length + 1}-${Math.random().toString(36).slice(2)}`;
    const expire = Date.now() + this.tokenTtlMs;
    this.tokens.set(accessToken, expire);
    this.tokensIssued.push(accessToken);
    return json(200, {
      data: { accessToken, expire: new Date(expire).toISOString() },
      message: 'Token generated successfully',
      success: true,
      statusCode: 200,
    });
  }

  private checkout(req: RecordedRequest, scripted: 'ok' | { reject: string }): FakeAnswer {
    const bearer = /^Bearer (\S+)$/.exec(req.headers.authorization ?? '')?.[1];
    const expires = bearer ? this.tokens.get(bearer) : undefined;
    if (!bearer || expires === undefined || expires < Date.now() || this.revoked.has(bearer)) return json(401, { message: 'Unauthorized' });
    if (req.headers['x-api-key'] !== this.app.apiKey) return json(401, { message: 'Invalid API key' });
    const b = parse(req.body);
    const problems = [
      !b && 'body is not JSON',
      b && !/^255\d{9}$/.test(String(b.accountNumber)) && 'accountNumber must be 255XXXXXXXXX',
      b && (typeof b.amount !== 'string' || !/^[1-9]\d*$/.test(b.amount)) && 'amount must be a string of whole shillings',
      b && b.currency !== 'TZS' && 'currency must be TZS',
      b && (typeof b.externalId !== 'string' || b.externalId.length === 0 || b.externalId.length > 128) && 'externalId is required',
      b && !PROVIDERS.includes(String(b.provider)) && 'provider is not supported',
    ].filter(Boolean);
    if (problems.length) return json(400, { success: false, message: problems.join('; ') });
    if (scripted !== 'ok') return json(200, { success: false, transactionId: null, message: scripted.reject });
    const transactionId = `AZ${100_000 + this.pushes.length}`;
    this.pushes.push({
      accountNumber: String(b!.accountNumber),
      amount: String(b!.amount),
      externalId: String(b!.externalId),
      provider: String(b!.provider),
      transactionId,
    });
    return json(200, { success: true, transactionId, message: 'Request in progress. You will receive a callback shortly' });
  }

  /** Posts AzamPay's callback for a push (`success` or `failure`), as the payer's answer would. */
  async pay(push: Push, callbackUrl: string, status: 'success' | 'failure' = 'success', amount = push.amount): Promise<number> {
    const body = {
      msisdn: push.accountNumber,
      amount,
      message: status === 'success' ? 'Payment successful' : 'Insufficient balance',
      utilityref: push.externalId,
      operator: push.provider,
      reference: push.transactionId,
      transactionstatus: status,
      submerchantAcc: null,
      fspReferenceId: `FSP${push.transactionId}`,
      additionalProperties: {},
    };
    return postCallback(callbackUrl, JSON.stringify(body), 'application/json');
  }
}

function parse(text: string): Record<string, unknown> | null {
  try {
    const v = JSON.parse(text) as unknown;
    return v && typeof v === 'object' ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}
