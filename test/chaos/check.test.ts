/** The chaos run's end checks catch what they are there for: a gap or a doubled number, a counter ahead, a payment lost or doubled, a tab or a balance off. */
import { describe, expect, it } from 'vitest';
import { check } from './check.js';
import { checkCredit } from './credit.js';
import type { TillReport, WorkerSale } from './protocol.js';

const sale = (n: number, extra: Partial<WorkerSale> = {}): WorkerSale => ({
  id: `s${n}`,
  client_receipt_number: `C-1-${n}`,
  created_at: '2026-11-23T10:00:00Z',
  payment_method: 'Credit',
  customer_id: 'c1',
  total: 1000,
  lines: [],
  reversed: null,
  receipt_number: `S1-${String(n).padStart(6, '0')}`,
  ...extra,
});
const tx = (n: number, extra: Record<string, unknown> = {}) => ({
  id: `s${n}`,
  store_id: 'store',
  number: n,
  receipt_number: `S1-${String(n).padStart(6, '0')}`,
  client_receipt_number: `C-1-${n}`,
  source: 'offline',
  status: 'credit',
  payment_method: 'Credit',
  total: 1000,
  ...extra,
});
const report = (sales: WorkerSale[], extra: Partial<TillReport> = {}): TillReport => ({
  deviceId: 'till',
  sales,
  payments: [],
  customers: {},
  counts: {
    sales: sales.length,
    lotRefusals: 0,
    refunds: 0,
    voids: 0,
    payments: 0,
    paymentsRefused: 0,
    relogins: 0,
    syncErrors: 0,
    conflictEvents: 0,
    rejectedEvents: 0,
  },
  replica: {},
  pending: 0,
  rejected: [],
  syncedOnReplica: sales.length,
  ...extra,
});
const numbers = (transactions: any[], last: number, sales = [sale(1), sale(2), sale(3)]) =>
  check({
    reports: [report(sales)],
    transactions,
    products: [],
    conflicts: [],
    startStock: new Map(),
    initialPrice: new Map(),
    priceChanges: [],
    adjustments: new Map(),
    lastNumbers: new Map([['store', last]]),
  });

describe('chaos checks: receipt numbers', () => {
  it('hold for 1..n with the counter at n', () => {
    expect(numbers([tx(1), tx(2), tx(3)], 3)).toEqual([]);
  });
  it('catch a gap, a number taken twice, a counter ahead and a till showing another number', () => {
    expect(
      numbers([tx(1), tx(2), tx(3, { number: 4, receipt_number: 'S1-000004' })], 4, [
        sale(1),
        sale(2),
        sale(3, { receipt_number: 'S1-000004' }),
      ]).join('\n'),
    ).toMatch(/not 1\.\.3: at position 3 comes 4/);
    expect(
      numbers([tx(1), tx(2), tx(3, { number: 2, receipt_number: 'S1-000002' })], 3, [
        sale(1),
        sale(2),
        sale(3, { receipt_number: 'S1-000002' }),
      ]).join('\n'),
    ).toMatch(/share a receipt number/);
    expect(numbers([tx(1), tx(2), tx(3)], 4).join('\n')).toMatch(/counter stands at 4 for 3 sales/);
    expect(numbers([tx(1), tx(2), tx(3)], 3, [sale(1), sale(2), sale(3, { receipt_number: null })]).join('\n')).toMatch(
      /till shows store receipt null, the server S1-000003/,
    );
  });
});

describe('chaos checks: credit', () => {
  const profile = (o: { tabs?: any[]; payments?: any[]; owed?: number } = {}) => ({
    customer: { id: 'c1', name: 'Mteja', outstanding_balance: o.owed ?? 1500 },
    total_outstanding: o.owed ?? 1500,
    tabs: o.tabs ?? [
      { id: 't1', transaction_id: 's1', amount: 1000, paid_amount: 500, balance: 500, status: 'partially_paid' },
      { id: 't2', transaction_id: 's2', amount: 1000, paid_amount: 0, balance: 1000, status: 'open' },
    ],
    payments: o.payments ?? [{ reference: 'P1', customer_id: 'c1', amount: 500, allocations: [{ tab_id: 't1', amount: 500 }] }],
  });
  const till = (customers = { c1: 1500 }) => [
    report([sale(1), sale(2)], { payments: [{ reference: 'P1', customer_id: 'c1', amount: 500 }], customers }),
  ];
  const txs = [tx(1), tx(2)];

  it('hold when every payment, tab and balance agrees', () => {
    expect(checkCredit(till(), txs, [profile()])).toEqual([]);
  });
  it('catch a payment doubled or lost, a tab paid other than its allocations, a balance off and a till behind', () => {
    const doubled = profile({
      payments: [...profile().payments, { reference: 'P1', customer_id: 'c1', amount: 500, allocations: [{ tab_id: 't2', amount: 500 }] }],
    });
    expect(checkCredit(till(), txs, [doubled]).join('\n')).toMatch(/P1 of TZS 500: on the server 2 times/);
    expect(checkCredit(till(), txs, [profile({ payments: [] })]).join('\n')).toMatch(/P1 of TZS 500: on the server 0 times/);
    const misallocated = profile({
      payments: [{ reference: 'P1', customer_id: 'c1', amount: 500, allocations: [{ tab_id: 't2', amount: 500 }] }],
    });
    expect(checkCredit(till(), txs, [misallocated]).join('\n')).toMatch(/paid TZS 500, payments allocated TZS 0/);
    expect(checkCredit(till(), txs, [profile({ owed: 1000 })]).join('\n')).toMatch(/tabs add up to 1500/);
    expect(checkCredit(till({ c1: 2000 }), txs, [profile()]).join('\n')).toMatch(/shows TZS 2000 owed, server 1500/);
    expect(checkCredit(till(), [tx(1), tx(2), tx(3)], [profile()]).join('\n')).toMatch(/S1-000003 has no tab/);
  });
});

describe('chaos checks: kilos, cartons, parts and refunds of part (issue 51)', () => {
  // 1.25 kg of sugar at 3,250/kg (4,063) and a carton of soda (22,000): 16,063 M-Pesa + 10,000 cash; 0.25 kg brought back (813, from the cash).
  const sold = (extra: Partial<WorkerSale> = {}) =>
    sale(1, {
      payment_method: 'Mixed',
      customer_id: undefined,
      total: 26_063,
      lines: [
        { product_id: 'sugar', qty: 1.25, counts: 1250, unit_price: 3250 },
        { product_id: 'soda', qty: 24, counts: 24, unit_price: 22_000, pack_id: 'carton' },
      ],
      parts: { 'M-Pesa': 16_063, Cash: 10_000 },
      refunds: [{ amount: 813, lines: [{ product_id: 'sugar', counts: 250 }] }],
      ...extra,
    });
  const onServer = (extra: Record<string, unknown> = {}) =>
    tx(1, {
      status: 'paid',
      payment_method: 'Mixed',
      total: 26_063,
      payments: [
        { method: 'M-Pesa', amount: 16_063 },
        { method: 'Cash', amount: 10_000 },
      ],
      refunded_total: 813,
      lines: [
        { product_id: 'sugar', product_name: 'Sukari', unit: 'kg', qty: 1.25, refunded_qty: 0.25, pack: null },
        { product_id: 'soda', product_name: 'Soda', unit: 'piece', qty: 24, refunded_qty: 0, pack: { id: 'carton' } },
      ],
      ...extra,
    });
  const products = (sugar = 9) => [
    { id: 'sugar', name: 'Sukari', unit: 'kg', stock: sugar, selling_price: 3250 },
    { id: 'soda', name: 'Soda', unit: 'piece', stock: 76, selling_price: 1000 },
  ];
  const shift = (cash = 100_000 + 10_000 - 813) => ({
    report: {
      methods: [
        { method: 'Cash', expected: cash },
        { method: 'M-Pesa', expected: 16_063 },
      ],
    },
    openingFloat: 100_000,
  });
  const run = (o: { sale?: WorkerSale; tx?: any; products?: any[]; shift?: ReturnType<typeof shift> } = {}) =>
    check({
      reports: [
        report([o.sale ?? sold()], {
          replica: Object.fromEntries((o.products ?? products()).map((p) => [p.id, { stock: p.stock, selling_price: p.selling_price }])),
        }),
      ],
      transactions: [o.tx ?? onServer()],
      products: o.products ?? products(),
      conflicts: [],
      startStock: new Map([
        ['sugar', 10_000],
        ['soda', 100],
      ]),
      initialPrice: new Map([
        ['sugar', 3250],
        ['soda', 1000],
      ]),
      packPrices: new Map([['carton', 22_000]]),
      priceChanges: [],
      adjustments: new Map(),
      lastNumbers: new Map([['store', 1]]),
      shift: o.shift ?? shift(),
    });

  it('hold when stock is exact to the gram and the piece, the parts are the till’s, the refunds add up and the shift counts each part', () => {
    expect(run()).toEqual([]);
  });
  it('catch a gram of stock off, a part booked other than taken, refunded_total or a line’s refunded_qty off, a pack mispriced and a drawer off by a shilling', () => {
    expect(run({ products: products(9.001) }).join('\n')).toMatch(/Sukari: server stock 9.001 kg, expected 9/);
    const cashShort = onServer({
      payments: [
        { method: 'M-Pesa', amount: 16_063 },
        { method: 'Cash', amount: 9_999 },
      ],
    });
    const failures = run({ tx: cashShort }).join('\n');
    expect(failures).toMatch(/the server holds parts/);
    expect(failures).toMatch(/its parts do not add up to its total 26063/);
    expect(run({ tx: onServer({ refunded_total: 812 }) }).join('\n')).toMatch(/refunded_total 812, its refunds make 813/);
    const gramsOff: any = onServer();
    gramsOff.lines[0].refunded_qty = 0.251;
    expect(run({ tx: gramsOff }).join('\n')).toMatch(/Sukari shows 0.251 refunded, its refunds gave back 250 counts/);
    const mispriced = sold();
    mispriced.lines[1]!.unit_price = 24_000;
    expect(run({ sale: mispriced }).join('\n')).toMatch(/a pack charged 24000, priced 22000/);
    expect(run({ shift: shift(109_188) }).join('\n')).toMatch(
      /Cash expected TZS 109188, the sales, refunds and payments by it make 109187/,
    );
  });
});
