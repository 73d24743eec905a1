/**
 * Typing a count (issue 52): a row of the counting screen (a product of the stock-take, what this
 * till counted of it, a field to add a typed quantity) and the dialog a measured product's own
 * barcode opens (how many kg are on the shelf). Both take the product's unit: whole pieces, up to 3
 * decimals for a measured product, 0 for an empty shelf (stock-count.ts `countQty`).
 */
import { type Product, quantityText, type Unit } from '@duka/shared';
import { useEffect, useRef, useState } from 'preact/hooks';
import { t } from '../i18n.js';
import { type CountRow, countQty } from '../stock-count.js';
import { html } from './html.js';

/** The typed text, its quantity (null when it is not one), and whether the cashier was told so. */
function useTyped(unit: Unit) {
  const [typed, setTyped] = useState('');
  const [wrong, setWrong] = useState(false);
  const qty = countQty(typed, unit);
  const fault = wrong
    ? html`<span class="error" role="alert" data-testid="count-wrong">${t(unit === 'piece' ? 'count.wrong_whole' : 'count.wrong_decimal')}</span>`
    : null;
  const input = (e: any) => (setTyped(e.currentTarget.value), setWrong(false));
  /** The quantity to count, or null (and the fault shown). */
  const take = (): number | null => {
    if (qty === null) setWrong(true);
    else setTyped('');
    return qty;
  };
  return { typed, qty, fault, input, take };
}

export function CountRowItem({ row, onCount }: { row: CountRow; onCount: (qty: number) => void }) {
  const typed = useTyped(row.unit);
  const submit = (e: Event) => {
    e.preventDefault();
    const qty = typed.take();
    if (qty !== null) onCount(qty);
  };
  return html`
    <li data-testid="count-row" data-product-id=${row.id} data-here=${row.here ?? ''}>
      <span class="name">${row.name}</span>
      <span class="hint" data-testid="count-here">${row.here === null ? t('count.not_yet') : t('count.here', { qty: quantityText(row.here, row.unit) })}</span>
      <form class="reason" onSubmit=${submit}>
        <input data-testid="count-qty" inputmode=${row.decimals ? 'decimal' : 'numeric'} autocomplete="off" placeholder="0"
          aria-label=${t('count.qty', { name: row.name })} value=${typed.typed} onInput=${typed.input} />
        <button type="submit" data-testid="count-add">${t('count.add')}</button>
        ${typed.fault}
      </form>
    </li>
  `;
}

export function CountAsk({ product, onCount, onCancel }: { product: Product; onCount: (qty: number) => void; onCancel: () => void }) {
  const unit = product.unit ?? 'piece';
  const typed = useTyped(unit);
  const field = useRef<HTMLInputElement>(null);
  useEffect(() => field.current?.focus(), []);
  const submit = (e: Event) => {
    e.preventDefault();
    const qty = typed.take();
    if (qty !== null) onCount(qty);
  };
  return html`
    <div class="overlay" role="dialog" aria-modal="true" data-testid="count-ask">
      <form class="sheet ask-quantity" onSubmit=${submit} onKeyDown=${(e: KeyboardEvent) => e.key === 'Escape' && onCancel()}>
        <h3>${t('count.ask_title', { name: product.name })}</h3>
        <label>
          <input ref=${field} data-testid="count-ask-input" inputmode="decimal" autocomplete="off" value=${typed.typed}
            aria-label=${t('count.ask_hint', { unit })} placeholder="2.375" onInput=${typed.input} />
          <span class="unit">${unit}</span>
        </label>
        <p class="hint">${t('count.ask_hint', { unit })}</p>
        ${typed.fault}
        <div class="actions">
          <button type="button" onClick=${onCancel}>${t('units.cancel')}</button>
          <button type="submit" class="primary" data-testid="count-ask-add">${t('count.add')}</button>
        </div>
      </form>
    </div>
  `;
}
