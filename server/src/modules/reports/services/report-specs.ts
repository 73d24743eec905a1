/**
 * What each report holds: its columns, its totals, and its rows as an async stream of keyset pages.
 * Money is kept in integer cents here and formatted once, by the writer (CSV: `1234.50`; JSON: a
 * number with at most 2 decimals).
 */
import { fromBasisPoints, type ReportType, SoldStatus } from '@duka/shared';
import { localDate, localTime } from '../../../lib/time.js';
import { PAGE, type CustomerKey, creditPage, type SaleKey, salesPage, salesTotalsByStatus, taxByRate } from '../reports.queries.js';
import { inventorySpec } from './inventory-valuation.js';
import type { Column, ReportScope, ReportSpec } from './report-types.js';

export type { Cell, Column, ReportScope, ReportSpec, Row } from './report-types.js';

const money = (...keys: string[]): Column[] => keys.map((key) => ({ key, money: true }));
const plain = (...keys: string[]): Column[] => keys.map((key) => ({ key }));
const n = (v: unknown) => Number(v ?? 0);

export const REPORT_TYPES: Array<{ type: ReportType; name: string; description: string; columns: string[] }> = [
  {
    type: 'sales',
    name: 'Sales',
    description:
      'Every sale of the active store in the period, oldest first; refunded and void sales are listed with their status and left out of the totals; what refunds gave back of a sale (all of a refunded one) is its refunded column, and a sale refunded in part counts in the totals less it',
    columns: [
      'receipt_number',
      'date',
      'time',
      'cashier',
      'customer',
      'payment_method',
      'status',
      'subtotal',
      'discount',
      'tax',
      'total',
      'refunded',
    ],
  },
  {
    type: 'inventory',
    name: 'Inventory valuation',
    description: "The active store's stock now, valued at cost and at selling price, per product, then per category, then in total",
    columns: [
      'row_type',
      'category',
      'product',
      'sku',
      'qty',
      'unit',
      'cost_price',
      'selling_price',
      'value_at_cost',
      'value_at_selling_price',
    ],
  },
  {
    type: 'tax',
    name: 'VAT',
    description:
      'Paid and credit sales of the active store in the period per VAT rate: sales including VAT, the VAT in them, and net sales',
    columns: ['vat_rate', 'sales_incl_vat', 'vat', 'net_sales'],
  },
  {
    type: 'credit',
    name: 'Credit (debtors)',
    description: 'Every customer of the organisation who owes money now: outstanding, overdue (past the due date), tabs',
    columns: ['customer', 'phone', 'outstanding', 'overdue', 'open_tabs', 'overdue_tabs', 'oldest_due_date'],
  },
];

function salesSpec(s: ReportScope): Promise<ReportSpec> {
  const scope = { orgId: s.orgId, storeId: s.storeId, start: s.period.start, end: s.period.end };
  return salesTotalsByStatus(s.db, scope).then((groups) => {
    type Figure = 'n' | 'subtotal' | 'discount' | 'tax' | 'total' | 'part_refunded' | 'refunded_total' | 'refunded_tax';
    const sum = (statuses: readonly string[], k: Figure) =>
      groups.filter((g) => statuses.includes(g.status)).reduce((a, g) => a + n(g[k]), 0);
    // Issue 51: a sale refunded in part counts less what its refunds gave back (the VAT share too),
    // and that money is listed with the refunds. The discount stays as given: a refund gives back a
    // line's money net of its discount, so it comes off the subtotal and the total alike.
    const back = sum(SoldStatus.options, 'refunded_total');
    return {
      dated: true,
      columns: [
        ...plain('receipt_number', 'date', 'time', 'cashier', 'customer', 'payment_method', 'status'),
        ...money('subtotal', 'discount', 'tax', 'total', 'refunded'),
      ],
      totals: {
        sales_count: sum(SoldStatus.options, 'n'),
        subtotal: sum(SoldStatus.options, 'subtotal') - back,
        discount: sum(SoldStatus.options, 'discount'),
        tax: sum(SoldStatus.options, 'tax') - sum(SoldStatus.options, 'refunded_tax'),
        total: sum(SoldStatus.options, 'total') - back,
        refunded_count: sum(['refunded'], 'n') + sum(SoldStatus.options, 'part_refunded'),
        refunded_total: sum(['refunded'], 'total') + back,
        void_count: sum(['void'], 'n'),
        void_total: sum(['void'], 'total'),
      },
      moneyTotals: ['subtotal', 'discount', 'tax', 'total', 'refunded_total', 'void_total'],
      async *rows() {
        let after: SaleKey | null = null;
        for (;;) {
          const page = await salesPage(s.db, scope, after);
          if (!page.length) return;
          yield page.map((r) => ({
            receipt_number: r.receipt_number,
            date: localDate(n(r.created_at), s.tz),
            time: localTime(n(r.created_at), s.tz),
            cashier: r.cashier_first ? `${r.cashier_first} ${r.cashier_last ?? ''}`.trim() : '',
            customer: r.customer_record_name ?? r.customer_name ?? '',
            payment_method: r.payment_method,
            status: r.status,
            subtotal: n(r.subtotal),
            discount: n(r.discount),
            tax: n(r.tax),
            total: n(r.total),
            refunded: r.status === 'refunded' ? n(r.total) : n(r.refunded_total),
          }));
          const last = page[page.length - 1]!;
          after = { at: n(last.created_at), id: last.id };
          if (page.length < PAGE) return;
        }
      },
    };
  });
}

async function taxSpec(s: ReportScope): Promise<ReportSpec> {
  const groups = await taxByRate(s.db, { orgId: s.orgId, storeId: s.storeId, start: s.period.start, end: s.period.end });
  const byRate = new Map<number, { gross: number; vat: number }>();
  const add = (rate: number, gross: number, vat: number) => {
    if (!gross && !vat) return;
    const r = byRate.get(rate) ?? { gross: 0, vat: 0 };
    r.gross += gross;
    r.vat += vat;
    byRate.set(rate, r);
  };
  for (const g of groups) {
    add(n(g.tax_rate), n(g.taxed_gross), n(g.vat));
    add(0, n(g.untaxed_gross), 0);
  }
  const rows = [...byRate.entries()]
    .sort((a, b) => b[0] - a[0])
    .map(([rate, r]) => ({ vat_rate: fromBasisPoints(rate), sales_incl_vat: r.gross, vat: r.vat, net_sales: r.gross - r.vat }));
  const total = (k: 'sales_incl_vat' | 'vat' | 'net_sales') => rows.reduce((a, r) => a + r[k], 0);
  return {
    dated: true,
    columns: [...plain('vat_rate'), ...money('sales_incl_vat', 'vat', 'net_sales')],
    totals: { sales_incl_vat: total('sales_incl_vat'), vat: total('vat'), net_sales: total('net_sales') },
    moneyTotals: ['sales_incl_vat', 'vat', 'net_sales'],
    async *rows() {
      if (rows.length) yield rows;
    },
  };
}

async function creditSpec(s: ReportScope): Promise<ReportSpec> {
  const today = localDate(s.now, s.tz);
  const totals = { customers: 0, outstanding: 0, overdue: 0 };
  // Totals need every row; the listing is small next to sales, but still read in pages.
  let after: CustomerKey | null = null;
  for (;;) {
    const page = await creditPage(s.db, s.orgId, today, after);
    for (const r of page) {
      totals.customers++;
      totals.outstanding += n(r.outstanding);
      totals.overdue += n(r.overdue);
    }
    if (page.length < PAGE) break;
    const last = page[page.length - 1]!;
    after = { name: String(last.name), id: last.id };
  }
  return {
    dated: false,
    columns: [...plain('customer', 'phone'), ...money('outstanding', 'overdue'), ...plain('open_tabs', 'overdue_tabs', 'oldest_due_date')],
    totals,
    moneyTotals: ['outstanding', 'overdue'],
    async *rows() {
      let key: CustomerKey | null = null;
      for (;;) {
        const page = await creditPage(s.db, s.orgId, today, key);
        if (page.length) {
          yield page.map((r) => ({
            customer: String(r.name),
            phone: r.phone ?? '',
            outstanding: n(r.outstanding),
            overdue: n(r.overdue),
            open_tabs: n(r.open_tabs),
            overdue_tabs: n(r.overdue_tabs),
            oldest_due_date: r.oldest_due_date ?? '',
          }));
          const last = page[page.length - 1]!;
          key = { name: String(last.name), id: last.id };
        }
        if (page.length < PAGE) return;
      }
    },
  };
}

export function buildReport(type: ReportType, scope: ReportScope): Promise<ReportSpec> {
  switch (type) {
    case 'sales':
      return salesSpec(scope);
    case 'tax':
      return taxSpec(scope);
    case 'inventory':
      return inventorySpec(scope);
    case 'credit':
      return creditSpec(scope);
  }
}
