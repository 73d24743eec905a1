/**
 * A sale's fiscal receipt as TRA's `RCT` element (docs/fiscal-wire.md §3), from the sale as the
 * server recorded it and the counters it was numbered with. Amounts come straight from the
 * sale's lines (integer cents from the shared pricing function), so the receipt adds up exactly:
 * Σ AMT − DISCOUNT = TOTALTAXINCL = Σ payments = Σ (net + VAT) per tax code.
 */
import { fromCount, TRA_PAYMENT_TYPE, type TaxCode, taxCodeNumber, type TraPaymentType, type Unit } from '@duka/shared';
import type { FiscalReceiptRow } from '../../../db/tables/fiscal.table.js';
import type { TransactionLineRow, TransactionPaymentRow, TransactionRow } from '../../../db/tables/pos.table.js';
import { EAT, localDate, localTime } from '../../../lib/time.js';
import { amount, elements, wrap } from '../tra/xml.js';

/** TRA's days are East Africa Time's, whatever the organisation's own time zone. */
/** `YYYYMMDD` of the instant in EAT: a receipt's ZNUM and its day's Z report number. */
export const zNumber = (ms: number) => localDate(ms, EAT).replaceAll('-', '');

export interface Issuer {
  tin: string;
  regid: string;
  efdSerial: string;
}

export interface VatTotal {
  net: number;
  tax: number;
}

/** The receipt's figures in cents, kept beside the XML so the Z report adds them up without parsing. */
export interface ReceiptFigures {
  totalIncl: number;
  totalExcl: number;
  discount: number;
  /** Cents per TRA payment type, one pair per type the sale was paid by (issue 51: a split sale has several). */
  payments: Array<{ type: TraPaymentType; amount: number }>;
  /** Receipts built before issue 51: the one type, for the whole total (read by the Z report only). */
  payment?: TraPaymentType;
  vat: Partial<Record<TaxCode, VatTotal>>;
}

export function receiptFigures(
  sale: TransactionRow,
  lines: Array<TransactionLineRow & { taxCode: TaxCode }>,
  parts: Array<Pick<TransactionPaymentRow, 'method' | 'amount'>>,
): ReceiptFigures {
  const vat: Partial<Record<TaxCode, VatTotal>> = {};
  for (const l of lines) {
    const tax = l.taxCode === 'A' ? l.tax : 0;
    const v = (vat[l.taxCode] ??= { net: 0, tax: 0 });
    v.net += l.line_total - l.discount - tax;
    v.tax += tax;
  }
  const taxTotal = Object.values(vat).reduce((s, v) => s + v.tax, 0);
  return {
    totalIncl: sale.total,
    totalExcl: sale.total - taxTotal,
    discount: sale.discount,
    payments: paymentTypes(parts),
    vat,
  };
}

/** The sale's parts per TRA payment type, in the order first paid (TRA wants PMTTYPE/PMTAMOUNT pairs summing to the total). */
function paymentTypes(parts: Array<Pick<TransactionPaymentRow, 'method' | 'amount'>>) {
  const byType = new Map<TraPaymentType, number>();
  for (const p of parts) byType.set(TRA_PAYMENT_TYPE[p.method], (byType.get(TRA_PAYMENT_TYPE[p.method]) ?? 0) + p.amount);
  return [...byType].map(([type, amount]) => ({ type, amount }));
}

/** The buyer as TRA records them: by TIN when the cashier took one (type 1), else nobody (type 6). */
function customer(sale: TransactionRow): Array<[string, string | number]> {
  return [
    ['CUSTIDTYPE', sale.customer_tin ? 1 : 6],
    ['CUSTID', sale.customer_tin ?? ''],
    ['CUSTNAME', sale.customer_name ?? ''],
    ['MOBILENUM', (sale.customer_phone ?? '').replace(/\D/g, '')],
  ];
}

/** The `<RCT>…</RCT>` payload (unsigned). */
export function receiptPayload(
  issuer: Issuer,
  receipt: FiscalReceiptRow,
  sale: TransactionRow,
  lines: Array<TransactionLineRow & { taxCode: TaxCode; unit?: Unit }>,
  figures: ReceiptFigures,
): string {
  const head = elements([
    ['DATE', localDate(receipt.issued_at, EAT)],
    ['TIME', localTime(receipt.issued_at, EAT)],
    ['TIN', issuer.tin],
    ['REGID', issuer.regid],
    ['EFDSERIAL', issuer.efdSerial],
    ...customer(sale),
    ['RCTNUM', Number(receipt.gc)],
    ['DC', receipt.dc],
    ['GC', Number(receipt.gc)],
    ['ZNUM', receipt.znum],
    ['RCTVNUM', receipt.rctvnum],
  ]);
  const items = lines.map((l, i) =>
    wrap(
      'ITEM',
      elements([
        ['ID', i + 1],
        ['DESC', l.product_name],
        // In the product's unit: 0.5 for half a kilo (the line's counts are thousandths of it).
        ['QTY', fromCount(l.qty, l.unit ?? 'piece')],
        ['TAXCODE', taxCodeNumber(l.taxCode)],
        ['AMT', amount(l.line_total)],
      ]),
    ),
  );
  const totals = elements([
    ['TOTALTAXEXCL', amount(figures.totalExcl)],
    ['TOTALTAXINCL', amount(figures.totalIncl)],
    ['DISCOUNT', amount(figures.discount)],
  ]);
  const payments = figures.payments
    .map((p) =>
      elements([
        ['PMTTYPE', p.type],
        ['PMTAMOUNT', amount(p.amount)],
      ]),
    )
    .join('');
  const vat = (Object.entries(figures.vat) as Array<[TaxCode, VatTotal]>)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([code, v]) =>
      elements([
        ['VATRATE', code],
        ['NETTAMOUNT', amount(v.net)],
        ['TAXAMOUNT', amount(v.tax)],
      ]),
    )
    .join('');
  return wrap(
    'RCT',
    `${head}${wrap('ITEMS', items.join(''))}${wrap('TOTALS', totals)}${wrap('PAYMENTS', payments)}${wrap('VATTOTALS', vat)}`,
  );
}
