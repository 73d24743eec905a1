/**
 * A generated report as the owner reads it: its totals, a chart of what the report holds (sales by
 * day and by payment method; VAT by rate; stock value by category; credit by customer) and its
 * rows as a table (the first 200: the CSV holds them all).
 */
import type { ReportResult } from '@duka/shared';
import { num, tsh } from '../../i18n/lang.js';
import { html } from '../../ui/html.js';
import { List } from '../../ui/list.js';
import { BarChart, type Series } from './chart.js';
import { t } from './messages.js';

const SHOWN = 200;
type Row = ReportResult['rows'][number];
const MONEY = new Set([
  'subtotal',
  'discount',
  'tax',
  'total',
  'refunded',
  'refunded_total',
  'void_total',
  'sales_incl_vat',
  'vat',
  'net_sales',
  'outstanding',
  'overdue',
  'cost_price',
  'selling_price',
  'value_at_cost',
  'value_at_selling_price',
]);

/** Sums `value(row)` by `key(row)`, in the order the keys first appear. */
function group(rows: Row[], key: (r: Row) => string, value: (r: Row) => number): Series {
  const sums = new Map<string, number>();
  for (const r of rows) sums.set(key(r), (sums.get(key(r)) ?? 0) + value(r));
  return { labels: [...sums.keys()], values: [...sums.values()] };
}

const n = (v: unknown) => Number(v ?? 0);
/** A sale's part of the totals: nothing for a refunded or void one, less what refunds gave back of the others. */
const counted = (r: Row) => (r.status === 'refunded' || r.status === 'void' ? 0 : n(r.total) - n(r.refunded));

function charts(r: ReportResult): Array<{ title: string; data: Series; testid: string; line?: boolean }> {
  switch (r.report_type) {
    case 'sales':
      return [
        { title: t('chart.days'), data: group(r.rows, (x) => String(x.date), counted), testid: 'chart-days' },
        { title: t('chart.methods'), data: group(r.rows, (x) => String(x.payment_method), counted), testid: 'chart-breakdown' },
      ];
    case 'tax':
      return [
        {
          title: t('chart.rates'),
          data: group(
            r.rows,
            (x) => `${x.vat_rate}%`,
            (x) => n(x.sales_incl_vat),
          ),
          testid: 'chart-breakdown',
        },
      ];
    case 'inventory':
      return [
        {
          title: t('chart.categories'),
          data: group(
            r.rows.filter((x) => x.row_type === 'category'),
            (x) => String(x.category || '–'),
            (x) => n(x.value_at_cost),
          ),
          testid: 'chart-breakdown',
        },
      ];
    case 'credit':
      return [
        {
          title: t('chart.customers'),
          data: group(
            r.rows.slice(0, 15),
            (x) => String(x.customer),
            (x) => n(x.outstanding),
          ),
          testid: 'chart-breakdown',
        },
      ];
  }
}

const cell = (column: string, v: Row[string] | undefined) => (v == null || v === '' ? '–' : MONEY.has(column) ? tsh(v) : String(v));

export function ReportView({ report }: { report: ReportResult }) {
  const columns = report.columns.map((c) => ({ label: c.replaceAll('_', ' '), cell: (row: Row) => cell(c, row[c]), num: MONEY.has(c) }));
  return html`<div class="report" data-testid="report" data-export=${report.export_id}>
    ${report.date_from ? html`<p class="muted">${t('period', { from: report.date_from, to: report.date_to ?? '' })}</p>` : null}
    <dl class="totals" data-testid="report-totals">
      ${Object.entries(report.totals).map(
        ([k, v]) =>
          html`<div><dt>${k.replaceAll('_', ' ')}</dt><dd data-testid=${`report-total-${k}`}>${MONEY.has(k) ? tsh(v) : num(v)}</dd></div>`,
      )}
    </dl>
    <div class="charts">${charts(report).map((c) => html`<${BarChart} key=${c.testid} ...${c} />`)}</div>
    <p class="muted" data-testid="report-rows">
      ${report.rows.length > SHOWN ? t('rows.cut', { shown: SHOWN, n: report.rows.length }) : t('rows', { n: report.rows.length })}
    </p>
    <div class="scroll-x"><${List} columns=${columns} rows=${report.rows.slice(0, SHOWN)} testid="report-table" /></div>
  </div>`;
}
