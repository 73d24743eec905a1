/**
 * A transfer from the active store to another (POST /inventory/transfers): the store, lines of
 * product and quantity, a note. Refused whole by the server when a line would go below zero (the
 * line highlighted); each product chosen with a picker that searches the whole catalogue
 * (ui/picker.ts). One Idempotency-Key per submission.
 */
import type { Product } from '@duka/shared';
import { useState } from 'preact/hooks';
import { profile } from '../../access.js';
import { api } from '../../api.js';
import { ErrorBanner, Field, useSubmit } from '../../ui/form.js';
import { html } from '../../ui/html.js';
import { PRODUCTS, Picker } from '../../ui/picker.js';
import { navigate } from '../../ui/router.js';
import { t } from './messages.js';

interface Line {
  key: string;
  product: Product | null;
  qty: string;
}
let made = 0;
/** A new line; its key keeps each line's picker its own when a line above is removed. */
const blank = (): Line => ({ key: String(++made), product: null, qty: '' });

export function TransferForm() {
  const me = profile.value;
  const stores = (me?.stores ?? []).filter((s) => s.id !== me?.store?.id);
  const [to, setTo] = useState('');
  const [note, setNote] = useState('');
  const [lines, setLines] = useState<Line[]>([blank()]);
  const change = (i: number, line: Partial<Line>) => setLines((ls) => ls.map((l, j) => (j === i ? { ...l, ...line } : l)));
  const form = useSubmit(async (idempotencyKey) => {
    await api('POST', '/inventory/transfers', {
      idempotencyKey,
      body: {
        to_store_id: to,
        lines: lines.map((l) => ({ product_id: l.product?.id ?? '', qty: Number(l.qty) })),
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
      (l, i) => html`<fieldset class="line" key=${l.key}>
        <${Picker} source=${PRODUCTS} value=${l.product} onPick=${(product: Product | null) => change(i, { product })} label=${t('product')}
          name=${`lines.${i}.product_id`} error=${form.error} testid=${`transfer-${i}-product`} required />
        <${Field} label=${t('qty')} name=${`lines.${i}.qty`} error=${form.error}>
          <input required type="number" step="any" min="0" inputmode="decimal" data-testid=${`transfer-${i}-qty`} value=${l.qty} onInput=${(e: Event) => change(i, { qty: (e.currentTarget as HTMLInputElement).value })} />
        <//>
        ${lines.length > 1 ? html`<button type="button" class="link" onClick=${() => setLines((ls) => ls.filter((_, j) => j !== i))}>${t('line.remove')}</button>` : null}
      </fieldset>`,
    )}
    <${Field} label=${t('note')} name="note" error=${form.error}>
      <input data-testid="transfer-note" value=${note} onInput=${(e: Event) => setNote((e.currentTarget as HTMLInputElement).value)} />
    <//>
    <div class="actions">
      <button type="button" onClick=${() => setLines((ls) => [...ls, blank()])}>${t('line.add')}</button>
      <button class="primary" type="submit" disabled=${form.busy} data-testid="transfer-send">${t('send')}</button>
    </div>
  </form>`;
}
