/**
 * The owner's stores on one panel: each active store's sales today and who is on duty, and the
 * total. Today's tiles are the session's store (the token fixes it); "Open" moves the session to
 * another store, as the header's switcher does. Shown only to an organisation of two stores or more.
 */
import type { StoreWithKpis } from '@duka/shared';
import { switchStore } from '../../api.js';
import { num, tsh } from '../../i18n/lang.js';
import { html } from '../../ui/html.js';
import { t } from './messages.js';

export function StoresPanel({ stores, current }: { stores: StoreWithKpis[]; current: string | undefined }) {
  if (stores.length < 2) return null;
  const total = stores.reduce((sum, s) => sum + Number(s.today_sales), 0);
  const count = stores.reduce((sum, s) => sum + s.today_transactions, 0);
  return html`<div class="panel wide" data-testid="today-stores">
    <h2>${t('stores')}</h2>
    <table class="compact">
      <thead><tr><th>${t('stores.store')}</th><th class="num">${t('sales')}</th><th class="num">${t('stores.count')}</th><th class="num">${t('stores.on_duty')}</th><th></th></tr></thead>
      <tbody>
        ${stores.map(
          (s) => html`<tr data-testid="today-store" data-id=${s.id}>
            <td>${s.name}${s.id === current ? html` <span class="pill">${t('stores.here')}</span>` : null}</td>
            <td class="num" data-testid="today-store-sales">${tsh(s.today_sales)}</td>
            <td class="num">${num(s.today_transactions)}</td>
            <td class="num">${num(s.staff_on_duty)}</td>
            <td>${s.id === current ? null : html`<button type="button" class="link" data-testid="today-store-open" onClick=${() => switchStore(s.id)}>${t('stores.open')}</button>`}</td>
          </tr>`,
        )}
      </tbody>
      <tfoot><tr><th>${t('stores.total')}</th><th class="num" data-testid="today-stores-total">${tsh(total)}</th><th class="num">${num(count)}</th><th></th><th></th></tr></tfoot>
    </table>
  </div>`;
}
