/** Stock transfers between the organisation's stores: the list out of and into this store, and a new transfer. */
import type { StockTransfer } from '@duka/shared';
import { useState } from 'preact/hooks';
import { may } from '../../access.js';
import { t as core } from '../../i18n/core.js';
import { num, when } from '../../i18n/lang.js';
import { ErrorBanner } from '../../ui/form.js';
import { html } from '../../ui/html.js';
import { List, Pager, useList } from '../../ui/list.js';
import { follow, href } from '../../ui/router.js';
import { TransferForm } from './transfer-form.js';
import { t } from './messages.js';

export function Screen({ rest }: { rest: string[] }) {
  if (rest[0] === 'new') return html`<${TransferForm} />`;
  return html`<${Transfers} />`;
}

function Transfers() {
  const [page, setPage] = useState(1);
  const list = useList<StockTransfer>('/inventory/transfers', { page, page_size: 25 });
  return html`<section>
    <header class="screen-head">
      <h1>${t('title')}</h1>
      ${may('POST /inventory/transfers') ? html`<a class="button primary" href=${href('stock/new')} onClick=${(e: MouseEvent) => follow(e, 'stock/new')} data-testid="transfer-new">${t('new')}</a>` : null}
    </header>
    <${ErrorBanner} error=${list.error} />
    ${
      list.rows
        ? html`<${List}
        testid="transfers"
        rows=${list.rows}
        rowId=${(x: StockTransfer) => x.id}
        columns=${[
          { label: t('date'), cell: (x: StockTransfer) => when(x.created_at) },
          { label: t('from'), cell: (x: StockTransfer) => x.from_store_name },
          { label: t('to'), cell: (x: StockTransfer) => x.to_store_name },
          { label: t('lines'), cell: (x: StockTransfer) => x.lines.map((l) => `${num(l.qty)} × ${l.name}`).join(', ') },
          { label: t('note'), cell: (x: StockTransfer) => x.note ?? '' },
        ]}
      />`
        : html`<p>${core('loading')}</p>`
    }
    <${Pager} meta=${list.meta} onPage=${setPage} />
  </section>`;
}
