/** Suppliers: the list, a supplier added or edited, a supplier's page, a delivery received, purchase orders (orders.ts). */
import { may } from '../../access.js';
import { t as core } from '../../i18n/core.js';
import { tsh } from '../../i18n/lang.js';
import { ErrorBanner } from '../../ui/form.js';
import { html } from '../../ui/html.js';
import { List, Pager } from '../../ui/list.js';
import { follow, href } from '../../ui/router.js';
import { useState } from 'preact/hooks';
import type { Supplier } from '@duka/shared';
import { useList } from '../../ui/list.js';
import { ReceiveDelivery } from './delivery-form.js';
import { SupplierForm } from './form.js';
import { SupplierPage } from './detail.js';
import { t } from './messages.js';
import { OrderPage } from './order.js';
import { OrderForm } from './order-form.js';
import { OrderList } from './orders.js';
import { t as orders } from './orders-messages.js';
import { Suggestions } from './suggestions.js';

export function Screen({ rest }: { rest: string[] }) {
  const [first, second] = rest;
  if (first === 'new') return html`<${SupplierForm} />`;
  if (first === 'receive') return html`<${ReceiveDelivery} />`;
  if (first === 'orders') return ordersScreen(rest.slice(1));
  if (first && second === 'edit') return html`<${SupplierForm} id=${first} />`;
  if (first) return html`<${SupplierPage} id=${first} />`;
  return html`<${SupplierList} />`;
}

/** `suppliers/orders[/new[/<supplier>] | /suggestions | /<id>]`. */
function ordersScreen([second, third]: string[]) {
  if (!second) return html`<${OrderList} />`;
  if (second === 'new') return html`<${OrderForm} key=${third ?? ''} supplierId=${third} />`;
  if (second === 'suggestions') return html`<${Suggestions} />`;
  return html`<${OrderPage} key=${second} id=${second} />`;
}

function SupplierList() {
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const list = useList<Supplier>('/suppliers', { search, page, page_size: 25 });
  return html`<section>
    <header class="screen-head">
      <h1>${t('title')}</h1>
      ${may('POST /suppliers/deliveries') ? html`<a class="button primary" href=${href('suppliers/receive')} onClick=${(e: MouseEvent) => follow(e, 'suppliers/receive')} data-testid="receive-delivery">${t('receive')}</a>` : null}
      ${may('GET /suppliers/purchase-orders') ? html`<a class="button" href=${href('suppliers/orders')} onClick=${(e: MouseEvent) => follow(e, 'suppliers/orders')} data-testid="orders-open">${orders('title')}</a>` : null}
      ${may('POST /suppliers') ? html`<a class="button" href=${href('suppliers/new')} onClick=${(e: MouseEvent) => follow(e, 'suppliers/new')} data-testid="supplier-add">${t('add')}</a>` : null}
    </header>
    <div class="toolbar">
      <label class="field"><span>${core('search')}</span><input type="search" data-testid="supplier-search" value=${search} onInput=${(e: Event) => (setSearch((e.currentTarget as HTMLInputElement).value), setPage(1))} /></label>
    </div>
    <${ErrorBanner} error=${list.error} />
    ${
      list.rows
        ? html`<${List}
        testid="suppliers"
        rows=${list.rows}
        rowId=${(s: Supplier) => s.id}
        columns=${[
          {
            label: t('name'),
            cell: (s: Supplier) =>
              html`<a href=${href(`suppliers/${s.id}`)} onClick=${(e: MouseEvent) => follow(e, `suppliers/${s.id}`)}>${s.name}</a>`,
          },
          { label: t('phone'), cell: (s: Supplier) => s.phone ?? '–' },
          { label: t('owed'), num: true, cell: (s: Supplier) => tsh(s.outstanding_balance) },
        ]}
      />`
        : html`<p>${core('loading')}</p>`
    }
    <${Pager} meta=${list.meta} onPage=${setPage} />
  </section>`;
}
