/** Expenses: the list with filters, the month's summary by category, an expense added or edited. */
import { EXPENSE_CATEGORIES, type Expense, type ExpenseCategory, type ExpenseSummary } from '@duka/shared';
import { useEffect, useState } from 'preact/hooks';
import { may } from '../../access.js';
import { get } from '../../api.js';
import { t as core } from '../../i18n/core.js';
import { tsh, when } from '../../i18n/lang.js';
import { ErrorBanner } from '../../ui/form.js';
import { html } from '../../ui/html.js';
import { List, Pager, useList } from '../../ui/list.js';
import { follow, href } from '../../ui/router.js';
import { ExpenseForm } from './form.js';
import { t } from './messages.js';

export function Screen({ rest }: { rest: string[] }) {
  if (rest[0] === 'new') return html`<${ExpenseForm} />`;
  if (rest[0]) return html`<${ExpenseForm} id=${rest[0]} />`;
  return html`<${Expenses} />`;
}

function Summary() {
  const [summary, setSummary] = useState<ExpenseSummary | null>(null);
  useEffect(() => {
    get<ExpenseSummary>('/expenses/summary').then(setSummary, () => {});
  }, []);
  if (!summary) return null;
  const spent = Object.entries(summary.by_category).filter(([, v]) => v > 0);
  return html`<div class="panel" data-testid="expense-summary">
    <h2>${t('summary')}: ${tsh(summary.total)}</h2>
    ${spent.length ? html`<ul>${spent.map(([c, v]) => html`<li>${t(`cat.${c}` as `cat.${ExpenseCategory}`)} <span class="muted">${tsh(v)}</span></li>`)}</ul>` : html`<p class="muted">${core('none')}</p>`}
  </div>`;
}

function Expenses() {
  const [search, setSearch] = useState('');
  const [category, setCategory] = useState('');
  const [page, setPage] = useState(1);
  const list = useList<Expense>('/expenses', { search, category, page, page_size: 25 });
  const open = (x: Expense) =>
    may('PATCH /expenses/{id}')
      ? html`<a href=${href(`expenses/${x.id}`)} onClick=${(e: MouseEvent) => follow(e, `expenses/${x.id}`)}>${x.title}</a>`
      : x.title;
  return html`<section>
    <header class="screen-head">
      <h1>${t('title')}</h1>
      ${may('POST /expenses') ? html`<a class="button primary" href=${href('expenses/new')} onClick=${(e: MouseEvent) => follow(e, 'expenses/new')} data-testid="expense-add">${t('add')}</a>` : null}
    </header>
    ${may('GET /expenses/summary') ? html`<${Summary} />` : null}
    <div class="toolbar">
      <label class="field"><span>${core('search')}</span><input type="search" value=${search} onInput=${(e: Event) => (setSearch((e.currentTarget as HTMLInputElement).value), setPage(1))} /></label>
      <label class="field"><span>${t('category')}</span>
        <select value=${category} onChange=${(e: Event) => (setCategory((e.currentTarget as HTMLSelectElement).value), setPage(1))}>
          <option value="">${t('all')}</option>
          ${EXPENSE_CATEGORIES.map((c) => html`<option value=${c}>${t(`cat.${c}`)}</option>`)}
        </select>
      </label>
    </div>
    <${ErrorBanner} error=${list.error} />
    ${
      list.rows
        ? html`<${List}
        testid="expenses"
        rows=${list.rows}
        rowId=${(x: Expense) => x.id}
        columns=${[
          { label: t('date'), cell: (x: Expense) => when(x.spent_at) },
          { label: t('what'), cell: open },
          { label: t('category'), cell: (x: Expense) => t(`cat.${x.category}`) },
          { label: t('method'), cell: (x: Expense) => x.payment_method },
          { label: t('amount'), num: true, cell: (x: Expense) => tsh(x.amount) },
        ]}
      />`
        : html`<p>${core('loading')}</p>`
    }
    <${Pager} meta=${list.meta} onPage=${setPage} />
  </section>`;
}
