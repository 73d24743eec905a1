/**
 * How much of a product sold by a measure (issue 51): a tap or a scan of its own barcode asks, in a
 * small dialog with a decimal field (`inputmode="decimal"`: the phone's number pad with its point),
 * the quantity in its unit; Enter adds it, Escape cancels. A scale label needs no asking: the label
 * says how much.
 */
import { type Product, quantityText } from '@duka/shared';
import { useEffect, useRef, useState } from 'preact/hooks';
import { typedQty } from '../cart.js';
import { t } from '../i18n.js';
import { html } from './html.js';

interface Props {
  product: Product;
  onAdd: (qty: number) => void;
  onCancel: () => void;
}

export function AskQuantity({ product, onAdd, onCancel }: Props) {
  const [typed, setTyped] = useState('');
  const [wrong, setWrong] = useState(false);
  const field = useRef<HTMLInputElement>(null);
  useEffect(() => field.current?.focus(), []);
  const unit = product.unit ?? 'piece';
  const qty = typedQty(typed, product);
  const submit = (e: Event) => {
    e.preventDefault();
    if (qty === null) return setWrong(true);
    onAdd(qty);
  };
  return html`
    <div class="overlay" role="dialog" aria-modal="true" data-testid="ask-quantity">
      <form class="sheet ask-quantity" onSubmit=${submit} onKeyDown=${(e: KeyboardEvent) => e.key === 'Escape' && onCancel()}>
        <h3>${t('units.ask_title', { name: product.name })}</h3>
        <label>
          <input ref=${field} data-testid="ask-quantity-input" inputmode="decimal" autocomplete="off" value=${typed}
            aria-label=${t('units.ask_hint', { unit })} placeholder="0.5"
            onInput=${(e: any) => (setTyped(e.currentTarget.value), setWrong(false))} />
          <span class="unit">${unit}</span>
        </label>
        <p class="hint">${t('units.ask_hint', { unit })}</p>
        ${wrong ? html`<p class="error" role="alert" data-testid="ask-quantity-wrong">${t('units.ask_wrong', { unit })}</p>` : null}
        <div class="actions">
          <button type="button" onClick=${onCancel}>${t('units.cancel')}</button>
          <button type="submit" class="primary" data-testid="ask-quantity-add" disabled=${qty === null}>
            ${t('units.ask_add', { qty: qty === null ? unit : quantityText(qty, unit) })}
          </button>
        </div>
      </form>
    </div>
  `;
}
