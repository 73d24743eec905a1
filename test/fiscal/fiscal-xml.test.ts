/**
 * The bytes TRA receives for a receipt and a Z report, written out in full: the signature covers
 * them and a resend must repeat them, so any change to element order, escaping or amounts shows
 * here first. Pure functions; the end-to-end flow against the fake TRA is in fiscal-*.test.ts.
 */
import { describe, expect, it } from 'vitest';
import type { FiscalReceiptRow } from '../../server/src/db/tables/fiscal.table.js';
import type { TransactionLineRow, TransactionRow } from '../../server/src/db/tables/pos.table.js';
import { type ReceiptFigures, receiptFigures, receiptPayload, zNumber } from '../../server/src/modules/fiscal/services/receipt-xml.js';
import { addUpDay, zReportPayload } from '../../server/src/modules/fiscal/services/z-report-xml.js';

// 2026-11-24 14:05:09 in Dar es Salaam (UTC+3).
const AT = Date.UTC(2026, 10, 24, 11, 5, 9);

const sale = {
  id: 's1',
  total: 1_300_000,
  discount: 50_000,
  payment_method: 'M-Pesa',
  customer_tin: '123456789',
  customer_name: 'Asha & Sons <Ltd>',
  customer_phone: '+255713000001',
} as TransactionRow;

const line = (l: Partial<TransactionLineRow>, taxCode: 'A' | 'C' | 'E') => ({ ...(l as TransactionLineRow), taxCode });
const lines = [
  // 2 × 3,500 = 7,000 less 269.23 of the discount: VAT 18/118 of 6,730.77 = 1,026.72.
  line({ product_name: 'Sukari 1kg', qty: 2, line_total: 700_000, discount: 26_923, tax: 102_672 }, 'A'),
  line({ product_name: 'Unga "Azam" 2kg', qty: 1, line_total: 650_000, discount: 23_077, tax: 0 }, 'C'),
];
const receipt = { gc: 12, dc: 3, znum: '20261124', issued_at: AT, rctvnum: '8AD1E312' } as FiscalReceiptRow;

describe('fiscal XML', () => {
  it('writes a receipt in TRA order with exact amounts, the buyer by TIN and escaped text', () => {
    const figures = receiptFigures(sale, lines, [{ method: 'M-Pesa', amount: 1_300_000 }]);
    expect(figures).toEqual({
      totalIncl: 1_300_000,
      totalExcl: 1_197_328,
      discount: 50_000,
      payments: [{ type: 'EMONEY', amount: 1_300_000 }],
      vat: { A: { net: 570_405, tax: 102_672 }, C: { net: 626_923, tax: 0 } },
    });
    expect(receiptPayload({ tin: '100200300', regid: 'TZ0100551361', efdSerial: '10TZ100781' }, receipt, sale, lines, figures)).toBe(
      '<RCT><DATE>2026-11-24</DATE><TIME>14:05:09</TIME><TIN>100200300</TIN><REGID>TZ0100551361</REGID><EFDSERIAL>10TZ100781</EFDSERIAL>' +
        '<CUSTIDTYPE>1</CUSTIDTYPE><CUSTID>123456789</CUSTID><CUSTNAME>Asha &amp; Sons &lt;Ltd&gt;</CUSTNAME><MOBILENUM>255713000001</MOBILENUM>' +
        '<RCTNUM>12</RCTNUM><DC>3</DC><GC>12</GC><ZNUM>20261124</ZNUM><RCTVNUM>8AD1E312</RCTVNUM>' +
        '<ITEMS><ITEM><ID>1</ID><DESC>Sukari 1kg</DESC><QTY>2</QTY><TAXCODE>1</TAXCODE><AMT>7000.00</AMT></ITEM>' +
        '<ITEM><ID>2</ID><DESC>Unga &quot;Azam&quot; 2kg</DESC><QTY>1</QTY><TAXCODE>3</TAXCODE><AMT>6500.00</AMT></ITEM></ITEMS>' +
        '<TOTALS><TOTALTAXEXCL>11973.28</TOTALTAXEXCL><TOTALTAXINCL>13000.00</TOTALTAXINCL><DISCOUNT>500.00</DISCOUNT></TOTALS>' +
        '<PAYMENTS><PMTTYPE>EMONEY</PMTTYPE><PMTAMOUNT>13000.00</PMTAMOUNT></PAYMENTS>' +
        '<VATTOTALS><VATRATE>A</VATRATE><NETTAMOUNT>5704.05</NETTAMOUNT><TAXAMOUNT>1026.72</TAXAMOUNT><VATRATE>C</VATRATE><NETTAMOUNT>6269.23</NETTAMOUNT><TAXAMOUNT>0.00</TAXAMOUNT></VATTOTALS></RCT>',
    );
  });

  it('lists a split sale as one PMTTYPE/PMTAMOUNT pair per part, summing to the total (issue 51)', () => {
    const figures = receiptFigures(sale, lines, [
      { method: 'Cash', amount: 500_000 },
      { method: 'M-Pesa', amount: 800_000 },
    ]);
    expect(figures.payments).toEqual([
      { type: 'CASH', amount: 500_000 },
      { type: 'EMONEY', amount: 800_000 },
    ]);
    expect(receiptPayload({ tin: '100200300', regid: 'TZ0100551361', efdSerial: '10TZ100781' }, receipt, sale, lines, figures)).toContain(
      '<PAYMENTS><PMTTYPE>CASH</PMTTYPE><PMTAMOUNT>5000.00</PMTAMOUNT><PMTTYPE>EMONEY</PMTTYPE><PMTAMOUNT>8000.00</PMTAMOUNT></PAYMENTS>',
    );
    const z = addUpDay('2026-11-24', [figures], 0, { corrections: 0, voids: 0, voidsTotal: 0 });
    expect(z.payments).toMatchObject({ CASH: 500_000, EMONEY: 800_000, CCARD: 0, INVOICE: 0 });
  });

  it('numbers the day in East Africa Time: 21:30 UTC is already the next day', () => {
    expect(zNumber(Date.UTC(2026, 10, 24, 20, 59, 59))).toBe('20261124');
    expect(zNumber(Date.UTC(2026, 10, 24, 21, 0, 0))).toBe('20261125');
  });

  it('adds up a day for the Z report, listing every rate and payment type in TRA order', () => {
    const a = receiptFigures(sale, lines, [{ method: 'M-Pesa', amount: 1_300_000 }]);
    // A receipt built before issue 51 has one `payment` for its whole total.
    const b = {
      totalIncl: 200_000,
      totalExcl: 200_000,
      discount: 0,
      payment: 'CASH',
      vat: { E: { net: 200_000, tax: 0 } },
    } as unknown as ReceiptFigures;
    const z = addUpDay('2026-11-24', [a, b], 5_000_000, { corrections: 200_000, voids: 1, voidsTotal: 1_300_000 });
    expect(z).toMatchObject({
      receipts: 2,
      dailyTotal: 1_500_000,
      gross: 6_500_000,
      discounts: 50_000,
      corrections: 200_000,
      voids: 1,
      voidsTotal: 1_300_000,
    });
    const registration = {
      regid: 'TZ0100551361',
      efd_serial: '10TZ100781',
      uin: '09VFDWEBAPI-1',
      vrn: '',
      receipt_code: '8AD1E3',
      name: 'Duka la Mama',
      street: 'Kariakoo',
      mobile: '0713000000',
      city: 'Dar es Salaam',
      country: 'Tanzania',
      tax_office: 'Tax Office Ilala',
      tax_codes: {},
    };
    const xml = zReportPayload({ tin: '100200300', vrn: null, registration, registeredOn: '2026-11-20' }, z);
    expect(xml).toContain(
      '<HEADER><LINE>DUKA LA MAMA</LINE><LINE>KARIAKOO</LINE><LINE>MOBILE: 0713000000</LINE><LINE>DAR ES SALAAM,TANZANIA</LINE></HEADER>',
    );
    expect(xml).toContain(
      '<TOTALS><DAILYTOTALAMOUNT>15000.00</DAILYTOTALAMOUNT><GROSS>65000.00</GROSS><CORRECTIONS>2000.00</CORRECTIONS><DISCOUNTS>500.00</DISCOUNTS><SURCHARGES>0.00</SURCHARGES>' +
        '<TICKETSVOID>1</TICKETSVOID><TICKETSVOIDTOTAL>13000.00</TICKETSVOIDTOTAL><TICKETSFISCAL>2</TICKETSFISCAL><TICKETSNONFISCAL>0</TICKETSNONFISCAL></TOTALS>',
    );
    expect(xml).toContain(
      '<VATTOTALS><VATRATE>A-18.00</VATRATE><NETTAMOUNT>5704.05</NETTAMOUNT><TAXAMOUNT>1026.72</TAXAMOUNT><VATRATE>B-0.00</VATRATE><NETTAMOUNT>0.00</NETTAMOUNT><TAXAMOUNT>0.00</TAXAMOUNT>' +
        '<VATRATE>C-0.00</VATRATE><NETTAMOUNT>6269.23</NETTAMOUNT><TAXAMOUNT>0.00</TAXAMOUNT><VATRATE>D-0.00</VATRATE><NETTAMOUNT>0.00</NETTAMOUNT><TAXAMOUNT>0.00</TAXAMOUNT>' +
        '<VATRATE>E-0.00</VATRATE><NETTAMOUNT>2000.00</NETTAMOUNT><TAXAMOUNT>0.00</TAXAMOUNT></VATTOTALS>',
    );
    expect(xml).toContain(
      '<PAYMENTS><PMTTYPE>CASH</PMTTYPE><PMTAMOUNT>2000.00</PMTAMOUNT><PMTTYPE>CHEQUE</PMTTYPE><PMTAMOUNT>0.00</PMTAMOUNT><PMTTYPE>CCARD</PMTTYPE><PMTAMOUNT>0.00</PMTAMOUNT>' +
        '<PMTTYPE>EMONEY</PMTTYPE><PMTAMOUNT>13000.00</PMTAMOUNT><PMTTYPE>INVOICE</PMTTYPE><PMTAMOUNT>0.00</PMTAMOUNT></PAYMENTS>',
    );
    expect(xml).toMatch(
      /^<ZREPORT><DATE>2026-11-24<\/DATE><TIME>23:59:59<\/TIME>.*<VRN>NOT REGISTERED<\/VRN><TIN>100200300<\/TIN>.*<ZNUMBER>20261124<\/ZNUMBER>.*<\/ZREPORT>$/,
    );
  });
  it('writes a weighed line in its unit: 1.25 kg is QTY 1.25, its amount as priced (issue 51)', () => {
    // The line keeps counts (grams): 1,250 of a kg product; 1.25 × 3,250 = 4,062.50 → 4,063 when priced.
    const weighed = [
      { ...line({ product_name: 'Sukari', qty: 1250, line_total: 406_300, discount: 0, tax: 0 }, 'C'), unit: 'kg' as const },
    ];
    const cash = { ...sale, total: 406_300, discount: 0, payment_method: 'Cash' } as TransactionRow;
    const xml = receiptPayload(
      { tin: '100200300', regid: 'TZ0100551361', efdSerial: '10TZ100781' },
      receipt,
      cash,
      weighed,
      receiptFigures(cash, weighed, [{ method: 'Cash', amount: 406_300 }]),
    );
    expect(xml).toContain('<ITEM><ID>1</ID><DESC>Sukari</DESC><QTY>1.25</QTY><TAXCODE>3</TAXCODE><AMT>4063.00</AMT></ITEM>');
  });
});
