/** Customers: the list (search, only those who owe), the credit-due list, a customer added or edited, a customer's page. */
import type { Customer, CustomerWithCredit } from '@duka/shared';
import { useState } from 'preact/hooks';
import { may } from '../../access.js';
import { t as core } from '../../i18n/core.js';
import { num, tsh } from '../../i18n/lang.js';
import { ErrorBanner } from '../../ui/form.js';
import { html } from '../../ui/html.js';
import { List, Pager, useList } from '../../ui/list.js';
import { follow, href } from '../../ui/router.js';
import { CustomerPage } from './detail.js';
import { CustomerForm } from './form.js';
import { t } from './messages.js';

export function Screen({ rest }: { rest: string[] }) {
  const [first, second] = rest;
  if (first === 'new') return html`<${CustomerForm} />`;
  if (first === 'due') return html`<${CreditDue} />`;
  if (first && second === 'edit') return html`<${CustomerForm} id=${first} />`;
  if (first) return html`<${CustomerPage} id=${first} />`;
  return html`<${CustomerList} />`;
}

const link = (to: string, label: string, testid?: string) =>
  html`<a href=${href(to)} onClick=${(e: MouseEvent) => follow(e, to)} data-testid=${testid}>${label}</a>`;

function Head() {
  return html`<header class="screen-head">
    <h1>${t('title')}</h1>
    ${link('customers', t('all'))}
    ${may('GET /customers/credits') ? link('customers/due', t('due'), 'credit-due') : null}
    ${may('POST /customers') ? link('customers/new', t('add'), 'customer-add') : null}
  </header>`;
}

function CustomerList() {
  const [search, setSearch] = useState('');
  const [owing, setOwing] = useState(false);
  const [page, setPage] = useState(1);
  const list = useList<Customer>('/customers', { search, has_credit: owing || undefined, page, page_size: 25 });
  return html`<section>
    <${Head} />
    <div class="toolbar">
      <label class="field"><span>${core('search')}</span><input type="search" data-testid="customer-search" value=${search} onInput=${(e: Event) => (setSearch((e.currentTarget as HTMLInputElement).value), setPage(1))} /></label>
      <label class="check"><input type="checkbox" data-testid="customer-owing" checked=${owing} onChange=${(e: Event) => (setOwing((e.currentTarget as HTMLInputElement).checked), setPage(1))} /> ${t('has_credit')}</label>
    </div>
    <${ErrorBanner} error=${list.error} />
    ${
      list.rows
        ? html`<${List}
        testid="customers"
        rows=${list.rows}
        rowId=${(c: Customer) => c.id}
        columns=${[
          { label: t('name'), cell: (c: Customer) => link(`customers/${c.id}`, c.name) },
          { label: t('phone'), cell: (c: Customer) => c.phone ?? '–' },
          { label: t('owes'), num: true, cell: (c: Customer) => tsh(c.outstanding_balance) },
        ]}
      />`
        : html`<p>${core('loading')}</p>`
    }
    <${Pager} meta=${list.meta} onPage=${setPage} />
  </section>`;
}

function CreditDue() {
  const list = useList<CustomerWithCredit>('/customers/credits', { overdue: true });
  return html`<section>
    <${Head} />
    <h2>${t('due.title')}</h2>
    <${ErrorBanner} error=${list.error} />
    ${
      list.rows
        ? html`<${List}
        testid="credit-due-list"
        rows=${list.rows}
        rowId=${(c: CustomerWithCredit) => c.id}
        columns=${[
          { label: t('name'), cell: (c: CustomerWithCredit) => link(`customers/${c.id}`, c.name) },
          { label: t('phone'), cell: (c: CustomerWithCredit) => c.phone ?? '–' },
          { label: t('overdue'), num: true, cell: (c: CustomerWithCredit) => num(c.overdue_count) },
          { label: t('oldest'), cell: (c: CustomerWithCredit) => c.oldest_due_date ?? '–' },
          { label: t('owes'), num: true, cell: (c: CustomerWithCredit) => tsh(c.total_outstanding) },
        ]}
      />`
        : html`<p>${core('loading')}</p>`
    }
  </section>`;
}
