/**
 * Expected deliveries: orders sent and not yet received in full (`sent`, `partly_received`) are
 * what the shop waits for. The API keeps no expected date on an order, so the office shows one
 * worked out as the reorder suggestions do: sent + the supplier's lead time, 7 days when it has
 * none (docs/inventory.md "Reorder suggestions"). A supplier's page lists its own.
 */
import { EAT, type PurchaseOrder, type PurchaseOrderStatus, type Supplier } from '@duka/shared';
import { useEffect, useState } from 'preact/hooks';
import { may } from '../../access.js';
import { type ApiError, get } from '../../api.js';
import { lang, num, tsh } from '../../i18n/lang.js';
import { ErrorBanner } from '../../ui/form.js';
import { html } from '../../ui/html.js';
import { List } from '../../ui/list.js';
import { follow, href } from '../../ui/router.js';
import { t } from './orders-messages.js';

export const DEFAULT_LEAD_DAYS = 7;
export const WAITING: PurchaseOrderStatus[] = ['sent', 'partly_received'];

/** A date on the shop's clock, without the time. */
export const day = (iso: string) =>
  new Date(iso).toLocaleDateString(lang.value === 'sw' ? 'sw-TZ' : 'en-GB', { dateStyle: 'medium', timeZone: EAT });

/** When a waiting order should come: sent + the supplier's lead time; null for an order not waiting. */
export function expectedBy(order: PurchaseOrder, leadDays: number | null | undefined): string | null {
  if (!WAITING.includes(order.status) || !order.sent_at) return null;
  return new Date(Date.parse(order.sent_at) + (leadDays ?? DEFAULT_LEAD_DAYS) * 86_400_000).toISOString();
}

export const StatusPill = ({ status }: { status: PurchaseOrderStatus }) =>
  html`<span class=${`pill po-${status}`} data-testid="order-status">${t(`status.${status}`)}</span>`;

export const orderLink = (o: PurchaseOrder) =>
  html`<a href=${href(`suppliers/orders/${o.id}`)} data-testid="order-open" onClick=${(e: MouseEvent) => follow(e, `suppliers/orders/${o.id}`)}>${o.reference}</a>`;

/** What still owes, in words: "96 piece of Soda, 5 kg of Sukari". */
const owedOf = (o: PurchaseOrder) =>
  o.lines
    .filter((l) => l.owed > 0)
    .map((l) => `${num(l.owed)} ${l.unit} ${l.product_name}`)
    .join(', ');

/** The supplier's orders still on their way, on the supplier's page. */
export function ExpectedDeliveries({ supplier }: { supplier: Supplier }) {
  const [orders, setOrders] = useState<PurchaseOrder[] | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const allowed = may('GET /suppliers/purchase-orders');
  useEffect(() => {
    if (!allowed) return;
    Promise.all(
      WAITING.map((status) => get<PurchaseOrder[]>('/suppliers/purchase-orders', { supplier: supplier.id, status, page_size: 50 })),
    ).then((pages) => setOrders(pages.flat().sort((a, b) => (a.sent_at ?? '').localeCompare(b.sent_at ?? ''))), setError);
  }, [supplier.id, allowed]);
  if (!allowed) return null;
  return html`<section class="expected">
    <header class="screen-head">
      <h2>${t('expected')}</h2>
      ${may('POST /suppliers/purchase-orders') ? html`<a class="button" href=${href(`suppliers/orders/new/${supplier.id}`)} onClick=${(e: MouseEvent) => follow(e, `suppliers/orders/new/${supplier.id}`)} data-testid="supplier-order-new">${t('new')}</a>` : null}
    </header>
    <${ErrorBanner} error=${error} />
    ${
      orders
        ? html`<${List}
            testid="expected"
            rows=${orders}
            rowId=${(o: PurchaseOrder) => o.id}
            columns=${[
              { label: t('reference'), cell: orderLink },
              { label: t('status'), cell: (o: PurchaseOrder) => html`<${StatusPill} status=${o.status} />` },
              { label: t('sent'), cell: (o: PurchaseOrder) => (o.sent_at ? day(o.sent_at) : '–') },
              { label: t('expected.by'), cell: (o: PurchaseOrder) => day(expectedBy(o, supplier.lead_time_days)!) },
              { label: t('owed'), cell: owedOf },
              { label: t('total'), num: true, cell: (o: PurchaseOrder) => tsh(o.total_value) },
            ]}
          />`
        : null
    }
  </section>`;
}
