/**
 * Reading a receipt (`<RCT>`) and a Z report (`<ZREPORT>`) as TRA would, with every rule of
 * docs/fiscal-wire.md that a document breaks on its own (formats, element order, arithmetic, tax,
 * codes). Rules that need the device's history (counters, the day's totals) are the fake's.
 */
import { type El, amount, cents, child, count, field, groups, parseElement } from './tra-xml.js';

/** The fake's ACKCODEs: 0 is the only success, as at TRA. */
export const ACK = {
  ok: 0,
  /** The signature does not verify with the certificate's public key. */
  signature: 1,
  /** A wrong or missing Cert-Serial, Routing-Key, Content-Type or Client header. */
  headers: 2,
  /** TIN, CERTKEY, REGID, EFDSERIAL, VRN, TAXOFFICE or USER is not the registered device's. */
  taxpayer: 3,
  /** GC, RCTNUM, DC, ZNUM, RCTVNUM or ZNUMBER out of sequence, or a day already closed. */
  counters: 4,
  /** Amounts: not two decimals, sums that do not add up, VAT not 18/118, Z totals. */
  amounts: 5,
  /** Not well-formed, elements missing or out of order, an unknown tax code, payment or ID type. */
  fields: 6,
  /** An acknowledged GC or ZNUMBER sent again with different bytes. */
  duplicate: 7,
  /** A test's scripted `{ reject }`. */
  rejected: 9,
} as const;

export interface Problem {
  code: number;
  message: string;
}

export const LETTERS = ['A', 'B', 'C', 'D', 'E'] as const;
export const PAYMENT_TYPES = ['CASH', 'CHEQUE', 'CCARD', 'EMONEY', 'INVOICE'] as const;
const Z_RATES = ['A-18.00', 'B-0.00', 'C-0.00', 'D-0.00', 'E-0.00'];
const RCT_ORDER =
  'DATE TIME TIN REGID EFDSERIAL CUSTIDTYPE CUSTID CUSTNAME MOBILENUM RCTNUM DC GC ZNUM RCTVNUM ITEMS TOTALS PAYMENTS VATTOTALS';
const Z_ORDER =
  'DATE TIME HEADER VRN TIN TAXOFFICE REGID ZNUMBER EFDSERIAL REGISTRATIONDATE USER SIMIMSI TOTALS VATTOTALS PAYMENTS CHANGES ERRORS FWVERSION FWCHECKSUM';
const Z_TOTALS = 'DAILYTOTALAMOUNT GROSS CORRECTIONS DISCOUNTS SURCHARGES TICKETSVOID TICKETSVOIDTOTAL TICKETSFISCAL TICKETSNONFISCAL';

export interface TraItem {
  id: number;
  desc: string;
  qty: string;
  taxCode: number;
  amtCents: number;
}

export type VatTotals = Record<string, { net: number; tax: number }>;

export interface TraReceipt {
  gc: number;
  rctnum: number;
  dc: number;
  znum: string;
  date: string;
  time: string;
  rctvnum: string;
  tin: string;
  regId: string;
  efdSerial: string;
  /** The request body exactly as received: a resend must repeat it byte for byte. */
  body: string;
  totalInclCents: number;
  totalExclCents: number;
  discountCents: number;
  payments: Record<string, number>;
  vat: VatTotals;
  items: TraItem[];
  custIdType: number;
  custId: string;
  custName: string;
  mobile: string;
}

export interface TraZReport {
  znumber: string;
  date: string;
  time: string;
  tin: string;
  regId: string;
  efdSerial: string;
  vrn: string;
  taxOffice: string;
  user: string;
  body: string;
  dailyTotalCents: number;
  grossCents: number;
  discountsCents: number;
  ticketsFiscal: number;
  vat: VatTotals;
  payments: Record<string, number>;
}

const isDate = (s: string | undefined) =>
  /^\d{4}-\d\d-\d\d$/.test(s ?? '') &&
  !Number.isNaN(Date.parse(`${s}T00:00:00Z`)) &&
  new Date(`${s}T00:00:00Z`).toISOString().startsWith(s!);
const isTime = (s: string | undefined) => /^([01]\d|2[0-3]):[0-5]\d:[0-5]\d$/.test(s ?? '');
/** Whitespace before an opening tag or after a closing one; a whitespace value (`<X> </X>`) is not. */
const BETWEEN_ELEMENTS = />\s+<[A-Z]|<\/[A-Z]+>\s+</;
const order = (el: El | undefined) => (el?.kids ?? []).map((k) => k.tag).join(' ');

/** Collects problems while reading; `need` returns the value, or records what was wrong with it. */
function reader() {
  const problems: Problem[] = [];
  const fail = (code: number, message: string) => void problems.push({ code, message });
  function need<T>(value: T | false | null | undefined, code: number, message: string): T | undefined {
    if (value === null || value === undefined || value === false) return void fail(code, message);
    return value;
  }
  const money = (el: El | undefined, tag: string) =>
    need(cents(field(el, tag)), ACK.amounts, `${tag} must be an amount with two decimals, got ${JSON.stringify(field(el, tag))}`);
  return { problems, fail, need, money };
}

export function readReceipt(payload: string, body: string): { receipt: TraReceipt | null; problems: Problem[] } {
  const { problems, fail, need, money } = reader();
  const rct = parseElement(payload);
  if (!rct) return { receipt: null, problems: [{ code: ACK.fields, message: 'RCT is not well-formed XML' }] };
  if (BETWEEN_ELEMENTS.test(payload)) fail(ACK.fields, 'whitespace between elements');
  if (order(rct) !== RCT_ORDER)
    return { receipt: null, problems: [...problems, { code: ACK.fields, message: `RCT elements are ${order(rct)}, not ${RCT_ORDER}` }] };

  const date = need(isDate(field(rct, 'DATE')) && field(rct, 'DATE'), ACK.fields, 'DATE must be YYYY-MM-DD');
  const time = need(isTime(field(rct, 'TIME')) && field(rct, 'TIME'), ACK.fields, 'TIME must be HH:MM:SS');
  const gc = need(count(field(rct, 'GC')), ACK.counters, 'GC must be a whole number');
  const rctnum = need(count(field(rct, 'RCTNUM')), ACK.counters, 'RCTNUM must be a whole number');
  const dc = need(count(field(rct, 'DC')), ACK.counters, 'DC must be a whole number');
  const znum = field(rct, 'ZNUM') ?? '';
  if (date && znum !== date.replaceAll('-', '')) fail(ACK.counters, `ZNUM ${znum} is not DATE ${date} as YYYYMMDD`);
  if (gc !== undefined && rctnum !== gc) fail(ACK.counters, `RCTNUM ${rctnum} is not GC ${gc}`);

  const custIdType = Number(field(rct, 'CUSTIDTYPE'));
  const custId = field(rct, 'CUSTID') ?? '';
  if (!/^[1-6]$/.test(field(rct, 'CUSTIDTYPE') ?? '')) fail(ACK.fields, 'CUSTIDTYPE must be 1-6');
  else if (custIdType === 6 && custId !== '') fail(ACK.fields, 'CUSTID must be empty for CUSTIDTYPE 6');
  else if (custIdType === 1 && !/^\d{9}$/.test(custId)) fail(ACK.fields, 'CUSTID must be a 9-digit TIN for CUSTIDTYPE 1');
  else if (custIdType !== 6 && custId.trim() === '') fail(ACK.fields, `CUSTID is required for CUSTIDTYPE ${custIdType}`);
  const mobile = field(rct, 'MOBILENUM') ?? '';
  if (!/^\d*$/.test(mobile)) fail(ACK.fields, 'MOBILENUM must be digits only');

  const items: TraItem[] = [];
  const itemEls = rct.kids.find((k) => k.tag === 'ITEMS')!.kids;
  if (itemEls.length === 0) fail(ACK.fields, 'ITEMS is empty');
  itemEls.forEach((it, i) => {
    if (it.tag !== 'ITEM' || order(it) !== 'ID DESC QTY TAXCODE AMT')
      return fail(ACK.fields, `ITEM ${i + 1} must be ID DESC QTY TAXCODE AMT`);
    const desc = field(it, 'DESC') ?? '';
    const qty = field(it, 'QTY') ?? '';
    if (field(it, 'ID') !== String(i + 1)) fail(ACK.fields, `ITEM ${i + 1} has ID ${field(it, 'ID')}`);
    if (desc.trim() === '') fail(ACK.fields, `ITEM ${i + 1} has no DESC`);
    if (!/^\d+(\.\d+)?$/.test(qty) || Number(qty) <= 0) fail(ACK.fields, `ITEM ${i + 1} QTY ${qty} is not a positive quantity`);
    const taxCode = need(
      /^[1-5]$/.test(field(it, 'TAXCODE') ?? '') && Number(field(it, 'TAXCODE')),
      ACK.fields,
      `ITEM ${i + 1} TAXCODE must be 1-5`,
    );
    const amtCents = money(it, 'AMT');
    if (taxCode !== undefined && amtCents !== undefined) items.push({ id: i + 1, desc, qty, taxCode, amtCents });
  });

  const totals = rct.kids.find((k) => k.tag === 'TOTALS');
  if (order(totals) !== 'TOTALTAXEXCL TOTALTAXINCL DISCOUNT') fail(ACK.fields, 'TOTALS must be TOTALTAXEXCL TOTALTAXINCL DISCOUNT');
  const totalExclCents = money(totals, 'TOTALTAXEXCL');
  const totalInclCents = money(totals, 'TOTALTAXINCL');
  const discountCents = money(totals, 'DISCOUNT');

  const payments: Record<string, number> = {};
  const pairs =
    need(groups(child(rct, 'PAYMENTS'), ['PMTTYPE', 'PMTAMOUNT']), ACK.fields, 'PAYMENTS must be PMTTYPE, PMTAMOUNT pairs') ?? [];
  if (pairs.length === 0) fail(ACK.fields, 'PAYMENTS is empty');
  for (const [type, amt] of pairs) {
    const c = need(cents(amt), ACK.amounts, `PMTAMOUNT ${amt} must have two decimals`);
    if (!(PAYMENT_TYPES as readonly string[]).includes(type!))
      fail(ACK.fields, `PMTTYPE ${type} is not one of ${PAYMENT_TYPES.join(', ')}`);
    else if (c !== undefined) payments[type!] = (payments[type!] ?? 0) + c;
  }

  const vat: VatTotals = {};
  const triples =
    need(
      groups(child(rct, 'VATTOTALS'), ['VATRATE', 'NETTAMOUNT', 'TAXAMOUNT']),
      ACK.fields,
      'VATTOTALS must be VATRATE, NETTAMOUNT, TAXAMOUNT triples',
    ) ?? [];
  for (const [letter, netText, taxText] of triples) {
    const net = need(cents(netText), ACK.amounts, `NETTAMOUNT ${netText} must have two decimals`);
    const tax = need(cents(taxText), ACK.amounts, `TAXAMOUNT ${taxText} must have two decimals`);
    if (!(LETTERS as readonly string[]).includes(letter!)) fail(ACK.fields, `VATRATE ${letter} is not A-E`);
    else if (vat[letter!]) fail(ACK.fields, `VATRATE ${letter} appears twice`);
    else if (net !== undefined && tax !== undefined) {
      vat[letter!] = { net, tax };
      if (letter === 'A' && Math.abs(118 * tax - 18 * (net + tax)) > 118)
        fail(ACK.amounts, `VAT A: TAXAMOUNT ${taxText} is not 18/118 of ${amount(net + tax)}`);
      if (letter !== 'A' && tax !== 0) fail(ACK.amounts, `VAT ${letter}: TAXAMOUNT must be 0.00, got ${taxText}`);
    }
  }
  const used = [...new Set(items.map((i) => LETTERS[i.taxCode - 1]))].sort().join(',');
  if (Object.keys(vat).sort().join(',') !== used)
    fail(ACK.fields, `VATTOTALS has ${Object.keys(vat).sort().join(',')}, the items use ${used}`);

  if (totalInclCents !== undefined && discountCents !== undefined && totalExclCents !== undefined) {
    const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
    const amt = sum(items.map((i) => i.amtCents));
    if (amt - discountCents !== totalInclCents)
      fail(ACK.amounts, `Σ AMT ${amount(amt)} − DISCOUNT ${amount(discountCents)} is not TOTALTAXINCL ${amount(totalInclCents)}`);
    const paid = sum(Object.values(payments));
    if (paid !== totalInclCents) fail(ACK.amounts, `Σ PMTAMOUNT ${amount(paid)} is not TOTALTAXINCL ${amount(totalInclCents)}`);
    const gross = sum(Object.values(vat).map((v) => v.net + v.tax));
    if (gross !== totalInclCents)
      fail(ACK.amounts, `Σ NETTAMOUNT+TAXAMOUNT ${amount(gross)} is not TOTALTAXINCL ${amount(totalInclCents)}`);
    const net = sum(Object.values(vat).map((v) => v.net));
    if (net !== totalExclCents) fail(ACK.amounts, `Σ NETTAMOUNT ${amount(net)} is not TOTALTAXEXCL ${amount(totalExclCents)}`);
  }
  if (problems.length > 0 || gc === undefined || dc === undefined || !date || !time) return { receipt: null, problems };
  return {
    receipt: {
      gc,
      rctnum: rctnum!,
      dc,
      znum,
      date,
      time,
      rctvnum: field(rct, 'RCTVNUM') ?? '',
      tin: field(rct, 'TIN') ?? '',
      regId: field(rct, 'REGID') ?? '',
      efdSerial: field(rct, 'EFDSERIAL') ?? '',
      body,
      totalInclCents: totalInclCents!,
      totalExclCents: totalExclCents!,
      discountCents: discountCents!,
      payments,
      vat,
      items,
      custIdType,
      custId,
      custName: field(rct, 'CUSTNAME') ?? '',
      mobile,
    },
    problems,
  };
}

export function readZReport(payload: string, body: string): { z: TraZReport | null; problems: Problem[] } {
  const { problems, fail, need, money } = reader();
  const z = parseElement(payload);
  if (!z) return { z: null, problems: [{ code: ACK.fields, message: 'ZREPORT is not well-formed XML' }] };
  if (BETWEEN_ELEMENTS.test(payload)) fail(ACK.fields, 'whitespace between elements');
  if (order(z) !== Z_ORDER)
    return { z: null, problems: [...problems, { code: ACK.fields, message: `ZREPORT elements are ${order(z)}, not ${Z_ORDER}` }] };
  const date = need(isDate(field(z, 'DATE')) && field(z, 'DATE'), ACK.fields, 'DATE must be YYYY-MM-DD');
  need(isTime(field(z, 'TIME')), ACK.fields, 'TIME must be HH:MM:SS');
  need(isDate(field(z, 'REGISTRATIONDATE')), ACK.fields, 'REGISTRATIONDATE must be YYYY-MM-DD');
  const header = child(z, 'HEADER')!;
  if (header.kids.length === 0 || header.kids.some((l) => l.tag !== 'LINE' || l.kids.length > 0))
    fail(ACK.fields, 'HEADER must be LINE elements');
  const znumber = field(z, 'ZNUMBER') ?? '';
  if (date && znumber !== date.replaceAll('-', '')) fail(ACK.counters, `ZNUMBER ${znumber} is not DATE ${date} as YYYYMMDD`);

  const totals = child(z, 'TOTALS');
  if (order(totals) !== Z_TOTALS) fail(ACK.fields, `TOTALS must be ${Z_TOTALS}`);
  const [dailyTotalCents, grossCents, discountsCents] = ['DAILYTOTALAMOUNT', 'GROSS', 'DISCOUNTS'].map((t) => money(totals, t));
  for (const t of ['CORRECTIONS', 'SURCHARGES', 'TICKETSVOIDTOTAL']) money(totals, t);
  for (const t of ['TICKETSVOID', 'TICKETSNONFISCAL']) need(count(field(totals, t)), ACK.fields, `${t} must be a whole number`);
  const ticketsFiscal = need(count(field(totals, 'TICKETSFISCAL')), ACK.fields, 'TICKETSFISCAL must be a whole number');

  const vat: VatTotals = {};
  const triples = groups(child(z, 'VATTOTALS'), ['VATRATE', 'NETTAMOUNT', 'TAXAMOUNT']);
  if (!triples || triples.map((t) => t[0]).join(',') !== Z_RATES.join(','))
    fail(ACK.fields, `VATTOTALS must be one triple for each of ${Z_RATES.join(', ')}, in order`);
  for (const [rate, net, tax] of triples ?? []) {
    const n = need(cents(net), ACK.amounts, `NETTAMOUNT ${net} must have two decimals`);
    const t = need(cents(tax), ACK.amounts, `TAXAMOUNT ${tax} must have two decimals`);
    if (n !== undefined && t !== undefined) vat[rate!.slice(0, 1)] = { net: n, tax: t };
  }
  const payments: Record<string, number> = {};
  const pairs = groups(child(z, 'PAYMENTS'), ['PMTTYPE', 'PMTAMOUNT']);
  if (!pairs || pairs.map((p) => p[0]).join(',') !== PAYMENT_TYPES.join(','))
    fail(ACK.fields, `PAYMENTS must be one pair for each of ${PAYMENT_TYPES.join(', ')}, in order`);
  for (const [type, amt] of pairs ?? []) {
    const c = need(cents(amt), ACK.amounts, `PMTAMOUNT ${amt} must have two decimals`);
    if (c !== undefined) payments[type!] = c;
  }
  if (problems.length > 0 || !date) return { z: null, problems };
  return {
    z: {
      znumber,
      date,
      time: field(z, 'TIME')!,
      tin: field(z, 'TIN') ?? '',
      regId: field(z, 'REGID') ?? '',
      efdSerial: field(z, 'EFDSERIAL') ?? '',
      vrn: field(z, 'VRN') ?? '',
      taxOffice: field(z, 'TAXOFFICE') ?? '',
      user: field(z, 'USER') ?? '',
      body,
      dailyTotalCents: dailyTotalCents!,
      grossCents: grossCents!,
      discountsCents: discountsCents!,
      ticketsFiscal: ticketsFiscal!,
      vat,
      payments,
    },
    problems,
  };
}
