/** Staff: the organisation's cashiers and managers, one member's page, and adding one (owner only). */
import type { StaffMember } from '@duka/shared';
import { useState } from 'preact/hooks';
import { may } from '../../access.js';
import { ErrorBanner } from '../../ui/form.js';
import { html } from '../../ui/html.js';
import { type Column, List, Pager, useList } from '../../ui/list.js';
import { follow, href } from '../../ui/router.js';
import { AddStaff } from './add.js';
import { StaffDetail } from './detail.js';
import { t } from './messages.js';
import { fullName, useStoreNames } from './names.js';

export function Screen({ rest }: { rest: string[] }) {
  if (rest[0] === 'new') return html`<${AddStaff} />`;
  if (rest[0]) return html`<${StaffDetail} key=${rest[0]} id=${rest[0]} />`;
  return html`<${StaffList} />`;
}

function StaffList() {
  const [search, setSearch] = useState('');
  const [role, setRole] = useState('');
  const [status, setStatus] = useState('');
  const [page, setPage] = useState(1);
  const query = { search: search.trim() || undefined, role: role || undefined, status: status || undefined, page };
  const { rows, meta, error } = useList<StaffMember>('/staff', query);
  const stores = useStoreNames();
  const filter = (set: (v: string) => void) => (e: Event) => {
    set((e.currentTarget as HTMLInputElement).value);
    setPage(1);
  };
  const columns: Column<StaffMember>[] = [
    {
      label: t('name'),
      cell: (m) =>
        html`<a href=${href(`staff/${m.id}`)} data-testid="staff-open" onClick=${(e: MouseEvent) => follow(e, `staff/${m.id}`)}>${fullName(m)}</a>`,
    },
    { label: t('role'), cell: (m) => t(`role.${m.role as 'staff'}`) },
    { label: t('phone'), cell: (m) => m.phone ?? '–' },
    { label: t('store'), cell: (m) => (m.store_id ? (stores.get(m.store_id) ?? '–') : '–') },
    { label: t('status'), cell: (m) => html`<span class=${`pill ${m.employment_status}`}>${t(`status.${m.employment_status}`)}</span>` },
  ];
  return html`<section class="staff">
    <header class="screen-head">
      <h1>${t('title')}</h1>
      ${may('POST /staff') ? html`<a class="button primary" href=${href('staff/new')} data-testid="staff-add" onClick=${(e: MouseEvent) => follow(e, 'staff/new')}>${t('add')}</a>` : null}
    </header>
    <form class="toolbar" role="search" onSubmit=${(e: Event) => e.preventDefault()}>
      <label class="field"><span>${t('search')}</span><input type="search" data-testid="staff-search" value=${search} onInput=${filter(setSearch)} /></label>
      <label class="field"><span>${t('role')}</span>
        <select data-testid="staff-role" value=${role} onChange=${filter(setRole)}>
          <option value="">${t('role.any')}</option><option value="staff">${t('role.staff')}</option><option value="manager">${t('role.manager')}</option>
        </select>
      </label>
      <label class="field"><span>${t('status')}</span>
        <select data-testid="staff-status" value=${status} onChange=${filter(setStatus)}>
          <option value="">${t('status.any')}</option>
          ${(['active', 'on_leave', 'inactive'] as const).map((s) => html`<option value=${s}>${t(`status.${s}`)}</option>`)}
        </select>
      </label>
    </form>
    <${ErrorBanner} error=${error} />
    ${rows ? html`<${List} columns=${columns} rows=${rows} testid="staff-list" rowId=${(m: StaffMember) => m.id} />` : null}
    <${Pager} meta=${meta} onPage=${setPage} />
  </section>`;
}
