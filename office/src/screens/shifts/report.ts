/** One shift's X report (open: expected so far) or Z report (closed: what was counted, over or short). */
import type { TillShiftWithReport } from '@duka/shared';
import { useEffect, useState } from 'preact/hooks';
import { api, type ApiError } from '../../api.js';
import { t as core } from '../../i18n/core.js';
import { tsh, when } from '../../i18n/lang.js';
import { ErrorBanner } from '../../ui/form.js';
import { html } from '../../ui/html.js';
import { type Column, List } from '../../ui/list.js';
import { follow, href } from '../../ui/router.js';
import { t } from './messages.js';

/** Over in green, short in red, even in grey; nothing while the shift is open. */
export const OverShort = ({ value }: { value: number | null | undefined }) =>
  value == null
    ? html`<span class="muted">–</span>`
    : html`<span class=${value > 0 ? 'ok' : value < 0 ? 'error' : 'muted'} data-testid="over-short">${value > 0 ? '+' : ''}${tsh(value)}</span>`;

interface Row {
  id: string;
  method: string;
  opening_float: number;
  sales: number;
  refunds: number;
  credit_payments: number;
  payouts: number;
  expected: number | null;
  counted: number | null;
  over_short: number | null;
}

export function ShiftReportView({ id }: { id: string }) {
  const [shift, setShift] = useState<TillShiftWithReport | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  useEffect(() => {
    api<TillShiftWithReport>('GET', `/pos/shifts/${id}`).then(
      (a) => setShift(a.data),
      (e: ApiError) => setError(e),
    );
  }, [id]);
  const back = html`<a class="no-print" href=${href('shifts')} onClick=${(e: MouseEvent) => follow(e, 'shifts')}>← ${t('back')}</a>`;
  if (!shift) return html`<section>${back}<${ErrorBanner} error=${error} />${error ? null : html`<p>${core('loading')}</p>`}</section>`;
  const r = shift.report;
  const z = r.kind === 'Z';
  // One row per method, then the totals (of the methods counted at close), as a table on a desk and cards on a phone.
  const rows: Row[] = [
    ...r.methods.map((m) => ({
      id: m.method,
      ...m,
      expected: m.counted_at_close ? m.expected : null,
      counted: m.counted_at_close ? m.counted : null,
    })),
    {
      id: 'total',
      method: t('total'),
      ...r.totals,
      opening_float: r.opening_float,
      counted: z ? r.totals.counted : null,
      over_short: z ? r.totals.over_short : null,
    },
  ];
  const money = (
    label: string,
    key: 'opening_float' | 'sales' | 'refunds' | 'credit_payments' | 'payouts' | 'expected' | 'counted',
  ): Column<Row> => ({
    label,
    num: true,
    cell: (row) => (row[key] == null ? html`<span class="muted">${key === 'expected' ? t('not_counted') : '–'}</span>` : tsh(row[key])),
  });
  const columns: Column<Row>[] = [
    { label: t('method'), cell: (row) => (row.id === 'total' ? html`<strong>${row.method}</strong>` : row.method) },
    money(t('float'), 'opening_float'),
    money(t('sales'), 'sales'),
    money(t('refunds'), 'refunds'),
    money(t('credit_payments'), 'credit_payments'),
    money(t('payouts'), 'payouts'),
    money(t('expected'), 'expected'),
    money(t('counted'), 'counted'),
    { label: t('over_short'), num: true, cell: (row) => html`<${OverShort} value=${row.over_short} />` },
  ];
  return html`<section class="shift-report" data-testid="shift-report">
    ${back}
    <header class="screen-head">
      <h1>${t(`report.${r.kind}`)}</h1>
      <button class="no-print" onClick=${() => print()}>${t('print')}</button>
    </header>
    <p>
      ${t('till')} <strong>${r.till_number ?? '–'}</strong> · ${t('cashier')} <strong>${r.cashier_name ?? '–'}</strong><br />
      ${t('opened')} ${when(r.opened_at)} · ${t('closed')} ${r.closed_at ? when(r.closed_at) : t('open.now')}
    </p>
    <${List} columns=${columns} rows=${rows} testid="shift-methods" rowId=${(r: Row) => r.id} />
    <p class="muted">${t('counts', { sales: r.sales_count, refunds: r.refund_count, payouts: r.payout_count, credit: r.credit_payment_count })}</p>
    ${r.note ? html`<p><strong>${t('note')}:</strong> ${r.note}</p>` : null}
  </section>`;
}
