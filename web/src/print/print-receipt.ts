/**
 * "Print" on the receipt screen: to the paired thermal printer, or, with none paired, through the
 * browser's print dialog with the page sized to the paper (styles.css prints only the receipt).
 */
import type { ShiftReport } from '@duka/shared';
import type { ShiftReportHeader } from './encode-shift-report.js';
import type { PaperWidth } from './paper.js';
import { printerSettings, sendToPrinter } from './printer.js';
import type { ReceiptModel } from './receipt-model.js';

const PAGE_STYLE_ID = 'duka-receipt-page';

/** `@page` cannot depend on a selector, so the paper's size is written into the page before printing. */
export function printDialog(width: PaperWidth): void {
  document.documentElement.dataset.paper = String(width);
  let style = document.getElementById(PAGE_STYLE_ID);
  if (!style) {
    style = document.createElement('style');
    style.id = PAGE_STYLE_ID;
    document.head.append(style);
  }
  style.textContent = `@media print { @page { size: ${width}mm auto; margin: ${width === 58 ? 2 : 4}mm; } }`;
  window.print();
}

/** Where it went: `printer`, or `dialog` when no printer is paired. A paired printer's failure is thrown. */
export async function printReceipt(model: ReceiptModel): Promise<'printer' | 'dialog'> {
  const { width, printer } = printerSettings.get();
  if (!printer) {
    printDialog(width);
    return 'dialog';
  }
  // The encoder (about 110 kB) loads with the first receipt printed, from the service worker's cache offline.
  const { encodeReceipt } = await import('./encode-receipt.js');
  await sendToPrinter(encodeReceipt(model, { width, language: printer.language, codepageMapping: printer.codepageMapping }));
  return 'printer';
}

/** A shift's X or Z report: to the paired printer, or the print dialog (the report on screen is a `.receipt` block). */
export async function printShiftReport(report: ShiftReport, header: ShiftReportHeader): Promise<'printer' | 'dialog'> {
  const { width, printer } = printerSettings.get();
  if (!printer) {
    printDialog(width);
    return 'dialog';
  }
  const { encodeShiftReport } = await import('./encode-shift-report.js');
  await sendToPrinter(encodeShiftReport(report, header, { width, language: printer.language }));
  return 'printer';
}
