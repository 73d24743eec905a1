/**
 * What came against an order (POST /suppliers/purchase-orders/{id}/receive): each line still owed,
 * its quantity as ordered (whole packs for a pack line) filled with what is owed, to lower for a
 * part delivery (0 or empty: not in this delivery), an invoice number, whether the costs become the
 * products' cost prices; a batch-tracked line's lot and expiry once the server asks for them. It is
 * one delivery like any other: stock in, the supplier's balance up.
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
interface Lot {
  lot_number: string;
  expiry_date: string;
}
const lotOf = (lot: Lot | undefined) => ({
  ...(lot?.lot_number.trim() ? { lot_number: lot.lot_number.trim() } : {}),
  ...(lot?.expiry_date ? { expiry_date: lot.expiry_date } : {}),
});

/** What a line still owes, counted as it was ordered: whole packs of its pack, or the product's unit. */
const owedAsOrdered = (l: Line) => (l.pack ? Math.floor(l.owed / l.pack.units + 1e-9) : l.owed);

export function ReceiveForm({
  order,
  onDone,
  onCancel,
}: {
  order: PurchaseOrder;
  onDone: (o: PurchaseOrder) => void;
  onCancel: () => void;
}) {
  const owing = order.lines.filter((l) => l.owed > 0);
  const [qty, setQty] = useState<Record<string, string>>(() =>
    Object.fromEntries(owing.map((l) => [l.product_id, String(owedAsOrdered(l))])),
  );
  const [invoice, setInvoice] = useState('');
  const [updateCost, setUpdateCost] = useState(true);
  // The lines as last sent, so the server's `lines.N.…` errors land on the right row.
  const [posted, setPosted] = useState<string[]>([]);
  // A batch-tracked product's lot and expiry: asked for once the server says the line needs them.
  const [lots, setLots] = useState<Record<string, Lot>>({});
  const form = useSubmit(async (idempotencyKey) => {
    const lines = owing
      .filter((l) => Number(qty[l.product_id]) > 0)
      .map((l) => ({ product_id: l.product_id, qty: Number(qty[l.product_id]), ...lotOf(lots[l.product_id]) }));
    setPosted(lines.map((l) => l.product_id));
    const { data } = await api<PurchaseOrder>('POST', `/suppliers/purchase-orders/${order.id}/receive`, {
      idempotencyKey,
      body: { lines, update_cost: updateCost, ...(invoice.trim() ? { invoice_number: invoice.trim() } : {}) },
    });
    onDone(data);
  });
  const field = (id: string, name = 'qty') => `lines.${posted.indexOf(id)}.${name}`;
  const asksLot = (id: string) =>
    lots[id] !== undefined || !!form.error?.field(field(id, 'lot_number')) || !!form.error?.field(field(id, 'expiry_date'));
  const setLot = (id: string, name: keyof Lot) => (e: Event) =>
    setLots((ls) => ({ ...ls, [id]: { lot_number: '', expiry_date: '', ...ls[id], [name]: (e.currentTarget as HTMLInputElement).value } }));
  return html`<form class="card stack wide" onSubmit=${form.submit} data-testid="receive-form">
    <h2>${t('receive')}</h2>
    <p class="muted">${t('receive.how')}</p>
    <${ErrorBanner} error=${form.error} />
    ${owing.map(
      (
        l,
      ) => html`<${Field} label=${`${l.product_name}: ${t('receive.owed', { owed: num(l.owed), unit: l.unit })}`} name=${field(l.product_id)} error=${form.error}>
        <span class="with-unit">
          <input type="number" step="any" min="0" inputmode="decimal" data-testid=${`receive-${l.product_id}`} value=${qty[l.product_id]}
            onInput=${(e: Event) => setQty((q) => ({ ...q, [l.product_id]: (e.currentTarget as HTMLInputElement).value }))} />
          <span>${l.pack ? `${l.pack.name} (${num(l.pack.units)} ${l.unit})` : l.unit}</span>
        </span>
      <//>
      ${
        asksLot(l.product_id)
          ? html`<div class="two" data-testid=${`receive-lot-${l.product_id}`}>
              <${Field} label=${t('lot')} name=${field(l.product_id, 'lot_number')} error=${form.error}>
                <input maxlength="64" value=${lots[l.product_id]?.lot_number ?? ''} onInput=${setLot(l.product_id, 'lot_number')} />
              <//>
              <${Field} label=${t('expiry')} name=${field(l.product_id, 'expiry_date')} error=${form.error}>
                <input type="date" value=${lots[l.product_id]?.expiry_date ?? ''} onInput=${setLot(l.product_id, 'expiry_date')} />
              <//>
            </div>`
          : null
      }`,
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
