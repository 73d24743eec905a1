/**
 * What came against an order (POST /suppliers/purchase-orders/{id}/receive): each line still owed,
 * its quantity as ordered (whole packs for a pack line) filled with what is owed, to lower for a
 * part delivery (0 or empty: not in this delivery), an invoice number, whether the costs become the
 * products' cost prices. It is one delivery like any other: stock in, the supplier's balance up.
 * More than owed is refused (409) with the line marked; one Idempotency-Key per submission.
 */
import type { PurchaseOrder } from '@duka/shared';
import { useState } from 'preact/hooks';
import { api } from '../../api.js';
import { t as core } from '../../i18n/core.js';
import { num } from '../../i18n/lang.js';
import { ErrorBanner, Field, useSubmit } from '../../ui/form.js';
import { html } from '../../ui/html.js';
import { t } from './orders-messages.js';

type Line = PurchaseOrder['lines'][number];

/** What a line still owes, counted as it was ordered: whole packs of its pack, or the product's unit. */
const owedAsOrdered = (l: Line) => (l.pack ? Math.floor(l.owed / l.pack.units + 1e-9) : l.owed);

export function ReceiveForm({ order, onDone, onCancel }: { order: PurchaseOrder; onDone: (o: PurchaseOrder) => void; onCancel: () => void }) {
  const owing = order.lines.filter((l) => l.owed > 0);
  const [qty, setQty] = useState<Record<string, string>>(() => Object.fromEntries(owing.map((l) => [l.product_id, String(owedAsOrdered(l))])));
  const [invoice, setInvoice] = useState('');
  const [updateCost, setUpdateCost] = useState(true);
  // The lines as last sent, so the server's `lines.N.…` errors land on the right row.
  const [posted, setPosted] = useState<string[]>([]);
  const form = useSubmit(async (idempotencyKey) => {
    const lines = owing.filter((l) => Number(qty[l.product_id]) > 0).map((l) => ({ product_id: l.product_id, qty: Number(qty[l.product_id]) }));
    setPosted(lines.map((l) => l.product_id));
    const { data } = await api<PurchaseOrder>('POST', `/suppliers/purchase-orders/${order.id}/receive`, {
      idempotencyKey,
      body: { lines, update_cost: updateCost, ...(invoice.trim() ? { invoice_number: invoice.trim() } : {}) },
    });
    onDone(data);
  });
  const field = (id: string) => `lines.${posted.indexOf(id)}.qty`;
  return html`<form class="card stack wide" onSubmit=${form.submit} data-testid="receive-form">
    <h2>${t('receive')}</h2>
    <p class="muted">${t('receive.how')}</p>
    <${ErrorBanner} error=${form.error} />
    ${owing.map(
      (l) => html`<${Field} label=${`${l.product_name}: ${t('receive.owed', { owed: num(l.owed), unit: l.unit })}`} name=${field(l.product_id)} error=${form.error}>
        <span class="with-unit">
          <input type="number" step="any" min="0" inputmode="decimal" data-testid=${`receive-${l.product_id}`} value=${qty[l.product_id]}
            onInput=${(e: Event) => setQty((q) => ({ ...q, [l.product_id]: (e.currentTarget as HTMLInputElement).value }))} />
          <span>${l.pack ? `${l.pack.name} (${num(l.pack.units)} ${l.unit})` : l.unit}</span>
        </span>
      <//>`,
    )}
    <${Field} label=${t('invoice')} name="invoice_number" error=${form.error}>
      <input data-testid="receive-invoice" maxlength="100" value=${invoice} onInput=${(e: Event) => setInvoice((e.currentTarget as HTMLInputElement).value)} />
    <//>
    <label class="check"><input type="checkbox" data-testid="receive-update-cost" checked=${updateCost} onChange=${(e: Event) => setUpdateCost((e.currentTarget as HTMLInputElement).checked)} /> ${t('update_cost')}</label>
    <div class="actions">
      <button class="primary" type="submit" disabled=${form.busy} data-testid="receive-save">${t('receive.save')}</button>
      <button type="button" onClick=${onCancel}>${core('cancel')}</button>
    </div>
  </form>`;
}
