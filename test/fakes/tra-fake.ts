/**
 * A local TRA VFD API (docs/fiscal-wire.md) that checks everything TRA checks and answers in
 * TRA's words: registration, token, receipt and Z report, under `prefix` (default '', so the base
 * URL is `fake.url`). Every problem a request has is pushed to `violations` (tests assert it stays
 * empty) and answered as TRA would: a non-zero ACKCODE (codes in ./tra-documents.ts `ACK`), a 400
 * from the token endpoint, or a 401, and a refused receipt or Z report changes nothing.
 *
 * A 401 for a token `revokeTokens()` took back is TRA's doing, not the client's, so it is the one
 * refusal that is not a violation; a missing, unknown or expired token is (a client must refresh
 * before expiry). A receipt or Z report byte-identical to one already acknowledged is acknowledged
 * again and counted in `resends` (the legal resend after a lost reply); different bytes for an
 * acknowledged GC or ZNUMBER are a violation. A receipt dated on or before the day of an
 * acknowledged Z report is refused: that Z report closed its day too early; so is the first
 * receipt of a day before the Z report of the previous receipt's day ("VFD should submit Z report
 * before opening sales of a new day", TRA's VFD guide). Scripts from HttpFake
 * apply to every route; a `{ reject }` answers ACKCODE 9 with its message after the request passed
 * every check.
 */
import { randomBytes } from 'node:crypto';
import { testKeyPair, traAnswerKeyPair } from '../setup/tra-cert.js';
import { type FakeAnswer, HttpFake, json, type RecordedRequest } from './http-fake.js';
import { ACK, LETTERS, PAYMENT_TYPES, type Problem, readReceipt, readZReport, type TraReceipt, type TraZReport } from './tra-documents.js';
import { amount, eatNow, envelope, escapeXml, field, parseElement, signedEnvelope, verifyPayload } from './tra-xml.js';

export { ACK, type TraReceipt, type TraZReport } from './tra-documents.js';

export interface TraTaxpayer {
  tin: string;
  /** The certificate's serial as TRA knows it; `Cert-Serial` is its base64. */
  certSerial: string;
  /** CERTKEY in the registration request (e.g. `10TZ100781`). */
  certKey: string;
  publicKeyPem: string;
  vrn?: string;
  receiptCode?: string;
  regId?: string;
  /** Defaults to certKey, as TRA's SERIAL does. */
  efdSerial?: string;
  /** The GC registration reports for a device that already issued receipts elsewhere. */
  startGc?: number;
  name?: string;
}

/** One registered device: what registration answers and what TRA holds for it. */
export interface TraDevice {
  taxpayer: Required<TraTaxpayer>;
  uin: string;
  taxOffice: string;
  username: string;
  password: string;
  registrations: number;
  /** Every receipt POST carrying this device's Cert-Serial, answered or not. */
  attempts: number;
  resends: number;
  zAttempts: number;
  zResends: number;
  /** Acknowledged receipts, in GC order. */
  receipts: TraReceipt[];
  /** Acknowledged Z reports, in order. */
  zReports: TraZReport[];
  /** Everything acknowledged, in order: `RCT <ZNUM> <GC>` and `Z <ZNUMBER>`. */
  acknowledged: string[];
  /** The last acknowledged GC (startGc before the first receipt). */
  lastGc: number;
}

const KIND = { REGDATA: 'registration', RCT: 'receipt', ZREPORT: 'Z report' } as const;
type Kind = (typeof KIND)[keyof typeof KIND];
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

export class TraFake extends HttpFake {
  readonly violations: string[] = [];
  /** Devices by certificate serial. */
  readonly devices = new Map<string, TraDevice>();
  readonly tokensIssued: string[] = [];
  tokenTtlSeconds: number;
  prefix: string;
  /** The next this many answers are signed with another key than TRA's (traAnswerKeyPair): forged on the way. */
  forgeAnswers = 0;
  private readonly tokens = new Map<string, { serial: string; expiresAt: number }>();
  private readonly revoked = new Set<string>();
  protected override serverError: FakeAnswer = {
    status: 500,
    body: '<Error><Message>An error has occurred.</Message></Error>',
    contentType: 'application/xml; charset=utf-8',
  };

  constructor(taxpayers: TraTaxpayer | TraTaxpayer[], opts: { prefix?: string; tokenTtlSeconds?: number } = {}) {
    super((req, scripted) => this.route(req, scripted));
    this.prefix = opts.prefix ?? '';
    this.tokenTtlSeconds = opts.tokenTtlSeconds ?? 3600;
    [taxpayers].flat().forEach((t, i) => {
      const taxpayer: Required<TraTaxpayer> = {
        vrn: `4000000${i}K`,
        receiptCode: randomBytes(3).toString('hex').toUpperCase(),
        regId: `TZ0100${551361 + i}`,
        efdSerial: t.certKey,
        startGc: 0,
        name: i === 0 ? 'DUKA LA MAMA' : `DUKA LA MAMA ${i + 1}`,
        ...t,
      };
      this.devices.set(t.certSerial, {
        taxpayer,
        uin: `09VFDWEBAPI-${t.tin}${t.certKey}`,
        taxOffice: 'Tax Office Ilala',
        username: `vfd${randomBytes(6).toString('hex')}`,
        password: randomBytes(9).toString('base64url'),
        registrations: 0,
        attempts: 0,
        resends: 0,
        zAttempts: 0,
        zResends: 0,
        receipts: [],
        zReports: [],
        acknowledged: [],
        lastGc: taxpayer.startGc,
      });
    });
  }

  /** The device with this certificate serial; without one, the fake's only device. */
  device(certSerial?: string): TraDevice {
    const d =
      certSerial === undefined ? (this.devices.size === 1 ? [...this.devices.values()][0] : undefined) : this.devices.get(certSerial);
    if (!d) throw new Error(certSerial === undefined ? 'several devices: name one' : `no device with serial ${certSerial}`);
    return d;
  }

  /** Takes back every token issued so far: the next request with one gets a 401. */
  revokeTokens(): void {
    for (const t of this.tokens.keys()) this.revoked.add(t);
  }

  private route(req: RecordedRequest, scripted: 'ok' | { reject: string }): FakeAnswer {
    const path = new URL(req.url, 'http://fake').pathname;
    if (req.method === 'POST' && path === `${this.prefix}/api/vfdRegReq`) return this.register(req, scripted);
    if (req.method === 'POST' && path === `${this.prefix}/vfdtoken`) return this.token(req, scripted);
    if (req.method === 'POST' && path === `${this.prefix}/api/efdmsRctInfo`) return this.receipt(req, scripted);
    if (req.method === 'POST' && path === `${this.prefix}/api/efdmszreport`) return this.zReport(req, scripted);
    this.violations.push(`${req.method} ${req.url}: no such TRA route`);
    return {
      status: 404,
      body: '<Error><Message>No HTTP resource was found that matches the request URI.</Message></Error>',
      contentType: 'application/xml',
    };
  }

  private register(req: RecordedRequest, scripted: 'ok' | { reject: string }): FakeAnswer {
    const refuse = (p: Problem) =>
      this.refuse('registration', p, `<EFDMSRESP><ACKCODE>${p.code}</ACKCODE><ACKMSG>${escapeXml(p.message)}</ACKMSG></EFDMSRESP>`);
    const checked = this.signed(req, 'REGDATA', null);
    if ('status' in checked) return checked;
    if ('problem' in checked) return refuse(checked.problem);
    const { device, payload } = checked;
    const t = device.taxpayer;
    if (req.headers.client !== 'webapi') return refuse({ code: ACK.headers, message: `Client must be webapi, got ${req.headers.client}` });
    const reg = parseElement(payload);
    if (reg?.kids.map((k) => k.tag).join(' ') !== 'TIN CERTKEY')
      return refuse({ code: ACK.fields, message: 'REGDATA must be TIN CERTKEY' });
    if (field(reg, 'TIN') !== t.tin || field(reg, 'CERTKEY') !== t.certKey)
      return refuse({ code: ACK.taxpayer, message: "TIN or CERTKEY is not this certificate's" });
    if (scripted !== 'ok')
      return this.ack(`<EFDMSRESP><ACKCODE>${ACK.rejected}</ACKCODE><ACKMSG>${escapeXml(scripted.reject)}</ACKMSG></EFDMSRESP>`);
    device.registrations++;
    const v = {
      ACKCODE: '0',
      ACKMSG: 'Registration Successful',
      REGID: t.regId,
      SERIAL: t.efdSerial,
      UIN: device.uin,
      TIN: t.tin,
      VRN: t.vrn,
      MOBILE: '0713000000',
      ADDRESS: 'P.O.BOX 1',
      STREET: 'KARIAKOO',
      CITY: 'DAR ES SALAAM',
      COUNTRY: 'TANZANIA',
      NAME: t.name,
      RECEIPTCODE: t.receiptCode,
      REGION: 'ILALA',
      ROUTINGKEY: 'vfdrct',
      GC: String(device.lastGc),
      TAXOFFICE: device.taxOffice,
      USERNAME: device.username,
      PASSWORD: device.password,
      TOKENPATH: 'vfdtoken',
    };
    const fields = Object.entries(v)
      .map(([k, x]) => `<${k}>${escapeXml(x)}</${k}>`)
      .join('');
    return this.ack(
      `<EFDMSRESP>${fields}<TAXCODES><CODEA>18</CODEA><CODEB>0</CODEB><CODEC>0</CODEC><CODED>0</CODED></TAXCODES></EFDMSRESP>`,
    );
  }

  private token(req: RecordedRequest, scripted: 'ok' | { reject: string }): FakeAnswer {
    const refuse = (message: string, violation = true) => {
      if (violation) this.violations.push(`token: ${message}`);
      return json(400, { error: 'invalid_grant', error_description: message });
    };
    if (!String(req.headers['content-type']).startsWith('application/x-www-form-urlencoded'))
      return refuse('Content-Type must be application/x-www-form-urlencoded');
    const form = new URLSearchParams(req.body);
    if (form.get('grant_type') !== 'password') return refuse('grant_type must be password');
    const device = [...this.devices.values()].find((d) => d.username === form.get('username') && d.password === form.get('password'));
    if (!device) return refuse('The user name or password is incorrect.');
    if (scripted !== 'ok') return refuse(scripted.reject, false);
    const token = `tra${this.tokensIssued.length + 1}-${randomBytes(12).toString('hex')}`;
    this.tokens.set(token, { serial: device.taxpayer.certSerial, expiresAt: Date.now() + this.tokenTtlSeconds * 1000 });
    this.tokensIssued.push(token);
    return json(200, { access_token: token, token_type: 'bearer', expires_in: this.tokenTtlSeconds });
  }

  private receipt(req: RecordedRequest, scripted: 'ok' | { reject: string }): FakeAnswer {
    const gcText = /<GC>(\d+)<\/GC>/.exec(req.body)?.[1] ?? '0';
    const answer = (code: number, message: string) => {
      const now = eatNow();
      return `<RCTACK><RCTNUM>${gcText}</RCTNUM><DATE>${now.date}</DATE><TIME>${now.time}</TIME><ACKCODE>${code}</ACKCODE><ACKMSG>${escapeXml(message)}</ACKMSG></RCTACK>`;
    };
    const refuse = (p: Problem) => this.refuse('receipt', p, answer(p.code, p.message));
    const checked = this.signed(req, 'RCT', 'vfdrct', (d) => d.attempts++);
    if ('status' in checked) return checked;
    if ('problem' in checked) return refuse(checked.problem);
    const { device, payload } = checked;
    if (device.receipts.some((r) => r.body === req.body)) {
      device.resends++;
      return this.ack(answer(ACK.ok, 'Success'));
    }
    const { receipt, problems } = readReceipt(payload, req.body);
    if (!receipt) return refuse({ code: problems[0]!.code, message: problems.map((p) => p.message).join('; ') });
    const t = device.taxpayer;
    const last = device.receipts.at(-1);
    const expectedDc = last && last.znum === receipt.znum ? last.dc + 1 : 1;
    const closed = device.zReports.find((z) => z.znumber >= receipt.znum);
    const found: Array<Problem | false> = [
      device.receipts.some((r) => r.gc === receipt.gc) && {
        code: ACK.duplicate,
        message: `GC ${receipt.gc} was acknowledged with different bytes`,
      },
      (receipt.tin !== t.tin || receipt.regId !== t.regId || receipt.efdSerial !== t.efdSerial) && {
        code: ACK.taxpayer,
        message: "TIN, REGID or EFDSERIAL is not the registered device's",
      },
      receipt.gc !== device.lastGc + 1 && { code: ACK.counters, message: `GC ${receipt.gc} is not the next one, ${device.lastGc + 1}` },
      last !== undefined &&
        receipt.znum < last.znum && {
          code: ACK.counters,
          message: `ZNUM ${receipt.znum} is earlier than the previous receipt's ${last.znum}`,
        },
      receipt.dc !== expectedDc && { code: ACK.counters, message: `DC ${receipt.dc} is not ${expectedDc}` },
      receipt.rctvnum !== `${t.receiptCode}${receipt.gc}` && {
        code: ACK.counters,
        message: `RCTVNUM ${receipt.rctvnum} is not ${t.receiptCode}${receipt.gc}`,
      },
      closed !== undefined && {
        code: ACK.counters,
        message: `ZNUM ${receipt.znum} comes after Z report ${closed.znumber} was acknowledged`,
      },
      last !== undefined &&
        receipt.znum > last.znum &&
        !device.zReports.some((z) => z.znumber === last.znum) && {
          code: ACK.counters,
          message: `ZNUM ${receipt.znum} opens a new day before the Z report of ${last.znum}`,
        },
    ];
    const broken = found.filter((p): p is Problem => p !== false);
    if (broken.length) return refuse({ code: broken[0]!.code, message: broken.map((p) => p.message).join('; ') });
    if (scripted !== 'ok') return this.ack(answer(ACK.rejected, scripted.reject));
    device.receipts.push(receipt);
    device.lastGc = receipt.gc;
    device.acknowledged.push(`RCT ${receipt.znum} ${receipt.gc}`);
    return this.ack(answer(ACK.ok, 'Success'));
  }

  private zReport(req: RecordedRequest, scripted: 'ok' | { reject: string }): FakeAnswer {
    const znumber = /<ZNUMBER>(\d*)<\/ZNUMBER>/.exec(req.body)?.[1] ?? '';
    const answer = (code: number, message: string) => {
      const now = eatNow();
      return `<ZACK><ZNUMBER>${znumber}</ZNUMBER><DATE>${now.date}</DATE><TIME>${now.time}</TIME><ACKCODE>${code}</ACKCODE><ACKMSG>${escapeXml(message)}</ACKMSG></ZACK>`;
    };
    const refuse = (p: Problem) => this.refuse('Z report', p, answer(p.code, p.message));
    const checked = this.signed(req, 'ZREPORT', 'vfdzreport', (d) => d.zAttempts++);
    if ('status' in checked) return checked;
    if ('problem' in checked) return refuse(checked.problem);
    const { device, payload } = checked;
    if (device.zReports.some((z) => z.body === req.body)) {
      device.zResends++;
      return this.ack(answer(ACK.ok, 'Success'));
    }
    const { z, problems } = readZReport(payload, req.body);
    if (!z) return refuse({ code: problems[0]!.code, message: problems.map((p) => p.message).join('; ') });
    const t = device.taxpayer;
    const day = device.receipts.filter((r) => r.znum === z.znumber);
    const differs = (what: string, got: number, want: number, show = amount) =>
      got !== want && { code: ACK.amounts, message: `${what} ${show(got)} is not ${show(want)}` };
    const found: Array<Problem | false> = [
      device.zReports.some((r) => r.znumber === z.znumber) && {
        code: ACK.duplicate,
        message: `ZNUMBER ${z.znumber} was acknowledged with different bytes`,
      },
      device.zReports.some((r) => r.znumber > z.znumber) && {
        code: ACK.counters,
        message: `ZNUMBER ${z.znumber} is earlier than an acknowledged Z report`,
      },
      (z.tin !== t.tin ||
        z.regId !== t.regId ||
        z.efdSerial !== t.efdSerial ||
        z.vrn !== t.vrn ||
        z.taxOffice !== device.taxOffice ||
        z.user !== device.uin) && {
        code: ACK.taxpayer,
        message: "TIN, REGID, EFDSERIAL, VRN, TAXOFFICE or USER is not the registered device's",
      },
      differs('DAILYTOTALAMOUNT', z.dailyTotalCents, sum(day.map((r) => r.totalInclCents))),
      differs('TICKETSFISCAL', z.ticketsFiscal, day.length, String),
      differs('GROSS', z.grossCents, sum(device.receipts.filter((r) => r.znum <= z.znumber).map((r) => r.totalInclCents))),
      ...LETTERS.flatMap((l) => [
        differs(`VAT ${l} NETTAMOUNT`, z.vat[l]!.net, sum(day.map((r) => r.vat[l]?.net ?? 0))),
        differs(`VAT ${l} TAXAMOUNT`, z.vat[l]!.tax, sum(day.map((r) => r.vat[l]?.tax ?? 0))),
      ]),
      ...PAYMENT_TYPES.map((p) => differs(`PMTAMOUNT ${p}`, z.payments[p]!, sum(day.map((r) => r.payments[p] ?? 0)))),
    ];
    const broken = found.filter((p): p is Problem => p !== false);
    if (broken.length) return refuse({ code: broken[0]!.code, message: broken.map((p) => p.message).join('; ') });
    if (scripted !== 'ok') return this.ack(answer(ACK.rejected, scripted.reject));
    device.zReports.push(z);
    device.acknowledged.push(`Z ${z.znumber}`);
    return this.ack(answer(ACK.ok, 'Success'));
  }

  /**
   * The checks every signed request shares: a known Cert-Serial, then (for receipts and Z reports)
   * a live bearer token of that device and the Routing-Key, then the envelope and its signature.
   * `count` runs as soon as the device is known, so attempts include refused requests.
   */
  private signed(
    req: RecordedRequest,
    tag: keyof typeof KIND,
    routingKey: string | null,
    count: (d: TraDevice) => void = () => {},
  ): { device: TraDevice; payload: string } | { problem: Problem } | FakeAnswer {
    const header = String(req.headers['cert-serial'] ?? '');
    const serial = Buffer.from(header, 'base64').toString('utf8');
    const device = Buffer.from(serial, 'utf8').toString('base64') === header ? this.devices.get(serial) : undefined;
    if (!device)
      return {
        problem: { code: ACK.headers, message: `Cert-Serial ${JSON.stringify(header)} is not the base64 of a known certificate serial` },
      };
    count(device);
    if (routingKey !== null) {
      const token = /^bearer (\S+)$/i.exec(String(req.headers.authorization ?? ''))?.[1];
      const held = token ? this.tokens.get(token) : undefined;
      const why = !token
        ? 'no bearer token'
        : !held
          ? 'an unknown token'
          : held.serial !== serial
            ? "another taxpayer's token"
            : this.revoked.has(token)
              ? null
              : held.expiresAt <= Date.now()
                ? 'an expired token'
                : undefined;
      if (why !== undefined) {
        if (why !== null) this.violations.push(`${KIND[tag]}: 401 for ${why}`);
        return json(401, { Message: 'Authorization has been denied for this request.' });
      }
      if (req.headers['routing-key'] !== routingKey)
        return { problem: { code: ACK.headers, message: `Routing-Key must be ${routingKey}, got ${req.headers['routing-key']}` } };
    }
    if (!String(req.headers['content-type']).startsWith('application/xml'))
      return { problem: { code: ACK.headers, message: 'Content-Type must be application/xml' } };
    const env = envelope(req.body, tag);
    if (!env)
      return {
        problem: { code: ACK.fields, message: `the body is not <EFDMS><${tag}>…</${tag}><EFDMSSIGNATURE>…</EFDMSSIGNATURE></EFDMS>` },
      };
    if (!verifyPayload(env.payload, env.signature, device.taxpayer.publicKeyPem))
      return { problem: { code: ACK.signature, message: `the signature does not verify over <${tag}>…</${tag}>` } };
    return { device, payload: env.payload };
  }

  private refuse(kind: Kind, p: Problem, payload: string): FakeAnswer {
    this.violations.push(`${kind}: ACKCODE ${p.code}: ${p.message}`);
    return this.ack(payload);
  }

  /** TRA signs its answers with its own key (traAnswerKeyPair), which a client given TRA_ANSWER_CERT checks. */
  private ack(payload: string): FakeAnswer {
    const forged = this.forgeAnswers > 0;
    if (forged) this.forgeAnswers--;
    const key = forged ? testKeyPair() : traAnswerKeyPair();
    return { status: 200, body: signedEnvelope(payload, key.privateKeyPem), contentType: 'application/xml; charset=utf-8' };
  }
}
