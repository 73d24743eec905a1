/**
 * Today at a glance, for the store the session is in, moving as the tills sell (live.ts); the
 * owner's other stores on a panel below, read again with every change and once a minute (the
 * websocket speaks for the session's store only).
 */
import { useEffect, useState } from 'preact/hooks';
import type { ApiError } from '../../api.js';
import { t as core } from '../../i18n/core.js';
import { num, tsh, when } from '../../i18n/lang.js';
import { profile } from '../../access.js';
import { ErrorBanner } from '../../ui/form.js';
import { html } from '../../ui/html.js';
import { type Figures, readFigures } from './figures.js';
import { connected, listen } from './live.js';
import { t } from './messages.js';
import { StoresPanel } from './stores-panel.js';

const Tile = ({ id, label, value, sub }: { id: string; label: string; value: string; sub?: string | undefined }) =>
  html`<div class="tile" data-testid=${`today-${id}`}>
    <span class="label">${label}</span>
    <strong class="value" data-testid=${`today-${id}-value`}>${value}</strong>
    ${sub ? html`<small>${sub}</small>` : null}
  </div>`;

export function Screen() {
  const [figures, setFigures] = useState<Figures | null>(null);
  const [error, setError] = useState<ApiError | null>(null);

  useEffect(() => {
    let live = true;
    const read = () =>
      readFigures().then(
        (f) => live && (setFigures(f), setError(null)),
        (e: ApiError) => live && setError(e),
      );
    void read();
    const stop = listen(read);
    const minutely = setInterval(() => document.hidden || void read(), 60_000);
    return () => {
      live = false;
      stop();
      clearInterval(minutely);
    };
  }, []);

  const f = figures;
  return html`<section class="today">
    <header class="screen-head">
      <h1>${t('title')}</h1>
      <span class=${`live ${connected.value ? 'on' : 'off'}`} data-testid="live">${connected.value ? core('live.on') : core('live.off')}</span>
    </header>
    <${ErrorBanner} error=${error} />
    ${
      !f
        ? html`<p>${core('loading')}</p>`
        : html`<div class="tiles">
      ${
        f.summary
          ? html`
        <${Tile} id="sales" label=${t('sales')} value=${tsh(f.summary.total_sales)} sub=${t('sales.count', { n: num(f.summary.transaction_count) })} />
        <${Tile} id="cash" label=${t('cash')} value=${tsh(f.summary.cash_total)} />
        <${Tile} id="credit-sold" label=${t('credit.sold')} value=${tsh(f.summary.credit_total)} />
        <${Tile} id="refunds" label=${t('refunds')} value=${tsh(f.summary.refund_total)} sub=${num(f.summary.refund_count)} />`
          : null
      }
      ${f.cashExpected !== undefined ? html`<${Tile} id="cash-expected" label=${t('cash.expected')} value=${tsh(f.cashExpected)} />` : null}
      ${f.mobile ? html`<${Tile} id="mobile" label=${t('mobile')} value=${`${t('mobile.confirmed')} ${tsh(f.mobile.confirmed)}`} sub=${`${t('mobile.waiting')} ${tsh(f.mobile.waiting)}`} />` : null}
      ${f.credit ? html`<${Tile} id="credit" label=${t('credit')} value=${tsh(f.credit.outstanding)} sub=${t('credit.overdue', { n: f.credit.overdue })} />` : null}
      ${f.conflicts !== undefined ? html`<${Tile} id="conflicts" label=${t('conflicts')} value=${num(f.conflicts)} />` : null}
      ${f.refusals !== undefined ? html`<${Tile} id="refusals" label=${t('refusals')} value=${num(f.refusals)} />` : null}
    </div>
    <div class="panels">
      ${
        f.openShifts
          ? html`<div class="panel" data-testid="today-shifts">
        <h2>${t('shifts')}</h2>
        ${f.openShifts.length ? html`<ul>${f.openShifts.map((s) => html`<li>${t('shifts.till', { till: s.till_number ?? '–', time: when(s.opened_at) })}</li>`)}</ul>` : html`<p class="muted">${t('shifts.none')}</p>`}
      </div>`
          : null
      }
      ${
        f.tills
          ? html`<div class="panel" data-testid="today-tills">
        <h2>${t('tills')}</h2>
        ${f.tills.length ? html`<ul>${f.tills.map((d) => html`<li>${d.name} (${d.till_code}) <span class="muted">${t('tills.seen', { time: when(d.last_seen_at) })}</span></li>`)}</ul>` : html`<p class="muted">${t('tills.none')}</p>`}
      </div>`
          : null
      }
      ${
        f.lowStock
          ? html`<div class="panel" data-testid="today-low-stock">
        <h2>${t('low_stock')} (${f.lowStock.length})</h2>
        ${f.lowStock.length ? html`<ul>${f.lowStock.slice(0, 8).map((p) => html`<li>${p.name} <span class="muted">${num(p.stock)}</span></li>`)}</ul>` : html`<p class="muted">${t('low_stock.none')}</p>`}
      </div>`
          : null
      }
      ${f.stores ? html`<${StoresPanel} stores=${f.stores} current=${profile.value?.store?.id} />` : null}
    </div>`
    }
  </section>`;
}
