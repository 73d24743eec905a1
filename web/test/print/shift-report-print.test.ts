/** A shift's Z report on thermal paper: the shared report's figures, laid out to the paper's columns. */
import type { ShiftReport } from '@duka/shared';
import { afterEach, describe, expect, it } from 'vitest';
import { lang } from '../../src/i18n.js';
import { encodeShiftReport, layOutShiftReport } from '../../src/print/encode-shift-report.js';
import { paperOf } from './golden.js';

const method = (m: Partial<ShiftReport['methods'][number]> & { method: string }): ShiftReport['methods'][number] => ({
  counted_at_close: true,
  opening_float: 0,
  sales: 0,
  sales_count: 0,
  refunds: 0,
  refunds_count: 0,
  credit_payments: 0,
  payouts: 0,
  expected: 0,
  counted: null,
  over_short: null,
  ...m,
});

const Z: ShiftReport = {
  kind: 'Z',
  shift_id: '7d1f0a52-3b6c-4e8d-9f10-2a3b4c5d6e7f',
  store_id: '0b5f3c1e-8d7a-4a43-9a55-2f0a1c9e7b11',
  cashier_id: '0b5f3c1e-8d7a-4a43-9a55-2f0a1c9e7b12',
  cashier_name: 'Amina Juma',
  till_number: 'T1',
  opened_at: '2026-11-27T05:00:00.000Z',
  closed_at: '2026-11-27T15:00:00.000Z',
  opening_float: 50000,
  methods: [
    method({
      method: 'Cash',
      opening_float: 50000,
      sales: 11400,
      sales_count: 3,
      refunds: 2000,
      refunds_count: 1,
      expected: 59400,
      counted: 58400,
      over_short: -1000,
    }),
    method({ method: 'M-Pesa', sales: 4200, sales_count: 1, expected: 4200, counted: 4200, over_short: 0 }),
    method({ method: 'Credit', counted_at_close: false, sales: 3000, sales_count: 1, expected: null }),
  ],
  totals: { sales: 18600, refunds: 2000, credit_payments: 0, payouts: 0, expected: 63600, counted: 62600, over_short: -1000 },
  sales_count: 5,
  refund_count: 1,
  payout_count: 0,
  credit_payment_count: 0,
  note: 'a 1,000 note missing',
};
const HEADER = { shop: 'Duka la Mama Amina', openedAt: '27/11/2026 08:00', printedAt: '27/11/2026 18:00' };

describe('the shift report on thermal paper', () => {
  afterEach(() => lang.set('en'));

  it('prints each method’s expected, counted and over or short, within the columns of 58 and 80 mm paper', () => {
    lang.set('en');
    for (const [width, columns] of [
      [58, 32],
      [80, 48],
    ] as const) {
      const paper = paperOf(layOutShiftReport(Z, HEADER, { width }));
      expect(Math.max(...paper.split('\n').map((l) => l.length))).toBe(columns);
      expect(paper).toContain('Z report');
      expect(paper).toContain('Cashier: Amina Juma');
      const row = (label: string, amount: string) => `${label}${' '.repeat(columns - label.length - amount.length)}${amount}`;
      expect(paper).toContain(
        `\nCash\n${row('  Float', 'TZS 50,000')}\n${row('  Sales (3)', 'TZS 11,400')}\n${row('  Refunds (1)', '-TZS 2,000')}\n`,
      );
      expect(paper).toContain(
        `\n${row('  Expected', 'TZS 59,400')}\n${row('  Counted', 'TZS 58,400')}\n${row('  Over / short', 'TZS -1,000')}\n`,
      );
      expect(paper).toContain('\nCredit\n');
      expect(paper).toContain('(a debt, not counted)');
      expect(paper).toContain(`\n${row('Over / short', 'TZS -1,000')}\n`);
      expect(paper).toContain('Till T1\nOpened 27/11/2026 08:00 with a');
      expect(paper.replace(/\s+/g, ' ')).toContain('5 sales, 1 refunds, 0 payouts, 0 credit payments a 1,000 note missing [cut]');
      expect(paper.trimEnd().endsWith('[cut]')).toBe(true);
    }
    const bytes = encodeShiftReport(Z, HEADER, { width: 58 });
    expect(Buffer.from(bytes.slice(0, 2)).toString('hex')).toBe('1b40');
  });
});
