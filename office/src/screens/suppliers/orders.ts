/**
 * Purchase orders of the active store (GET /suppliers/purchase-orders), newest first, filtered by
 * status and supplier; "Expected" (sent and partly received) shows when each should come. A new
 * order by hand, or drafted from the reorder suggestions, for who may.
 */
import type { PurchaseOrder, PurchaseOrderStatus, Supplier } from '@duka/shared';
import { useEffect, useState } from 'preact/hooks';
import { may } from '../../access.js';
import { get } from '../../api.js';
import { tsh } from '../../i18n/lang.js';
import { ErrorBanner } from '../../ui/form.js';
import { html } from '../../ui/html.js';
import { type Column, List, Pager, useList } from '../../ui/list.js';
import { follow, href } from '../../ui/router.js';
import { day, expectedBy, orderLink, StatusPill, WAITING } from './expected.js';
import { t } from './orders-messages.js';

// The API's statuses (shared PurchaseOrderStatus), literal here to keep zod out of the chunk.
const STATUSES: PurchaseOrderStatus[] = ['draft', 'sent', 'partly_received', 'received', 'cancelled'];

const link = (to: string, label: string, testid: string, cls = 'button') =>
  html`<a class=${cls} href=${href(to)} onClick=${(e: MouseEvent) => follow(e, to)} data-testid=${testid}>${label}</a>`;

export function OrderList() {
  const [status, setStatus] = useState('');
  const [supplier, setSupplier] = useState('');
  const [page, setPage] = useState(1);
  const [suppliers, setSuppliers] = useState<Supplier[]>([]);
  useEffect(() => {
    get<Supplier[]>('/suppliers', { page_size: 100 }).then(setSuppliers, () => {});
  }, []);
  const list = useList<PurchaseOrder>('/suppliers/purchase-orders', {
    status: status || undefined,
    supplier: supplier || undefined,
    page,
    page_size: 25,
  });
  const lead = (id: string) => suppliers.find((s) => s.id === id)?.lead_time_days;
  const pick = (set: (v: string) => void) => (e: Event) => (set((e.currentTarget as HTMLSelectElement).value), setPage(1));
  const columns: Column<PurchaseOrder>[] = [
    { label: t('reference'), cell: orderLink },
    { label: t('supplier'), cell: (o) => o.supplier_name },
    { label: t('status'), cell: (o) => html`<${StatusPill} status=${o.status} />` },
    { label: t('created'), cell: (o) => day(o.created_at) },
    {
      label: t('expected.by'),
      cell: (o) => {
        const by = expectedBy(o, lead(o.supplier_id));
        return by ? html`<span data-testid="order-expected">${day(by)}</span>` : '–';
      },
    },
    { label: t('total'), num: true, cell: (o) => tsh(o.total_value) },
  ];
  return html`<section data-testid="order-list">
    <header class="screen-head">
      <h1>${t('title')}</h1>
      ${may('POST /suppliers/purchase-orders') ? link('suppliers/orders/new', t('new'), 'order-new', 'button primary') : null}
      ${may('POST /suppliers/purchase-orders/from-suggestions') ? link('suppliers/orders/suggestions', t('suggestions'), 'order-suggestions') : null}
    </header>
    ${link('suppliers', `← ${t('back')}`, 'orders-back', '')}
    <div class="toolbar">
      <label class="field"><span>${t('status')}</span>
        <select data-testid="order-status-filter" value=${status} onChange=${pick(setStatus)}>
          <option value="">${t('status.any')}</option>
          ${STATUSES.map((s) => html`<option value=${s}>${t(`status.${s}`)}</option>`)}
        </select>
      </label>
      <label class="field"><span>${t('supplier')}</span>
        <select data-testid="order-supplier-filter" value=${supplier} onChange=${pick(setSupplier)}>
          <option value="">${t('supplier.any')}</option>
          ${suppliers.map((s) => html`<option value=${s.id}>${s.name}</option>`)}
        </select>
      </label>
    </div>
    ${WAITING.includes(status as PurchaseOrderStatus) ? html`<p class="muted">${t('expected.how')}</p>` : null}
    <${ErrorBanner} error=${list.error} />
    ${list.rows ? html`<${List} testid="orders" rows=${list.rows} rowId=${(o: PurchaseOrder) => o.id} columns=${columns} />` : null}
    <${Pager} meta=${list.meta} onPage=${setPage} />
  </section>`;
}
