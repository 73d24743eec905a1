/** Sales: the store's sales found by receipt number or payment reference, filtered, and one sale's receipt. */
import type { PaymentMethod, Transaction } from '@duka/shared';
import { useState } from 'preact/hooks';
import { tsh, when } from '../../i18n/lang.js';
import { ErrorBanner } from '../../ui/form.js';
import { html } from '../../ui/html.js';
import { type Column, List, Pager, useList } from '../../ui/list.js';
import { follow, href } from '../../ui/router.js';
import { t } from './messages.js';
import { SaleView, StatusPill } from './sale.js';

// The filters' choices, typed by the shared schemas (literals here keep zod out of this screen's chunk).
const STATUSES: Transaction['status'][] = ['paid', 'credit', 'refunded', 'void'];
const METHODS: PaymentMethod[] = ['Cash', 'M-Pesa', 'Tigo Pesa', 'Airtel Money', 'Bank', 'Credit'];

export function Screen({ rest }: { rest: string[] }) {
  return rest[0] ? html`<${SaleView} key=${rest[0]} id=${rest[0]} />` : html`<${SaleList} />`;
}

function SaleList() {
  const [search, setSearch] = useState('');
  const [status, setStatus] = useState('');
  const [method, setMethod] = useState('');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [page, setPage] = useState(1);
  const { rows, meta, error } = useList<Transaction>('/pos/transactions', {
    search: search.trim() || undefined,
    status: status || undefined,
    method: method || undefined,
    date_from: from || undefined,
    date_to: to || undefined,
    page,
  });
  const pick = (set: (v: string) => void) => (e: Event) => {
    set((e.currentTarget as HTMLInputElement).value);
    setPage(1);
  };
  const columns: Column<Transaction>[] = [
    {
      label: t('receipt'),
      cell: (s) =>
        html`<a href=${href(`sales/${s.id}`)} data-testid="sale-open" onClick=${(e: MouseEvent) => follow(e, `sales/${s.id}`)}>${s.receipt_number}</a>`,
    },
    { label: t('time'), cell: (s) => when(s.created_at) },
    { label: t('status'), cell: (s) => html`<${StatusPill} status=${s.status} />` },
    { label: t('method'), cell: (s) => s.payment_method },
    { label: t('till'), cell: (s) => s.till_number ?? '–' },
    { label: t('total'), num: true, cell: (s) => tsh(s.total) },
  ];
  return html`<section class="sales">
    <header class="screen-head"><h1>${t('title')}</h1></header>
    <form class="toolbar" role="search" onSubmit=${(e: Event) => e.preventDefault()}>
      <label class="field"><span>${t('search')}</span><input type="search" data-testid="sale-search" value=${search} onInput=${pick(setSearch)} /></label>
      <label class="field"><span>${t('status')}</span>
        <select data-testid="sale-status-filter" value=${status} onChange=${pick(setStatus)}>
          <option value="">${t('status.any')}</option>
          ${STATUSES.map((s) => html`<option value=${s}>${t(`status.${s}`)}</option>`)}
        </select>
      </label>
      <label class="field"><span>${t('method')}</span>
        <select data-testid="sale-method" value=${method} onChange=${pick(setMethod)}>
          <option value="">${t('method.any')}</option>
          ${METHODS.map((m) => html`<option value=${m}>${m}</option>`)}
        </select>
      </label>
      <label class="field"><span>${t('from')}</span><input type="date" data-testid="sale-from" value=${from} onInput=${pick(setFrom)} /></label>
      <label class="field"><span>${t('to')}</span><input type="date" data-testid="sale-to" value=${to} onInput=${pick(setTo)} /></label>
    </form>
    <${ErrorBanner} error=${error} />
    ${rows ? html`<${List} columns=${columns} rows=${rows} testid="sale-list" rowId=${(s: Transaction) => s.id} />` : null}
    <${Pager} meta=${meta} onPage=${setPage} />
  </section>`;
}
