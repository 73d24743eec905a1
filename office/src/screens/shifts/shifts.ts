/** Shifts: each till's shifts with their over/short (a cashier sees their own), and one shift's X or Z report. */
import type { StaffMember, TillShift } from '@duka/shared';
import { useEffect, useState } from 'preact/hooks';
import { api } from '../../api.js';
import { may, profile } from '../../access.js';
import { when } from '../../i18n/lang.js';
import { ErrorBanner } from '../../ui/form.js';
import { html } from '../../ui/html.js';
import { type Column, List, Pager, useList } from '../../ui/list.js';
import { follow, href } from '../../ui/router.js';
import { t } from './messages.js';
import { OverShort, ShiftReportView } from './report.js';

export function Screen({ rest }: { rest: string[] }) {
  return rest[0] ? html`<${ShiftReportView} key=${rest[0]} id=${rest[0]} />` : html`<${ShiftList} />`;
}

/** Cashiers' names by id: the staff list is the owner's; anyone else sees "You" for their own shifts. */
export function useCashierNames(): (id: string | null) => string {
  const [names, setNames] = useState(new Map<string, string>());
  useEffect(() => {
    if (!may('GET /staff')) return;
    api<{ items: StaffMember[] }>('GET', '/staff', { query: { size: 100 } }).then(
      (a) => setNames(new Map(a.data.items.map((m) => [m.id, `${m.first_name} ${m.last_name}`.trim()]))),
      () => {},
    );
  }, []);
  const me = profile.value?.user;
  return (id) => (!id ? '–' : id === me?.id ? t('cashier.you') : (names.get(id) ?? '–'));
}

function ShiftList() {
  const [status, setStatus] = useState('');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [page, setPage] = useState(1);
  const { rows, meta, error } = useList<TillShift>('/pos/shifts', {
    status: status || undefined,
    date_from: from || undefined,
    date_to: to || undefined,
    page,
  });
  const cashier = useCashierNames();
  const pick = (set: (v: string) => void) => (e: Event) => {
    set((e.currentTarget as HTMLInputElement).value);
    setPage(1);
  };
  const columns: Column<TillShift>[] = [
    {
      label: t('till'),
      cell: (s) =>
        html`<a href=${href(`shifts/${s.id}`)} data-testid="shift-open" onClick=${(e: MouseEvent) => follow(e, `shifts/${s.id}`)}>${s.till_number ?? '–'}</a>`,
    },
    { label: t('cashier'), cell: (s) => cashier(s.cashier_id) },
    { label: t('status'), cell: (s) => html`<span class=${`pill ${s.status}`}>${t(`status.${s.status}`)}</span>` },
    { label: t('opened'), cell: (s) => when(s.opened_at) },
    { label: t('closed'), cell: (s) => (s.closed_at ? when(s.closed_at) : html`<span class="muted">${t('open.now')}</span>`) },
    { label: t('over_short'), num: true, cell: (s) => html`<${OverShort} value=${s.over_short} />` },
  ];
  return html`<section class="shifts">
    <header class="screen-head"><h1>${t('title')}</h1></header>
    <form class="toolbar" onSubmit=${(e: Event) => e.preventDefault()}>
      <label class="field"><span>${t('status')}</span>
        <select data-testid="shift-status" value=${status} onChange=${pick(setStatus)}>
          <option value="">${t('status.any')}</option><option value="open">${t('status.open')}</option><option value="closed">${t('status.closed')}</option>
        </select>
      </label>
      <label class="field"><span>${t('from')}</span><input type="date" data-testid="shift-from" value=${from} onInput=${pick(setFrom)} /></label>
      <label class="field"><span>${t('to')}</span><input type="date" data-testid="shift-to" value=${to} onInput=${pick(setTo)} /></label>
    </form>
    <${ErrorBanner} error=${error} />
    ${rows ? html`<${List} columns=${columns} rows=${rows} testid="shift-list" rowId=${(s: TillShift) => s.id} />` : null}
    <${Pager} meta=${meta} onPage=${setPage} />
  </section>`;
}
