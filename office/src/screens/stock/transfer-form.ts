/**
 * A transfer from the active store to another (POST /inventory/transfers): the store, lines of
 * product and quantity, a note. Refused whole by the server when a line would go below zero (the
 * line highlighted); one Idempotency-Key per submission.
 */
import type { Product } from '@duka/shared';
import { useEffect, useState } from 'preact/hooks';
import { profile } from '../../access.js';
import { api, get } from '../../api.js';
import { ErrorBanner, Field, useSubmit } from '../../ui/form.js';
import { html } from '../../ui/html.js';
import { navigate } from '../../ui/router.js';
import { t } from './messages.js';

interface Line {
  product_id: string;
  qty: string;
}

export function TransferForm() {
  const me = profile.value;
  const stores = (me?.stores ?? []).filter((s) => s.id !== me?.store?.id);
  const [products, setProducts] = useState<Product[]>([]);
  const [to, setTo] = useState('');
  const [note, setNote] = useState('');
  const [lines, setLines] = useState<Line[]>([{ product_id: '', qty: '' }]);
  useEffect(() => {
    get<Product[]>('/inventory/products', { page_size: 100, status: 'active' }).then(setProducts, () => {});
  }, []);
  const change = (i: number, name: keyof Line, value: string) =>
    setLines((ls) => ls.map((l, j) => (j === i ? { ...l, [name]: value } : l)));
  const form = useSubmit(async (idempotencyKey) => {
    await api('POST', '/inventory/transfers', {
      idempotencyKey,
      body: {
        to_store_id: to,
        lines: lines.map((l) => ({ product_id: l.product_id, qty: Number(l.qty) })),
        ...(note.trim() ? { note: note.trim() } : {}),
      },
    });
    navigate('stock');
  });
  if (!stores.length) return html`<p class="muted" data-testid="transfer-one-store">${t('one_store')}</p>`;
  return html`<form class="card stack wide" onSubmit=${form.submit} data-testid="transfer-form">
    <h1>${t('new')}</h1>
    <${ErrorBanner} error=${form.error} />
    <div class="two">
      <${Field} label=${t('from')} name="from"><input disabled value=${me?.store?.name ?? ''} /><//>
      <${Field} label=${t('to')} name="to_store_id" error=${form.error}>
        <select required data-testid="transfer-to" value=${to} onChange=${(e: Event) => setTo((e.currentTarget as HTMLSelectElement).value)}>
          <option value="">${t('pick')}</option>
          ${stores.map((s) => html`<option value=${s.id}>${s.name}</option>`)}
        </select>
      <//>
    </div>
    ${lines.map(
      (l, i) => html`<fieldset class="line">
        <${Field} label=${t('product')} name=${`lines.${i}.product_id`} error=${form.error}>
          <select required data-testid=${`transfer-${i}-product`} value=${l.product_id} onChange=${(e: Event) => change(i, 'product_id', (e.currentTarget as HTMLSelectElement).value)}>
            <option value="">${t('pick')}</option>
            ${products.map((p) => html`<option value=${p.id}>${p.name} (${p.stock})</option>`)}
          </select>
        <//>
        <${Field} label=${t('qty')} name=${`lines.${i}.qty`} error=${form.error}>
          <input required type="number" step="any" min="0" inputmode="decimal" data-testid=${`transfer-${i}-qty`} value=${l.qty} onInput=${(e: Event) => change(i, 'qty', (e.currentTarget as HTMLInputElement).value)} />
        <//>
        ${lines.length > 1 ? html`<button type="button" class="link" onClick=${() => setLines((ls) => ls.filter((_, j) => j !== i))}>${t('line.remove')}</button>` : null}
      </fieldset>`,
    )}
    <${Field} label=${t('note')} name="note" error=${form.error}>
      <input data-testid="transfer-note" value=${note} onInput=${(e: Event) => setNote((e.currentTarget as HTMLInputElement).value)} />
    <//>
    <div class="actions">
      <button type="button" onClick=${() => setLines((ls) => [...ls, { product_id: '', qty: '' }])}>${t('line.add')}</button>
      <button class="primary" type="submit" disabled=${form.busy} data-testid="transfer-send">${t('send')}</button>
    </div>
  </form>`;
}
