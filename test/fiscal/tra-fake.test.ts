/**
 * The fake TRA refuses what TRA refuses, so a fiscal driver that drifts from docs/fiscal-wire.md
 * fails its tests instead of passing against a fake that accepts anything. The requests here are
 * built by template and signed with node:crypto, independently of the server's driver.
 */
import forge from 'node-forge';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TraFake } from '../fakes/tra-fake.js';
import { signedEnvelope } from '../fakes/tra-xml.js';
import { makeTraCertificate } from '../setup/tra-cert.js';

const cert = makeTraCertificate({ serial: '5a17c0de' });
const TIN = '123456789';
const CERTKEY = '10TZ100781';

interface Sale {
  items: string;
  excl: string;
  incl: string;
  discount: string;
  payments: string;
  vat: string;
}

const item = (id: number, desc: string, qty: string, code: number, amt: string) =>
  `<ITEM><ID>${id}</ID><DESC>${desc}</DESC><QTY>${qty}</QTY><TAXCODE>${code}</TAXCODE><AMT>${amt}</AMT></ITEM>`;
const SUGAR: Sale = {
  items: item(1, 'Sukari 1kg', '2', 1, '7000.00'),
  excl: '5932.20',
  incl: '7000.00',
  discount: '0.00',
  payments: '<PMTTYPE>CASH</PMTTYPE><PMTAMOUNT>7000.00</PMTAMOUNT>',
  vat: '<VATRATE>A</VATRATE><NETTAMOUNT>5932.20</NETTAMOUNT><TAXAMOUNT>1067.80</TAXAMOUNT>',
};
/** Two tax codes, a sale discount of 500.00 taken off the A line, paid in two ways. */
const FLOUR: Sale = {
  items: item(1, 'Sukari 1kg', '2', 1, '7000.00') + item(2, 'Unga &amp; Mchele', '0.5', 2, '2500.00'),
  excl: '8008.47',
  incl: '9000.00',
  discount: '500.00',
  payments: '<PMTTYPE>CASH</PMTTYPE><PMTAMOUNT>4000.00</PMTAMOUNT><PMTTYPE>EMONEY</PMTTYPE><PMTAMOUNT>5000.00</PMTAMOUNT>',
  vat: '<VATRATE>A</VATRATE><NETTAMOUNT>5508.47</NETTAMOUNT><TAXAMOUNT>991.53</TAXAMOUNT><VATRATE>B</VATRATE><NETTAMOUNT>2500.00</NETTAMOUNT><TAXAMOUNT>0.00</TAXAMOUNT>',
};

interface Device {
  tin?: string;
  regId?: string;
  efdSerial?: string;
  rctvnum?: string;
}

function rct(gc: number, dc: number, date: string, sale = SUGAR, d: Device = {}): string {
  const { tin = TIN, regId = 'TZ0100551361', efdSerial = CERTKEY, rctvnum = `8AD1E3${gc}` } = d;
  return (
    `<RCT><DATE>${date}</DATE><TIME>14:05:09</TIME><TIN>${tin}</TIN><REGID>${regId}</REGID><EFDSERIAL>${efdSerial}</EFDSERIAL>` +
    `<CUSTIDTYPE>6</CUSTIDTYPE><CUSTID></CUSTID><CUSTNAME>Asha</CUSTNAME><MOBILENUM>255713000000</MOBILENUM>` +
    `<RCTNUM>${gc}</RCTNUM><DC>${dc}</DC><GC>${gc}</GC><ZNUM>${date.replaceAll('-', '')}</ZNUM><RCTVNUM>${rctvnum}</RCTVNUM>` +
    `<ITEMS>${sale.items}</ITEMS><TOTALS><TOTALTAXEXCL>${sale.excl}</TOTALTAXEXCL><TOTALTAXINCL>${sale.incl}</TOTALTAXINCL><DISCOUNT>${sale.discount}</DISCOUNT></TOTALS>` +
    `<PAYMENTS>${sale.payments}</PAYMENTS><VATTOTALS>${sale.vat}</VATTOTALS></RCT>`
  );
}

function zReport(date: string, daily: string, gross: string, tickets: number): string {
  const rates: Array<[string, string, string]> = [
    ['A-18.00', '11440.67', '2059.33'],
    ['B-0.00', '2500.00', '0.00'],
    ['C-0.00', '0.00', '0.00'],
    ['D-0.00', '0.00', '0.00'],
    ['E-0.00', '0.00', '0.00'],
  ];
  const paid: Array<[string, string]> = [
    ['CASH', '11000.00'],
    ['CHEQUE', '0.00'],
    ['CCARD', '0.00'],
    ['EMONEY', '5000.00'],
    ['INVOICE', '0.00'],
  ];
  return (
    `<ZREPORT><DATE>${date}</DATE><TIME>23:59:59</TIME><HEADER><LINE>DUKA LA MAMA</LINE><LINE>KARIAKOO</LINE></HEADER>` +
    `<VRN>40000000K</VRN><TIN>${TIN}</TIN><TAXOFFICE>Tax Office Ilala</TAXOFFICE><REGID>TZ0100551361</REGID><ZNUMBER>${date.replaceAll('-', '')}</ZNUMBER>` +
    `<EFDSERIAL>${CERTKEY}</EFDSERIAL><REGISTRATIONDATE>2026-11-20</REGISTRATIONDATE><USER>09VFDWEBAPI-${TIN}${CERTKEY}</USER><SIMIMSI>WEBAPI</SIMIMSI>` +
    `<TOTALS><DAILYTOTALAMOUNT>${daily}</DAILYTOTALAMOUNT><GROSS>${gross}</GROSS><CORRECTIONS>0.00</CORRECTIONS><DISCOUNTS>500.00</DISCOUNTS>` +
    `<SURCHARGES>0.00</SURCHARGES><TICKETSVOID>0</TICKETSVOID><TICKETSVOIDTOTAL>0.00</TICKETSVOIDTOTAL><TICKETSFISCAL>${tickets}</TICKETSFISCAL><TICKETSNONFISCAL>0</TICKETSNONFISCAL></TOTALS>` +
    `<VATTOTALS>${rates.map(([r, n, t]) => `<VATRATE>${r}</VATRATE><NETTAMOUNT>${n}</NETTAMOUNT><TAXAMOUNT>${t}</TAXAMOUNT>`).join('')}</VATTOTALS>` +
    `<PAYMENTS>${paid.map(([p, a]) => `<PMTTYPE>${p}</PMTTYPE><PMTAMOUNT>${a}</PMTAMOUNT>`).join('')}</PAYMENTS>` +
    `<CHANGES><VATCHANGENUM>0</VATCHANGENUM><HEADCHANGENUM>0</HEADCHANGENUM></CHANGES><ERRORS></ERRORS><FWVERSION>3.0</FWVERSION><FWCHECKSUM>WEBAPI</FWCHECKSUM></ZREPORT>`
  );
}

const sign = (payload: string) => signedEnvelope(payload, cert.privateKeyPem);
const tag = (body: string, name: string) => new RegExp(`<${name}>([^<]*)</${name}>`).exec(body)?.[1];
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const xmlHeaders = (serial: string, routingKey: string, bearer: string | null) => ({
  'content-type': 'application/xml',
  'cert-serial': Buffer.from(serial).toString('base64'),
  'routing-key': routingKey,
  ...(bearer === null ? {} : { authorization: `bearer ${bearer}` }),
});

async function post(url: string, body: string, headers: Record<string, string>): Promise<{ status: number; body: string; ack?: number }> {
  const res = await fetch(url, { method: 'POST', headers, body });
  const text = await res.text();
  const ack = tag(text, 'ACKCODE');
  return { status: res.status, body: text, ...(ack === undefined ? {} : { ack: Number(ack) }) };
}

async function takeToken(fake: TraFake, serial: string): Promise<string> {
  const d = fake.device(serial);
  const form = new URLSearchParams({ username: d.username, password: d.password, grant_type: 'password' }).toString();
  return (JSON.parse((await post(`${fake.url}/vfdtoken`, form, FORM)).body) as { access_token: string }).access_token;
}

describe('the fake TRA', () => {
  let fake: TraFake;
  let token: string;

  const send = (body: string, bearer: string | null = token) =>
    post(`${fake.url}/api/efdmsRctInfo`, body, xmlHeaders(cert.serial, 'vfdrct', bearer));
  const sendZ = (body: string) => post(`${fake.url}/api/efdmszreport`, body, xmlHeaders(cert.serial, 'vfdzreport', token));

  beforeEach(async () => {
    fake = new TraFake({
      tin: TIN,
      certSerial: cert.serial,
      certKey: CERTKEY,
      publicKeyPem: cert.publicKeyPem,
      receiptCode: '8AD1E3',
      vrn: '40000000K',
    });
    await fake.start();
    token = await takeToken(fake, cert.serial);
  });
  afterEach(() => fake.stop());

  it('registers a device with its signature, counter and credentials, and refuses a wrong CERTKEY', async () => {
    const headers = { 'content-type': 'application/xml', 'cert-serial': Buffer.from(cert.serial).toString('base64'), client: 'webapi' };
    const ok = await post(`${fake.url}/api/vfdRegReq`, sign(`<REGDATA><TIN>${TIN}</TIN><CERTKEY>${CERTKEY}</CERTKEY></REGDATA>`), headers);
    expect([ok.ack, tag(ok.body, 'REGID'), tag(ok.body, 'RECEIPTCODE'), tag(ok.body, 'GC'), tag(ok.body, 'ROUTINGKEY')]).toEqual([
      0,
      'TZ0100551361',
      '8AD1E3',
      '0',
      'vfdrct',
    ]);
    expect([tag(ok.body, 'USERNAME'), tag(ok.body, 'PASSWORD')]).toEqual([fake.device().username, fake.device().password]);
    const wrong = await post(
      `${fake.url}/api/vfdRegReq`,
      sign(`<REGDATA><TIN>${TIN}</TIN><CERTKEY>10TZ999999</CERTKEY></REGDATA>`),
      headers,
    );
    expect(wrong.ack).toBe(3);
    expect(fake.violations).toEqual(["registration: ACKCODE 3: TIN or CERTKEY is not this certificate's"]);
    expect(fake.device().registrations).toBe(1);
  });

  it('acknowledges good receipts in order and keeps their figures in cents', async () => {
    expect((await send(sign(rct(1, 1, '2026-11-24')))).ack).toBe(0);
    const second = await send(sign(rct(2, 2, '2026-11-24', FLOUR)));
    expect([second.status, second.ack, tag(second.body, 'RCTNUM'), tag(second.body, 'ACKMSG')]).toEqual([200, 0, '2', 'Success']);
    expect(fake.violations).toEqual([]);
    const [, r] = fake.device().receipts;
    expect(r).toMatchObject({
      gc: 2,
      dc: 2,
      znum: '20261124',
      rctvnum: '8AD1E32',
      totalInclCents: 900000,
      totalExclCents: 800847,
      discountCents: 50000,
    });
    expect(r!.payments).toEqual({ CASH: 400000, EMONEY: 500000 });
    expect(r!.vat).toEqual({ A: { net: 550847, tax: 99153 }, B: { net: 250000, tax: 0 } });
    expect(r!.items[1]).toEqual({ id: 2, desc: 'Unga & Mchele', qty: '0.5', taxCode: 2, amtCents: 250000 });
    expect([fake.device().attempts, fake.device().lastGc]).toEqual([2, 2]);
  });

  it('refuses a bad signature, a skipped GC, a wrong DC on a new day, a wrong RCTVNUM, bad sums and whitespace, and changes nothing', async () => {
    await send(sign(rct(1, 1, '2026-11-24')));
    const tampered = sign(rct(2, 2, '2026-11-24')).replace('<CUSTNAME>Asha</CUSTNAME>', '<CUSTNAME>Ashura</CUSTNAME>');
    const badSums = { ...SUGAR, payments: '<PMTTYPE>CASH</PMTTYPE><PMTAMOUNT>6999.00</PMTAMOUNT>' };
    const answers = [
      await send(tampered),
      await send(sign(rct(3, 2, '2026-11-24'))),
      await send(sign(rct(2, 2, '2026-11-25'))),
      await send(sign(rct(2, 2, '2026-11-24', SUGAR, { rctvnum: '8AD1E302' }))),
      await send(sign(rct(2, 2, '2026-11-24', badSums))),
      await send(sign(rct(2, 2, '2026-11-24').replace('<ITEMS>', '<ITEMS>\n  '))),
    ];
    expect(answers.map((a) => a.ack)).toEqual([1, 4, 4, 4, 5, 6]);
    expect(fake.violations).toEqual([
      'receipt: ACKCODE 1: the signature does not verify over <RCT>…</RCT>',
      'receipt: ACKCODE 4: GC 3 is not the next one, 2',
      'receipt: ACKCODE 4: DC 2 is not 1; ZNUM 20261125 opens a new day before the Z report of 20261124',
      'receipt: ACKCODE 4: RCTVNUM 8AD1E302 is not 8AD1E32',
      'receipt: ACKCODE 5: Σ PMTAMOUNT 6999.00 is not TOTALTAXINCL 7000.00',
      'receipt: ACKCODE 6: whitespace between elements',
    ]);
    expect([fake.device().receipts.length, fake.device().lastGc, fake.device().attempts]).toEqual([1, 1, 7]);
    // A new day's first receipt waits for the Z report of the day before (TRA's VFD guide).
    expect((await send(sign(rct(2, 1, '2026-11-25')))).ack).toBe(4);
    expect(fake.violations.at(-1)).toBe('receipt: ACKCODE 4: ZNUM 20261125 opens a new day before the Z report of 20261124');
    expect((await send(sign(rct(2, 2, '2026-11-24', FLOUR)))).ack).toBe(0);
    expect((await sendZ(sign(zReport('2026-11-24', '16000.00', '16000.00', 2)))).ack).toBe(0);
    expect((await send(sign(rct(3, 1, '2026-11-25')))).ack).toBe(0);
    expect(fake.device().acknowledged).toEqual(['RCT 20261124 1', 'RCT 20261124 2', 'Z 20261124', 'RCT 20261125 3']);
  });

  it("answers 401 for a missing, an expired and a revoked token; only the revoked one is not the client's fault", async () => {
    expect((await send(sign(rct(1, 1, '2026-11-24')), null)).status).toBe(401);
    fake.revokeTokens();
    expect((await send(sign(rct(1, 1, '2026-11-24')))).status).toBe(401);
    fake.tokenTtlSeconds = 0;
    const d = fake.device();
    const expired = await takeToken(fake, cert.serial);
    expect((await send(sign(rct(1, 1, '2026-11-24')), expired)).status).toBe(401);
    expect(fake.violations).toEqual(['receipt: 401 for no bearer token', 'receipt: 401 for an expired token']);
    expect([d.receipts.length, d.attempts, fake.tokensIssued.length]).toEqual([0, 3, 2]);
    const form = new URLSearchParams({ username: d.username, password: d.password, grant_type: 'client_credentials' }).toString();
    const badGrant = await post(`${fake.url}/vfdtoken`, form, FORM);
    expect([badGrant.status, JSON.parse(badGrant.body).error]).toEqual([400, 'invalid_grant']);
  });

  it('acknowledges an identical resend after a lost reply, and refuses other bytes for that GC', async () => {
    const body = sign(rct(1, 1, '2026-11-24'));
    fake.next('lose');
    await expect(send(body)).rejects.toThrow();
    expect(fake.device().receipts.length).toBe(1);
    expect((await send(body)).ack).toBe(0);
    expect([fake.device().resends, fake.device().receipts.length]).toEqual([1, 1]);
    expect((await send(sign(rct(1, 1, '2026-11-24', FLOUR)))).ack).toBe(7);
    expect(fake.violations).toEqual([
      'receipt: ACKCODE 7: GC 1 was acknowledged with different bytes; GC 1 is not the next one, 2; DC 1 is not 2',
    ]);
    fake.next({ reject: 'Service busy' });
    const rejected = await send(sign(rct(2, 2, '2026-11-24')));
    expect([rejected.ack, tag(rejected.body, 'ACKMSG'), fake.device().lastGc, fake.violations.length]).toEqual([9, 'Service busy', 1, 1]);
  });

  it('acknowledges a Z report whose totals match the day, refuses a wrong one, and closes the day', async () => {
    await send(sign(rct(1, 1, '2026-11-24')));
    await send(sign(rct(2, 2, '2026-11-24', FLOUR)));
    expect((await sendZ(sign(zReport('2026-11-24', '15000.00', '16000.00', 2)))).ack).toBe(5);
    const good = sign(zReport('2026-11-24', '16000.00', '16000.00', 2));
    const ok = await sendZ(good);
    expect([ok.ack, tag(ok.body, 'ZNUMBER')]).toEqual([0, '20261124']);
    expect((await sendZ(good)).ack).toBe(0);
    expect((await send(sign(rct(3, 3, '2026-11-24')))).ack).toBe(4);
    expect(fake.violations).toEqual([
      'Z report: ACKCODE 5: DAILYTOTALAMOUNT 15000.00 is not 16000.00',
      'receipt: ACKCODE 4: ZNUM 20261124 comes after Z report 20261124 was acknowledged',
    ]);
    const d = fake.device();
    expect([d.zAttempts, d.zResends, d.zReports.length]).toEqual([3, 1, 1]);
    expect(d.zReports[0]).toMatchObject({
      znumber: '20261124',
      dailyTotalCents: 1_600_000,
      grossCents: 1_600_000,
      ticketsFiscal: 2,
      discountsCents: 50000,
    });
    expect(d.zReports[0]!.vat.A).toEqual({ net: 1_144_067, tax: 205_933 });
  });

  it('goes down and comes back as a whole', async () => {
    fake.down = 'fail500';
    const down = await send(sign(rct(1, 1, '2026-11-24')));
    expect([down.status, down.body]).toEqual([500, '<Error><Message>An error has occurred.</Message></Error>']);
    fake.down = 'refuse';
    await expect(send(sign(rct(1, 1, '2026-11-24')))).rejects.toThrow();
    fake.down = false;
    expect((await send(sign(rct(1, 1, '2026-11-24')))).ack).toBe(0);
    expect([fake.device().receipts.length, fake.violations]).toEqual([1, []]);
  });
});

describe('the fake TRA with two taxpayers', () => {
  it("keeps a counter per device and refuses one taxpayer's token with the other's certificate", async () => {
    const other = makeTraCertificate({ serial: '6b28d1ef' });
    const fake = new TraFake([
      { tin: TIN, certSerial: cert.serial, certKey: CERTKEY, publicKeyPem: cert.publicKeyPem, receiptCode: '8AD1E3' },
      {
        tin: '987654321',
        certSerial: other.serial,
        certKey: '10TZ100782',
        publicKeyPem: other.publicKeyPem,
        receiptCode: 'C0FFEE',
        startGc: 40,
      },
    ]);
    await fake.start();
    try {
      const [first, second] = [await takeToken(fake, cert.serial), await takeToken(fake, other.serial)];
      const url = `${fake.url}/api/efdmsRctInfo`;
      const mine = { tin: '987654321', regId: 'TZ0100551362', efdSerial: '10TZ100782', rctvnum: 'C0FFEE41' };
      expect((await post(url, sign(rct(1, 1, '2026-11-24')), xmlHeaders(cert.serial, 'vfdrct', first))).ack).toBe(0);
      expect((await post(url, sign(rct(41, 1, '2026-11-24', SUGAR, mine)), xmlHeaders(other.serial, 'vfdrct', second))).ack).toBe(0);
      expect((await post(url, sign(rct(2, 2, '2026-11-24')), xmlHeaders(cert.serial, 'vfdrct', second))).status).toBe(401);
      expect([fake.device(cert.serial).lastGc, fake.device(other.serial).lastGc, fake.device(other.serial).receipts[0]!.rctvnum]).toEqual([
        1,
        41,
        'C0FFEE41',
      ]);
      expect(fake.violations).toEqual(["receipt: 401 for another taxpayer's token"]);
    } finally {
      await fake.stop();
    }
  });
});

describe('the test certificate', () => {
  it('is a .pfx that opens with its password and only with it', () => {
    const der = forge.util.decode64(cert.pfxBase64);
    const p12 = forge.pkcs12.pkcs12FromAsn1(forge.asn1.fromDer(der), cert.password);
    const certs = p12.getBags({ bagType: forge.pki.oids.certBag! })[forge.pki.oids.certBag!]!;
    const keys = p12.getBags({ bagType: forge.pki.oids.pkcs8ShroudedKeyBag! })[forge.pki.oids.pkcs8ShroudedKeyBag!]!;
    expect([certs.length, keys.length, certs[0]!.cert!.serialNumber]).toEqual([1, 1, '5a17c0de']);
    expect(forge.pki.publicKeyToPem(certs[0]!.cert!.publicKey)).toBe(
      forge.pki.publicKeyToPem(forge.pki.publicKeyFromPem(cert.publicKeyPem)),
    );
    expect(() => forge.pkcs12.pkcs12FromAsn1(forge.asn1.fromDer(der), 'not-the-password')).toThrow(
      'PKCS#12 MAC could not be verified. Invalid password?',
    );
  });
});
