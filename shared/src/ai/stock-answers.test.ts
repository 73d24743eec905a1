/**
 * The stock and order answers' wording where the HTTP tests (test/ai/ai.test.ts, the agent's
 * planner test) do not reach: several past counts with a cancelled one left out, a long list cut
 * with "and N more", orders newest first with drafts and received ones left out, a loose rest of a
 * pack order in units.
 */
import { describe, expect, it } from 'vitest';
import type { ReorderSuggestion } from '../inventory/reorder.schemas.js';
import type { StockTake, StockTakeSummary } from '../inventory/stock-takes.schemas.js';
import type { PurchaseOrder } from '../suppliers/purchase-orders.schemas.js';
import { purchaseOrdersAnswer, reorderAnswer, stockTakesAnswer } from './stock-answers.js';

const DAR = 'Africa/Dar_es_Salaam';

const take = (id: string, opened_at: string, status: StockTakeSummary['status'], variance_value: number) =>
  ({ id, opened_at, status, totals: { products: 4, counted: 3, over: 1, short: 2, variance_value } }) as StockTakeSummary;

describe('stock-takes answer', () => {
  it('the last three counts not cancelled, dated in the time zone, and the newest one’s differences, largest first', () => {
    const takes = [
      take('t5', '2026-11-20T21:30:00.000Z', 'open', 0), // 00:30 on the 21st in Dar es Salaam
      take('t4', '2026-11-15T08:00:00.000Z', 'cancelled', -99),
      take('t3', '2026-11-10T08:00:00.000Z', 'applied', -4500.5),
      take('t2', '2026-11-01T08:00:00.000Z', 'applied', 1200),
      take('t1', '2026-10-01T08:00:00.000Z', 'applied', 0),
    ];
    const latest = {
      ...takes[0],
      lines: [
        { name: 'Soda', unit: 'piece', variance: 0, variance_value: 0 },
        { name: 'Sukari', unit: 'kg', variance: -0.25, variance_value: -900 },
        { name: 'Unga', unit: 'piece', variance: null, variance_value: null },
        { name: 'Chumvi', unit: 'piece', variance: 3, variance_value: 1500 },
      ],
    } as unknown as StockTake;
    expect(stockTakesAnswer(takes, latest, 'en', DAR)).toBe(
      [
        'The last 3 stock-takes:',
        '- 2026-11-21, open: 3 of 4 products counted, 1 over, 2 short, variance TZS 0 at cost',
        '- 2026-11-10, applied: 3 of 4 products counted, 1 over, 2 short, variance TZS -4,500.50 at cost',
        '- 2026-11-01, applied: 3 of 4 products counted, 1 over, 2 short, variance TZS 1,200 at cost',
        'Differences in the latest (2026-11-21):',
        '- Chumvi: 3 over (TZS 1,500)',
        '- Sukari: 0.25 kg short (TZS -900)',
      ].join('\n'),
    );
    expect(stockTakesAnswer(takes, latest, 'sw', DAR).split('\n').slice(0, 2)).toEqual([
      'Hesabu 3 za mwisho za stoku:',
      '- 2026-11-21, inaendelea: bidhaa 3 kati ya 4 zimehesabiwa, 1 zimezidi, 2 zimepungua, tofauti TZS 0 kwa bei ya kununulia',
    ]);
    // Only cancelled counts: as good as none.
    expect(stockTakesAnswer([takes[1]!], null, 'en', DAR)).toBe('No stock-take has been made in this store yet.');
  });
});

describe('reorder answer', () => {
  it('names ten suggestions, then how many more', () => {
    const s = (i: number) =>
      ({
        name: `P${String(i).padStart(2, '0')}`,
        unit: 'piece',
        suggested: 5,
        stock: 1,
        on_order: 0,
        days_left: null,
        pack: null,
      }) as ReorderSuggestion;
    const group = (name: string | null, from: number, count: number) => ({
      supplier_id: null,
      supplier_name: name,
      lead_time_days: 7,
      suggestions: Array.from({ length: count }, (_, i) => s(from + i)),
    });
    const text = reorderAnswer(
      { store_id: 'x', window_days: 28, cover_days: 14, groups: [group('Azam', 1, 8), group(null, 9, 4)] } as never,
      'en',
    ).split('\n');
    expect(text[0]).toBe('Order 12 products (sales of the last 28 days, 14 days of cover):');
    expect(text.filter((l) => l.startsWith('- '))).toHaveLength(10);
    expect(text.slice(-4)).toEqual([
      'Supplier unknown (lead time 7 days):',
      '- P09: 5; 1 in stock',
      '- P10: 5; 1 in stock',
      '… and 2 more',
    ]);
  });
});

describe('purchase orders answer', () => {
  const order = (reference: string, status: PurchaseOrder['status'], created_at: string, lines: unknown[]) =>
    ({ reference, status, created_at, supplier_name: 'Bakhresa', lines }) as unknown as PurchaseOrder;
  it('the sent and partly received ones, newest first; a rest that is not whole packs in units', () => {
    const carton = { id: 'c', name: 'Carton', units: 24 };
    const orders = [
      order('PO-1', 'sent', '2026-11-01T08:00:00.000Z', [
        { product_name: 'Soda', unit: 'piece', pack: carton, owed: 240 },
        { product_name: 'Sukari', unit: 'kg', pack: { id: 'b', name: 'Bag', units: 2.5 }, owed: 7.5 },
      ]),
      order('PO-2', 'draft', '2026-11-02T08:00:00.000Z', [{ product_name: 'Soda', unit: 'piece', pack: null, owed: 5 }]),
      order('PO-3', 'partly_received', '2026-11-03T08:00:00.000Z', [
        { product_name: 'Soda', unit: 'piece', pack: carton, owed: 30 },
        { product_name: 'Mchele', unit: 'kg', pack: null, owed: 0 },
      ]),
      order('PO-4', 'received', '2026-11-04T08:00:00.000Z', []),
    ];
    expect(purchaseOrdersAnswer(orders, 'en')).toBe(
      [
        '2 purchase orders are waiting for delivery:',
        '- PO-3, Bakhresa (partly received): still owed 30 Soda',
        '- PO-1, Bakhresa (sent): still owed 10 × Carton Soda, 3 × Bag Sukari',
      ].join('\n'),
    );
    expect(purchaseOrdersAnswer(orders.slice(1, 2), 'sw')).toBe('Hakuna oda inayosubiri mzigo kutoka kwa msambazaji.');
  });
});
