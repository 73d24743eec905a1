/**
 * A shift's X or Z report for the thermal printer, through the same encoder as the receipt: per
 * payment method what came in and went out and what was expected, and at close what was counted
 * and the over or short. The figures are the shared report's (`ShiftReport`), not worked out here.
 */
import type { ShiftReport } from '@duka/shared';
import { tzs } from '../format.js';
import ReceiptPrinterEncoder from '@point-of-sale/receipt-printer-encoder';
import { methodName, t } from '../i18n.js';
import type { EncodeOptions } from './encode-receipt.js';
import { COLUMNS } from './paper.js';

export interface ShiftReportHeader {
  shop: string;
  /** When the shift opened and when the report was printed, as the receipt writes dates (shop's clock). */
  openedAt: string;
  printedAt: string;
}

/** Amounts take this many columns (as on the receipt), labels the rest. */
const AMOUNT_COLUMNS = { 58: 14, 80: 18 } as const;

const money = (amount: number | null): string => (amount === null ? '-' : tzs(amount));

export function encodeShiftReport(r: ShiftReport, h: ShiftReportHeader, options: EncodeOptions): Uint8Array {
  return layOutShiftReport(r, h, options).encode();
}

/** The report laid out but not yet encoded (its text is what the tests read). */
export function layOutShiftReport(
  r: ShiftReport,
  h: ShiftReportHeader,
  { width, language = 'esc-pos' }: EncodeOptions,
): ReceiptPrinterEncoder {
  const columns = COLUMNS[width];
  const e = new ReceiptPrinterEncoder({ language, columns, feedBeforeCut: 4 });
  const row = (label: string, value: string) =>
    e.table(
      [
        { width: columns - AMOUNT_COLUMNS[width] - 1, align: 'left' },
        { width: AMOUNT_COLUMNS[width], align: 'right', marginLeft: 1 },
      ],
      [[label, value]],
    );
  const dashes = () => e.line('-'.repeat(columns));

  e.initialize().codepage('auto');
  e.align('center')
    .bold(true)
    .line(h.shop)
    .line(t(r.kind === 'X' ? 'shift.x_report' : 'shift.z_report'))
    .bold(false)
    .align('left');
  dashes();
  if (r.cashier_name) e.line(t('shift.cashier', { name: r.cashier_name }));
  if (r.till_number) e.line(t('shift.till', { till: r.till_number }));
  e.line(t('shift.opened', { time: h.openedAt, amount: money(r.opening_float) }));
  e.line(`${t('receipt.date')}: ${h.printedAt}`);
  for (const m of r.methods) {
    dashes();
    e.bold(true).line(methodName(m.method)).bold(false);
    if (m.method === 'Cash') row(`  ${t('shift.float_short')}`, money(m.opening_float));
    row(`  ${t('shift.sales')} (${m.sales_count})`, money(m.sales));
    if (m.refunds) row(`  ${t('shift.refunds')} (${m.refunds_count})`, `-${money(m.refunds)}`);
    if (m.credit_payments) row(`  ${t('shift.credit_payments')}`, money(m.credit_payments));
    if (m.payouts) row(`  ${t('shift.payouts')}`, `-${money(m.payouts)}`);
    if (!m.counted_at_close) {
      e.line(`  (${t('shift.not_money')})`);
      continue;
    }
    row(`  ${t('shift.expected')}`, money(m.expected));
    if (r.kind === 'Z') {
      row(`  ${t('shift.counted')}`, m.counted === null ? t('shift.not_counted') : money(m.counted));
      if (m.over_short !== null) row(`  ${t('shift.over_short')}`, money(m.over_short));
    }
  }
  dashes();
  e.bold(true);
  row(t('shift.expected'), money(r.totals.expected));
  if (r.kind === 'Z') {
    row(t('shift.counted'), money(r.totals.counted));
    row(t('shift.over_short'), money(r.totals.over_short));
  }
  e.bold(false);
  // The middle dot is not in every printer's code page: commas on paper.
  const counts = t('shift.counts', {
    sales: r.sales_count,
    refunds: r.refund_count,
    payouts: r.payout_count,
    payments: r.credit_payment_count,
  });
  e.line(counts.replaceAll(' · ', ', '));
  if (r.note) e.line(r.note);
  return e.cut();
}
