/** The receipt's bytes for 58 and 80 mm paper, and a fiscal one, against the golden files, byte for byte. */
import { readFile } from 'node:fs/promises';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { lang } from '../../src/i18n.js';
import { bytesOf, GOLDEN_DIR, GOLDENS, readGolden, textOf, UPDATE, writeGolden } from './golden.js';

const hex = (bytes: ArrayLike<number>) => Buffer.from(bytes as Uint8Array).toString('hex');
const ascii = (s: string) => hex(Buffer.from(s, 'latin1'));

describe('the printed receipt (ESC/POS)', () => {
  beforeAll(async () => {
    lang.set('en');
    if (UPDATE) for (const g of GOLDENS) await writeGolden(g);
  });
  afterEach(() => lang.set('en'));

  it.each(GOLDENS)('$name is the golden file, byte for byte, and its text rendering too', async (g) => {
    expect(hex(bytesOf(g))).toBe(hex(await readGolden(g)));
    expect(textOf(g)).toBe(await readFile(`${GOLDEN_DIR}${g.name}.txt`, 'utf8'));
  });

  it('starts by resetting the printer, fills the paper’s columns, and ends with a cut', () => {
    const [b58, b80] = [bytesOf(GOLDENS[0]!), bytesOf(GOLDENS[1]!)];
    for (const b of [b58, b80]) {
      expect(hex(b.slice(0, 2))).toBe('1b40');
      // Four lines fed to the cutter, then GS V 0: the cut.
      expect(hex(b)).toMatch(/(0a0d){4}1d5600(0a0d)?$/);
    }
    expect(hex(b58)).toContain(ascii('-'.repeat(32)));
    expect(hex(b58)).not.toContain(ascii('-'.repeat(33)));
    expect(hex(b80)).toContain(ascii('-'.repeat(48)));
    expect(hex(b58)).toContain(ascii(`  2 x 3,200${' '.repeat(16)}6,400`));
    expect(hex(b80)).toContain(ascii(`  2 x 3,200${' '.repeat(32)}6,400`));
  });

  it('prints the tendered cash and the change of a cash sale, and the till’s temporary number before the sale syncs', () => {
    const text = textOf(GOLDENS[0]!);
    expect(text).toContain('Receipt: MAD-T1-5\n(number given when synced)\n');
    expect(text).toContain(`\nCash tendered${' '.repeat(9)}TZS 20,000\nChange${' '.repeat(17)}TZS 3,470\n`);
    expect(text).toContain('VAT included');
    expect(text).toContain('TZS 2,521.53');
    expect(text).toContain('Cashier: Amina Juma\n');
    expect(text).toMatch(/^ +Tel: \+255754123456\n +TIN: 100200300\n-{32}\n/m);
  });

  it('sends TRA’s verification link with the printer’s own QR command, on a fiscal receipt only', () => {
    const url = 'https://virtual.tra.go.tz/efdmsRctVerify/8AD1E316_140709';
    const fiscal = hex(bytesOf(GOLDENS[2]!));
    // GS ( k pL pH 49 80 48 d…: store the data in the symbol, then GS ( k 03 00 49 81 48: print it.
    const store = `1d286b${hex([(url.length + 3) & 0xff, (url.length + 3) >> 8])}315030${ascii(url)}`;
    expect(fiscal).toContain(store);
    expect(fiscal.indexOf('1d286b0300315130')).toBeGreaterThan(fiscal.indexOf(store));
    expect(hex(bytesOf(GOLDENS[1]!))).not.toContain('1d286b');
    const text = textOf(GOLDENS[2]!);
    expect(text).toContain('Receipt: MAD-000006\nTill receipt: MAD-T1-6\n');
    expect(text).toContain('Paid by M-Pesa (QK71XY2Z9A)\n');
    expect(text).not.toContain('Cash tendered');
    expect(text).toContain('Verification code: 8AD1E316');
    expect(text).toContain('Buyer TIN: 123456789');
  });

  it('says a mobile-money payment taken by SMS reference is unconfirmed until the provider confirms it, in both languages', () => {
    const text = textOf(GOLDENS[4]!);
    expect(text).toContain('Paid by M-Pesa (QK72ZZ4M1B)\nFrom 0754 123 456\nPayment unconfirmed\n');
    // Bold, so it is not missed: ESC E 1 … ESC E 0.
    expect(hex(bytesOf(GOLDENS[4]!))).toContain(`1b4501${ascii('Payment unconfirmed')}1b4500`);
    expect(textOf(GOLDENS[2]!)).toContain('Paid by M-Pesa (QK71XY2Z9A)\nPayment confirmed by the provider\n');
    expect(textOf(GOLDENS[0]!)).not.toMatch(/Payment (un)?confirmed/);
    lang.set('sw');
    expect(textOf(GOLDENS[4]!)).toContain('Kutoka 0754 123 456\nMalipo hayajathibitishwa\n');
  });

  it('prints in the till’s language', () => {
    lang.set('sw');
    const text = textOf(GOLDENS[0]!);
    expect(text).toContain('Keshia: Amina Juma');
    expect(text).toContain('Imelipwa kwa Taslimu');
    expect(text).toContain('Chenji');
  });
});
