/**
 * The golden receipts (web/test/golden/): the bytes a printer is sent for fixed sales, and
 * beside each a rendering in text to review a change by eye. `UPDATE_GOLDEN=1` writes them again
 * from the current encoder (see docs/browser-till.md, "Printing receipts"); otherwise they are only read.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { type EncodeOptions, encodeReceipt, layOutReceipt } from '../../src/print/encode-receipt.js';
import { receiptModel, type PrintableSale } from '../../src/print/receipt-model.js';
import { FISCAL_SALE, OFFLINE_CASH_SALE, OFFLINE_MOBILE_SALE, SHOP, STORE } from './receipt-fixtures.js';

export const GOLDEN_DIR = fileURLToPath(new URL('../golden/', import.meta.url));
export const UPDATE = process.env.UPDATE_GOLDEN === '1';

export interface Golden {
  name: string;
  sale: PrintableSale;
  options: EncodeOptions;
}

export const GOLDENS: Golden[] = [
  { name: 'receipt-58', sale: OFFLINE_CASH_SALE, options: { width: 58 } },
  { name: 'receipt-80', sale: OFFLINE_CASH_SALE, options: { width: 80 } },
  { name: 'receipt-fiscal-80', sale: FISCAL_SALE, options: { width: 80 } },
  { name: 'receipt-fiscal-58', sale: FISCAL_SALE, options: { width: 58 } },
  { name: 'receipt-mobile-unconfirmed-58', sale: OFFLINE_MOBILE_SALE, options: { width: 58 } },
];

export const modelOf = (sale: PrintableSale) =>
  receiptModel(sale, { shop: SHOP, store: { ...STORE, fiscal: sale.fiscal !== null }, cashier: 'Amina Juma', zone: SHOP.timezone });

export const bytesOf = (g: Golden): Uint8Array => encodeReceipt(modelOf(g.sale), g.options);

/** What the paper shows, line by line: text as printed (ASCII here), the QR code and the cut named in brackets. */
export function textOf(g: Golden): string {
  return paperOf(layOutReceipt(modelOf(g.sale), g.options));
}

/** The same for anything laid out by the encoder (a receipt, a shift report). */
export function paperOf(laidOut: { encode(format: 'lines'): unknown }): string {
  const lines = laidOut.encode('lines') as { type: string; value?: unknown; payload?: number[] }[][];
  const out: string[] = [];
  for (const line of lines) {
    let text = '';
    for (const c of line) {
      if (c.type === 'text') text += String.fromCharCode(...(c.payload ?? []));
      else if (c.type === 'qrcode' && typeof c.value === 'string' && c.value.startsWith('http')) text += `[QR ${c.value}]`;
      else if (c.type === 'cut') text += '[cut]';
    }
    // The first line only sets the printer up; every other one is a line of paper, blank ones too.
    if (out.length > 0 || line.some((c) => c.type !== 'initialize' && c.type !== 'character-mode' && c.type !== 'font'))
      out.push(text.trimEnd());
  }
  return `${out.join('\n')}\n`;
}

export const readGolden = async (g: Golden) => new Uint8Array(await readFile(`${GOLDEN_DIR}${g.name}.bin`));

export async function writeGolden(g: Golden): Promise<void> {
  await writeFile(`${GOLDEN_DIR}${g.name}.bin`, bytesOf(g));
  await writeFile(`${GOLDEN_DIR}${g.name}.txt`, textOf(g));
}
