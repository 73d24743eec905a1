/**
 * The owner's analytics over every store (owner-only routes): the figures, revenue by day, the
 * payment mix and the best-selling products of the last 7, 30 or 90 days, in one
 * /analytics/overview answer.
 */
import type { AnalyticsOverview, TopProduct } from '@duka/shared';
import { useEffect, useState } from 'preact/hooks';
import { type ApiError, get } from '../../api.js';
import { num, today, tsh } from '../../i18n/lang.js';
import { ErrorBanner } from '../../ui/form.js';
import { html } from '../../ui/html.js';
import { List } from '../../ui/list.js';
import { BarChart } from './chart.js';
import { t } from './messages.js';

const DAYS = [7, 30, 90] as const;

export function Analytics() {
  const [days, setDays] = useState<number>(30);
  const [data, setData] = useState<AnalyticsOverview | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  useEffect(() => {
    let live = true;
    get<AnalyticsOverview>('/analytics/overview', { date_from: today(1 - days), date_to: today() }).then(
      (d) => live && (setData(d), setError(null)),
      (e: ApiError) => live && setError(e),
    );
    return () => {
      live = false;
    };
  }, [days]);
  const k = data?.kpis;
  const mix = Object.entries(data?.payment_mix ?? {}).filter(([, v]) => v > 0);
  return html`<section class="panel" data-testid="analytics">
    <header class="screen-head">
      <h2>${t('analytics')}</h2>
      <select aria-label=${t('range')} value=${days} onChange=${(e: Event) => setDays(Number((e.currentTarget as HTMLSelectElement).value))} data-testid="analytics-days">
        ${DAYS.map((d) => html`<option value=${d}>${t(`range.${d}d`)}</option>`)}
      </select>
    </header>
    <${ErrorBanner} error=${error} />
    ${data ? html`<p class="muted">${t('analytics.scope', { from: data.date_from, to: data.date_to })}</p>` : null}
    ${
      k
        ? html`<div class="tiles">
      <div class="tile"><span class="label">${t('kpi.revenue')}</span><strong class="value" data-testid="kpi-revenue">${tsh(k.revenue)}</strong></div>
      <div class="tile"><span class="label">${t('kpi.count')}</span><strong class="value">${num(k.transaction_count)}</strong></div>
      <div class="tile"><span class="label">${t('kpi.ticket')}</span><strong class="value">${tsh(k.average_ticket)}</strong></div>
      <div class="tile"><span class="label">${t('kpi.profit')}</span><strong class="value">${tsh(k.profit)}</strong>
        <small>${k.margin_pct == null ? '' : `${t('kpi.margin')} ${num(k.margin_pct)}%`}</small></div>
    </div>`
        : null
    }
    <div class="charts">
      ${data?.trend ? html`<${BarChart} title=${t('trend')} data=${data.trend} testid="chart-trend" line=${true} />` : null}
      ${mix.length ? html`<${BarChart} title=${t('mix')} data=${{ labels: mix.map(([m]) => m), values: mix.map(([, v]) => v) }} testid="chart-mix" />` : null}
    </div>
    ${
      data?.top_products
        ? html`<h3>${t('top')}</h3>
      <${List}
        testid="top-products"
        rows=${data.top_products}
        columns=${[
          { label: t('product'), cell: (p: TopProduct) => p.name },
          { label: t('top.qty'), cell: (p: TopProduct) => num(p.qty_sold), num: true },
          { label: t('top.revenue'), cell: (p: TopProduct) => tsh(p.revenue), num: true },
          { label: t('top.profit'), cell: (p: TopProduct) => tsh(p.profit), num: true },
        ]}
      />`
        : null
    }
  </section>`;
}
