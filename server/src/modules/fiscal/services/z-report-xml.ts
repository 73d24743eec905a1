/**
 * The daily Z report (docs/fiscal-wire.md §4): a day's receipts added up, with the running total
 * since registration, the day's refunds and voids of fiscalised sales, VAT per rate and payments
 * per type, always listing all five rates and all five payment types in TRA's order.
 */
import { type TaxCode, TaxCode as TaxCodes, TraPaymentType } from '@duka/shared';
import { amount, elements, wrap } from '../tra/xml.js';
import type { DeviceRegistration } from '../fiscal.queries.js';
import type { ReceiptFigures, VatTotal } from './receipt-xml.js';

export interface ZFigures {
  /** `YYYY-MM-DD` (EAT). */
  date: string;
  receipts: number;
  dailyTotal: number;
  gross: number;
  discounts: number;
  corrections: number;
  voids: number;
  voidsTotal: number;
  vat: Record<TaxCode, VatTotal>;
  payments: Record<TraPaymentType, number>;
}

const RATE_LABEL: Record<TaxCode, string> = { A: 'A-18.00', B: 'B-0.00', C: 'C-0.00', D: 'D-0.00', E: 'E-0.00' };

export function addUpDay(
  date: string,
  receipts: ReceiptFigures[],
  grossBefore: number,
  reversals: { corrections: number; voids: number; voidsTotal: number },
): ZFigures {
  const vat = Object.fromEntries(TaxCodes.options.map((c) => [c, { net: 0, tax: 0 }])) as Record<TaxCode, VatTotal>;
  const payments = Object.fromEntries(TraPaymentType.options.map((p) => [p, 0])) as Record<TraPaymentType, number>;
  let dailyTotal = 0;
  let discounts = 0;
  for (const r of receipts) {
    dailyTotal += r.totalIncl;
    discounts += r.discount;
    for (const p of r.payments ?? [{ type: r.payment!, amount: r.totalIncl }]) payments[p.type] += p.amount;
    for (const [code, v] of Object.entries(r.vat) as Array<[TaxCode, VatTotal]>) {
      vat[code].net += v.net;
      vat[code].tax += v.tax;
    }
  }
  return { date, receipts: receipts.length, dailyTotal, gross: grossBefore + dailyTotal, discounts, ...reversals, vat, payments };
}

export interface ZIssuer {
  tin: string;
  vrn: string | null;
  registration: DeviceRegistration;
  registeredOn: string;
}

/** The `<ZREPORT>…</ZREPORT>` payload (unsigned). */
export function zReportPayload(issuer: ZIssuer, z: ZFigures): string {
  const r = issuer.registration;
  const header = [r.name, r.street, `MOBILE: ${r.mobile}`, `${r.city},${r.country}`]
    .map((line) => elements([['LINE', line.toUpperCase()]]))
    .join('');
  const totals = elements([
    ['DAILYTOTALAMOUNT', amount(z.dailyTotal)],
    ['GROSS', amount(z.gross)],
    ['CORRECTIONS', amount(z.corrections)],
    ['DISCOUNTS', amount(z.discounts)],
    ['SURCHARGES', amount(0)],
    ['TICKETSVOID', z.voids],
    ['TICKETSVOIDTOTAL', amount(z.voidsTotal)],
    ['TICKETSFISCAL', z.receipts],
    ['TICKETSNONFISCAL', 0],
  ]);
  const vat = TaxCodes.options
    .map((c) =>
      elements([
        ['VATRATE', RATE_LABEL[c]],
        ['NETTAMOUNT', amount(z.vat[c].net)],
        ['TAXAMOUNT', amount(z.vat[c].tax)],
      ]),
    )
    .join('');
  const payments = TraPaymentType.options
    .map((p) =>
      elements([
        ['PMTTYPE', p],
        ['PMTAMOUNT', amount(z.payments[p])],
      ]),
    )
    .join('');
  return wrap(
    'ZREPORT',
    elements([
      ['DATE', z.date],
      ['TIME', '23:59:59'],
    ]) +
      wrap('HEADER', header) +
      elements([
        ['VRN', issuer.vrn ?? 'NOT REGISTERED'],
        ['TIN', issuer.tin],
        ['TAXOFFICE', r.tax_office],
        ['REGID', r.regid],
        ['ZNUMBER', z.date.replaceAll('-', '')],
        ['EFDSERIAL', r.efd_serial],
        ['REGISTRATIONDATE', issuer.registeredOn],
        ['USER', r.uin],
        ['SIMIMSI', 'WEBAPI'],
      ]) +
      wrap('TOTALS', totals) +
      wrap('VATTOTALS', vat) +
      wrap('PAYMENTS', payments) +
      wrap(
        'CHANGES',
        elements([
          ['VATCHANGENUM', 0],
          ['HEADCHANGENUM', 0],
        ]),
      ) +
      elements([
        ['ERRORS', ''],
        ['FWVERSION', '3.0'],
        ['FWCHECKSUM', 'WEBAPI'],
      ]),
  );
}
