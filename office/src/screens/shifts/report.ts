/** One shift's X report (open: expected so far) or Z report (closed: what was counted, over or short). */
import type { TillShiftWithReport } from '@duka/shared';
import { useEffect, useState } from 'preact/hooks';
import { api, type ApiError } from '../../api.js';
import { t as core } from '../../i18n/core.js';
import { tsh, when } from '../../i18n/lang.js';
import { ErrorBanner } from '../../ui/form.js';
import { html } from '../../ui/html.js';
import { follow, href } from '../../ui/router.js';
import { t } from './messages.js';

/** Over in green, short in red, even in grey; nothing while the shift is open. */
export const OverShort = ({ value }: { value: number | null | undefined }) =>
  value == null
    ? html`<span class="muted">–</span>`
    : html`<span class=${value > 0 ? 'ok' : value < 0 ? 'error' : 'muted'} data-testid="over-short">${value > 0 ? '+' : ''}${tsh(value)}</span>`;

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
    <div class="scroll">
      <table class="report">
        <thead><tr>
          <th>${t('method')}</th><th class="num">${t('float')}</th><th class="num">${t('sales')}</th><th class="num">${t('refunds')}</th>
          <th class="num">${t('credit_payments')}</th><th class="num">${t('payouts')}</th><th class="num">${t('expected')}</th>
          <th class="num">${t('counted')}</th><th class="num">${t('over_short')}</th>
        </tr></thead>
        <tbody>
          ${r.methods.map(
            (m) => html`<tr>
              <td>${m.method}</td><td class="num">${tsh(m.opening_float)}</td><td class="num">${tsh(m.sales)}</td><td class="num">${tsh(m.refunds)}</td>
              <td class="num">${tsh(m.credit_payments)}</td><td class="num">${tsh(m.payouts)}</td>
              <td class="num">${m.counted_at_close ? tsh(m.expected) : html`<span class="muted">${t('not_counted')}</span>`}</td>
              <td class="num">${m.counted_at_close ? tsh(m.counted) : '–'}</td><td class="num"><${OverShort} value=${m.over_short} /></td>
            </tr>`,
          )}
        </tbody>
        <tfoot><tr>
          <th>${t('total')}</th><td class="num">${tsh(r.opening_float)}</td><td class="num">${tsh(r.totals.sales)}</td><td class="num">${tsh(r.totals.refunds)}</td>
          <td class="num">${tsh(r.totals.credit_payments)}</td><td class="num">${tsh(r.totals.payouts)}</td><td class="num">${tsh(r.totals.expected)}</td>
          <td class="num">${r.kind === 'Z' ? tsh(r.totals.counted) : '–'}</td><td class="num" data-testid="shift-over-short">${r.kind === 'Z' ? html`<${OverShort} value=${r.totals.over_short} />` : '–'}</td>
        </tr></tfoot>
      </table>
    </div>
    <p class="muted">${t('counts', { sales: r.sales_count, refunds: r.refund_count, payouts: r.payout_count, credit: r.credit_payment_count })}</p>
    ${r.note ? html`<p><strong>${t('note')}:</strong> ${r.note}</p>` : null}
  </section>`;
}
