/**
 * The HTTP driver for TRA's VFD API (docs/fiscal-wire.md): registration, token, receipt and
 * Z report. An answer that never came, or a 5xx, is TraUnreachable (the queue resends the same
 * bytes); 401 is TraUnauthorized; anything else is TRA's acknowledgement with its code. Given TRA's
 * key (TRA_ANSWER_CERT), an answer must carry TRA's signature (SHA1withRSA over its payload
 * element, as requests are signed) or it counts as no answer: an acknowledgement anyone on the
 * way could forge would mark a receipt issued that TRA never saw.
 */
import { type KeyObject, verify } from 'node:crypto';
import { readAnswer, signedPart } from './xml.js';
import {
  type Acknowledgement,
  type Registration,
  type Token,
  type TraEndpoint,
  type TraGateway,
  TraRefused,
  TraUnauthorized,
  TraUnreachable,
} from './tra-gateway.js';

const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');

async function call(url: string, init: RequestInit, timeoutMs: number): Promise<{ status: number; text: string }> {
  const deadline = AbortSignal.timeout(timeoutMs);
  try {
    const res = await fetch(url, { ...init, signal: deadline });
    const text = await res.text();
    if (res.status >= 500 || res.status === 429 || res.status === 408) throw new TraUnreachable(`TRA answered ${res.status}`);
    if (res.status === 401) throw new TraUnauthorized('TRA refused the token (401)');
    return { status: res.status, text };
  } catch (err) {
    if (err instanceof TraUnreachable || err instanceof TraUnauthorized) throw err;
    // Only the kind of failure: never the request, which carries the token.
    throw new TraUnreachable(deadline.aborted ? `TRA did not answer within ${timeoutMs} ms` : 'TRA could not be reached');
  }
}

const str = (v: unknown) => (v === undefined || v === null ? '' : String(v));

/** True when no key is set, or the answer's payload element carries TRA's signature. */
function signedByTra(text: string, element: string, traKey: KeyObject | undefined): boolean {
  if (!traKey) return true;
  const part = signedPart(text, element);
  return part !== null && verify('RSA-SHA1', Buffer.from(part.payload, 'utf8'), traKey, part.signature);
}

const UNSIGNED = "TRA's answer does not carry TRA's signature (TRA_ANSWER_CERT)";

function acknowledgement(text: string, element: 'RCTACK' | 'ZACK', traKey: KeyObject | undefined): Acknowledgement {
  if (!signedByTra(text, element, traKey)) throw new TraUnreachable(UNSIGNED);
  const ack = readAnswer(text, ['EFDMS', element]);
  if (!ack) throw new TraUnreachable(`TRA's answer had no ${element}`);
  return { ackCode: str(ack.ACKCODE), ackMessage: str(ack.ACKMSG) };
}

export function traVfd(timeoutMs: number, traKey?: KeyObject): TraGateway {
  const xmlHeaders = (endpoint: TraEndpoint) => ({ 'Content-Type': 'application/xml', 'Cert-Serial': b64(endpoint.certSerial) });
  return {
    async register(endpoint, body): Promise<Registration> {
      const { text } = await call(
        `${endpoint.baseUrl}/api/vfdRegReq`,
        { method: 'POST', headers: { ...xmlHeaders(endpoint), Client: 'webapi' }, body },
        timeoutMs,
      );
      const resp = readAnswer(text, ['EFDMS', 'EFDMSRESP']);
      if (!resp) throw new TraRefused(`TRA did not register the device: ${readAnswer(text, ['Error'])?.Message ?? 'unreadable answer'}`);
      if (!signedByTra(text, 'EFDMSRESP', traKey)) throw new TraUnreachable(UNSIGNED);
      return { ackCode: str(resp.ACKCODE), ackMessage: str(resp.ACKMSG), fields: resp };
    },
    async token(endpoint, username, password): Promise<Token> {
      const form = new URLSearchParams({ username, password, grant_type: 'password' });
      const { status, text } = await call(
        `${endpoint.baseUrl}/vfdtoken`,
        { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: form.toString() },
        timeoutMs,
      );
      let body: Record<string, unknown> = {};
      try {
        body = JSON.parse(text) as Record<string, unknown>;
      } catch {
        // An unreadable answer is a refusal like any other below.
      }
      if (status !== 200 || typeof body.access_token !== 'string')
        throw new TraRefused(`TRA refused the token: ${str(body.error_description ?? body.error ?? status)}`);
      return { accessToken: body.access_token, expiresInSeconds: Number(body.expires_in ?? 0) };
    },
    async postReceipt(endpoint, token, body) {
      const { text } = await call(
        `${endpoint.baseUrl}/api/efdmsRctInfo`,
        { method: 'POST', headers: { ...xmlHeaders(endpoint), 'Routing-Key': 'vfdrct', Authorization: `bearer ${token}` }, body },
        timeoutMs,
      );
      return acknowledgement(text, 'RCTACK', traKey);
    },
    async postZReport(endpoint, token, body) {
      const { text } = await call(
        `${endpoint.baseUrl}/api/efdmszreport`,
        { method: 'POST', headers: { ...xmlHeaders(endpoint), 'Routing-Key': 'vfdzreport', Authorization: `bearer ${token}` }, body },
        timeoutMs,
      );
      return acknowledgement(text, 'ZACK', traKey);
    },
  };
}
