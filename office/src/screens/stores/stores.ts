/** Stores: each with today's figures, adding one, and one store's details, status and deactivation (owner only). */
import type { StoreWithKpis } from '@duka/shared';
import { useState } from 'preact/hooks';
import { may } from '../../access.js';
import { num, tsh } from '../../i18n/lang.js';
import { ErrorBanner } from '../../ui/form.js';
import { html } from '../../ui/html.js';
import { type Column, List, useList } from '../../ui/list.js';
import { follow, href } from '../../ui/router.js';
import { StoreDetail } from './detail.js';
import { StoreForm } from './form.js';
import { t } from './messages.js';

export function Screen({ rest }: { rest: string[] }) {
  if (rest[0] === 'new') return html`<${StoreForm} />`;
  if (rest[0]) return html`<${StoreDetail} key=${rest[0]} id=${rest[0]} />`;
  return html`<${StoreList} />`;
}

function StoreList() {
  const [status, setStatus] = useState('active');
  const { rows, error } = useList<StoreWithKpis>('/stores', { status: status || undefined });
  const columns: Column<StoreWithKpis>[] = [
    {
      label: t('name'),
      cell: (
        s,
      ) => html`<a href=${href(`stores/${s.id}`)} data-testid="store-open" onClick=${(e: MouseEvent) => follow(e, `stores/${s.id}`)}>${s.name}</a>
        <span class="muted"> ${s.code}</span>`,
    },
    {
      label: t('status'),
      cell: (s) =>
        html`<span class=${`pill ${s.is_active ? s.status : 'inactive'}`}>${s.is_active ? t(`status.${s.status}`) : t('inactive')}</span>`,
    },
    { label: t('today_sales'), num: true, cell: (s) => tsh(s.today_sales) },
    { label: t('today_transactions'), num: true, cell: (s) => num(s.today_transactions) },
    { label: t('staff_on_duty'), num: true, cell: (s) => num(s.staff_on_duty) },
  ];
  return html`<section class="stores">
    <header class="screen-head">
      <h1>${t('title')}</h1>
      ${may('POST /stores') ? html`<a class="button primary" href=${href('stores/new')} data-testid="store-add" onClick=${(e: MouseEvent) => follow(e, 'stores/new')}>${t('add')}</a>` : null}
    </header>
    <div class="toolbar">
      <label class="field"><span>${t('filter')}</span>
        <select data-testid="store-filter" value=${status} onChange=${(e: Event) => setStatus((e.currentTarget as HTMLSelectElement).value)}>
          <option value="active">${t('filter.active')}</option><option value="inactive">${t('filter.inactive')}</option><option value="">${t('filter.all')}</option>
        </select>
      </label>
    </div>
    <${ErrorBanner} error=${error} />
    ${rows ? html`<${List} columns=${columns} rows=${rows} testid="store-list" rowId=${(s: StoreWithKpis) => s.id} />` : null}
  </section>`;
}
