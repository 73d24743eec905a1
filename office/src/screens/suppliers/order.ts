/**
 * One purchase order (GET /suppliers/purchase-orders/{id}): per line as ordered, received and still
 * owed, the total, where and how it was sent. A draft is sent by SMS or email (the server's answer
 * shown: to which number or address), received in full or in part (receive.ts), or cancelled; each
 * action only for who may, and only in the statuses the API takes it.
 */
import type { PurchaseOrder, PurchaseOrderChannel, PurchaseOrderStatus } from '@duka/shared';
import { useEffect, useState } from 'preact/hooks';
import { may } from '../../access.js';
import { type ApiError, api, get } from '../../api.js';
import { t as core } from '../../i18n/core.js';
import { num, tsh, when } from '../../i18n/lang.js';
import { Confirm } from '../../ui/confirm.js';
import { ErrorBanner, useSubmit } from '../../ui/form.js';
import { html } from '../../ui/html.js';
import { List } from '../../ui/list.js';
import { follow, href } from '../../ui/router.js';
import { StatusPill } from './expected.js';
import { t } from './orders-messages.js';
import { ReceiveForm } from './receive.js';

const OPEN: PurchaseOrderStatus[] = ['draft', 'sent', 'partly_received'];
type Line = PurchaseOrder['lines'][number];

/** As ordered: "10 Carton (24 piece)" or "5 kg". */
const asOrdered = (l: Line) => (l.pack ? `${num(l.qty)} ${l.pack.name} (${num(l.pack.units)} ${l.unit})` : `${num(l.qty)} ${l.unit}`);

export function OrderPage({ id }: { id: string }) {
  const [order, setOrder] = useState<PurchaseOrder | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const [receiving, setReceiving] = useState(false);
  const [notice, setNotice] = useState('');
  const [channel, setChannel] = useState<PurchaseOrderChannel>('sms');
  useEffect(() => {
    get<PurchaseOrder>(`/suppliers/purchase-orders/${id}`).then(setOrder, setError);
  }, [id]);
  const send = useSubmit(async (idempotencyKey) => {
    const { data } = await api<PurchaseOrder>('POST', `/suppliers/purchase-orders/${id}/send`, { idempotencyKey, body: { channel } });
    setOrder(data);
    setNotice(t(data.sent_via === 'email' ? 'sent.email' : 'sent.sms', { to: data.sent_to ?? '' }));
  });
  const cancel = useSubmit(async () => {
    const { data } = await api<PurchaseOrder>('POST', `/suppliers/purchase-orders/${id}/cancel`);
    setOrder(data);
    setNotice(t('cancelled'));
  });
  const back = html`<a href=${href('suppliers/orders')} onClick=${(e: MouseEvent) => follow(e, 'suppliers/orders')}>← ${t('title')}</a>`;
  if (!order) return html`<section>${back}<${ErrorBanner} error=${error} />${error ? null : html`<p>${core('loading')}</p>`}</section>`;
  const open = OPEN.includes(order.status);
  const received = (next: PurchaseOrder) => {
    setOrder(next);
    setReceiving(false);
    setNotice(t(next.status === 'received' ? 'received.all' : 'received.part'));
  };
  return html`<section data-testid="order-page">
    ${back}
    <header class="screen-head">
      <h1 data-testid="order-reference">${order.reference}</h1>
      <${StatusPill} status=${order.status} />
    </header>
    <p>
      <a href=${href(`suppliers/${order.supplier_id}`)} onClick=${(e: MouseEvent) => follow(e, `suppliers/${order.supplier_id}`)}>${order.supplier_name}</a>
      ${` · ${t('created')} ${when(order.created_at)}`}
      ${order.sent_at ? html` · <span data-testid="order-sent">${t(order.sent_via === 'email' ? 'sent.email' : 'sent.sms', { to: order.sent_to ?? '' })} ${when(order.sent_at)}</span>` : null}
      ${order.cancelled_at ? html` · ${t('status.cancelled')} ${when(order.cancelled_at)}` : null}
    </p>
    ${order.note ? html`<p class="muted">${order.note}</p>` : null}
    ${notice ? html`<div class="banner ok" role="status" data-testid="order-notice">${notice}</div>` : null}
    <${ErrorBanner} error=${send.error ?? cancel.error} />
    <div class="actions">
      ${
        order.status === 'draft' && may('POST /suppliers/purchase-orders/{id}/send')
          ? html`<form class="send" onSubmit=${send.submit}>
              <label class="field"><span>${t('send.by')}</span>
                <select data-testid="order-send-channel" value=${channel} onChange=${(e: Event) => setChannel((e.currentTarget as HTMLSelectElement).value as PurchaseOrderChannel)}>
                  <option value="sms">${t('channel.sms')}</option>
                  <option value="email">${t('channel.email')}</option>
                </select>
              </label>
              <button class="primary" type="submit" disabled=${send.busy} data-testid="order-send">${t('send')}</button>
            </form>`
          : null
      }
      ${open && may('POST /suppliers/purchase-orders/{id}/receive') ? html`<button data-testid="order-receive" aria-expanded=${receiving} onClick=${() => setReceiving(!receiving)}>${t('receive')}</button>` : null}
      ${
        open && may('POST /suppliers/purchase-orders/{id}/cancel')
          ? html`<${Confirm} label=${t('cancel')} confirm=${t('cancel.confirm')} body=${t('cancel.body')} testid="order-cancel" danger busy=${cancel.busy} onConfirm=${() => cancel.submit()} />`
          : null
      }
    </div>
    ${receiving ? html`<${ReceiveForm} order=${order} onDone=${received} onCancel=${() => setReceiving(false)} />` : null}
    <${List}
      testid="order-lines"
      rows=${order.lines}
      rowId=${(l: Line) => l.product_id}
      columns=${[
        { label: t('product'), cell: (l: Line) => l.product_name },
        { label: t('as_ordered'), cell: asOrdered },
        { label: t('cost.each'), num: true, cell: (l: Line) => tsh(l.unit_cost) },
        { label: t('ordered'), num: true, cell: (l: Line) => `${num(l.ordered)} ${l.unit}` },
        { label: t('received'), num: true, cell: (l: Line) => html`<span data-testid="line-received">${num(l.received)}</span>` },
        { label: t('owed'), num: true, cell: (l: Line) => html`<span data-testid="line-owed">${num(l.owed)}</span>` },
      ]}
    />
    <p class="total">${t('total')}: <strong data-testid="order-total">${tsh(order.total_value)}</strong>
      ${order.delivery_ids.length ? html` · ${t('deliveries', { n: order.delivery_ids.length })}` : null}</p>
  </section>`;
}
