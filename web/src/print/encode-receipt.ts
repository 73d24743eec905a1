/**
 * A receipt as the bytes a thermal printer takes (ESC/POS by default), through Niels Leenheer's
 * ReceiptPrinterEncoder: it pads and wraps to the paper's columns (font A: 32 on 58 mm, 48 on
 * 80 mm), picks code pages for non-ASCII names, and sends the TRA link as the printer's own QR
 * command (GS ( k), which prints sharper than a picture and costs a few bytes.
 * The same model and options always give the same bytes: web/test/golden/ holds them.
 */
import { formatTzs, perUnitText, quantityText } from '@duka/shared';
import ReceiptPrinterEncoder from '@point-of-sale/receipt-printer-encoder';
import { phoneForPeople } from '../format.js';
import { type MessageKey, t } from '../i18n.js';
import { COLUMNS, type PaperWidth } from './paper.js';
import type { ReceiptModel } from './receipt-model.js';

/** The command languages the encoder writes; a printer that names none of these gets ESC/POS. */
export type PrinterLanguage = 'esc-pos' | 'star-prnt' | 'star-line';

export interface EncodeOptions {
  width: PaperWidth;
  language?: PrinterLanguage;
  /** The printer's code page table, as its driver reports it (e.g. `epson`), when it does. */
  codepageMapping?: string | null;
}

/** Wide enough for `-TZS 12,345,678.50` on 80 mm; a little narrower on 58 mm, where labels need the room. */
const AMOUNT_COLUMNS: Record<PaperWidth, number> = { 58: 14, 80: 18 };
/** Lines fed before the cut: the cutter sits above the print head, and would cut through the last line. */
const FEED_BEFORE_CUT = 4;
/** Modules of 6 dots on 58 mm (384 dots), 8 on 80 mm (576): TRA's link makes a 33-module code, about 25 or 33 mm. */
const QR_SIZE: Record<PaperWidth, number> = { 58: 6, 80: 8 };

/** An amount inside a line (`3,200`): the currency is said once, on the totals. */
const bare = (cents: number): string => formatTzs(cents).replace(/^TZS /, '');

export function encodeReceipt(m: ReceiptModel, options: EncodeOptions): Uint8Array {
  return layOutReceipt(m, options).encode();
}

/** The receipt laid out but not yet encoded, for a rendering in text beside the golden bytes (web/test/print/golden.ts). */
export function layOutReceipt(m: ReceiptModel, { width, language = 'esc-pos', codepageMapping }: EncodeOptions): ReceiptPrinterEncoder {
  const columns = COLUMNS[width];
  const amount = AMOUNT_COLUMNS[width];
  const e = new ReceiptPrinterEncoder({
    language,
    columns,
    feedBeforeCut: FEED_BEFORE_CUT,
    ...(codepageMapping ? { codepageMapping: codepageMapping as 'epson' } : {}),
  });
  const dashes = () => e.line('-'.repeat(columns));
  const row = (label: string, value: string) =>
    e.table(
      [
        { width: columns - amount - 1, align: 'left' },
        { width: amount, align: 'right', marginLeft: 1 },
      ],
      [[label, value]],
    );
  const label = (key: MessageKey, params?: Record<string, string>) => t(key, params);

  e.initialize().codepage('auto');

  e.align('center').bold(true).height(2).line(m.shop.name).height(1).bold(false);
  if (m.shop.branch) e.line(m.shop.branch);
  if (m.shop.address) e.line(m.shop.address);
  if (m.shop.phone) e.line(label('print.phone', { phone: m.shop.phone }));
  if (m.shop.tin) e.line(label('print.tin', { tin: m.shop.tin }));

  e.align('left');
  dashes();
  e.line(`${label('receipt.number')}: ${m.number}`);
  if (m.provisional) e.line(`(${label('receipt.pending_number')})`);
  if (m.tillNumber) e.line(`${label('print.till_number')}: ${m.tillNumber}`);
  e.line(`${label('receipt.date')}: ${m.date}`);
  if (m.cashier) e.line(label('print.cashier', { name: m.cashier }));
  if (m.status === 'refunded' || m.status === 'void') {
    e.align('center')
      .bold(true)
      .line(label(m.status === 'refunded' ? 'receipt.status.refunded' : 'receipt.status.voided'))
      .bold(false)
      .align('left');
  }

  dashes();
  for (const l of m.lines) {
    e.line(l.name);
    row(`  ${quantityText(l.qty, l.unit)} x ${bare(l.unitPrice)}${perUnitText(l.unit)}`, bare(l.total));
  }
  dashes();

  row(label('cart.subtotal'), formatTzs(m.subtotal));
  if (m.discount > 0) row(`${label('cart.discount_amount')} (${m.discountPct} %)`, `-${formatTzs(m.discount)}`);
  e.bold(true);
  row(label('cart.total').toUpperCase(), formatTzs(m.total));
  e.bold(false);
  if (m.tax > 0) row(label('receipt.tax'), formatTzs(m.tax));

  dashes();
  const method = t(`pay.method.${m.payment.method}`);
  e.line(label('receipt.paid_by', { method: m.payment.reference ? `${method} (${m.payment.reference})` : method }));
  if (m.payment.phone) e.line(label('receipt.paid_from', { phone: phoneForPeople(m.payment.phone) }));
  // A sale paid several ways: each part, its reference below it (a narrow roll has no room beside).
  for (const p of m.parts) {
    row(`  ${t(`pay.method.${p.method}`)}`, formatTzs(p.amount));
    if (p.reference) e.line(`    ${p.reference}`);
  }
  // Mobile money is confirmed only by the provider's report: until then the paper says so.
  if (m.payment.check) {
    e.bold(m.payment.check !== 'verified');
    e.line(label(m.payment.check === 'verified' ? 'receipt.verification.verified' : 'receipt.verification.unconfirmed'));
    e.bold(false);
  }
  if (m.tendered !== null) row(label('print.tendered'), formatTzs(m.tendered));
  if (m.change !== null) row(label('print.change'), formatTzs(m.change));
  if (m.customer) e.line(label('receipt.customer', { name: m.customer.name }));

  if (m.fiscal) {
    const f = m.fiscal;
    dashes();
    e.align('center').bold(true).line(label('receipt.fiscal.title')).bold(false);
    e.line(`${label('receipt.fiscal.rctvnum')}: ${f.rctvnum}`);
    e.line(`${label('receipt.fiscal.issued')}: ${f.date} ${f.time}`);
    if (m.customer?.tin) e.line(label('receipt.fiscal.customer_tin', { tin: m.customer.tin }));
    e.line(`Z ${f.znum}  DC ${f.dc}  GC ${f.gc}`);
    e.qrcode(f.verifyUrl, { model: 2, size: QR_SIZE[width], errorlevel: 'm' });
    e.line(label('print.qr_note'));
    e.line(f.verifyUrl);
    if (f.pending) e.line(`(${label('receipt.fiscal.pending')})`);
  } else if (m.customer?.tin) {
    e.line(label('receipt.fiscal.customer_tin', { tin: m.customer.tin }));
  }

  e.align('center').newline().line(label('receipt.thanks'));
  return e.cut();
}
