/**
 * A delivery received (POST /suppliers/deliveries, status delivered: the stock goes up in the same
 * transaction): the supplier, then lines of product, quantity and unit cost; the supplier and each
 * product chosen with a picker that searches the whole catalogue (ui/picker.ts). One
 * Idempotency-Key per submission, kept until it succeeds, so a retry after a lost answer records it once.
 */
import type { Product, Supplier } from '@duka/shared';
import { useEffect, useState } from 'preact/hooks';
import { api, get } from '../../api.js';
import { t as core } from '../../i18n/core.js';
import { ErrorBanner, Field, useSubmit } from '../../ui/form.js';
import { html } from '../../ui/html.js';
import { PRODUCTS, Picker, SUPPLIERS } from '../../ui/picker.js';
import { navigate } from '../../ui/router.js';
import { t } from './messages.js';

interface Line {
  key: string;
  product: Product | null;
  qty: string;
  unit_cost: string;
}
let made = 0;
/** A new line; its key keeps each line's picker its own when a line above is removed. */
const blank = (): Line => ({ key: String(++made), product: null, qty: '', unit_cost: '' });

export function ReceiveDelivery() {
  const [supplier, setSupplier] = useState<Supplier | null>(null);
  const [invoice, setInvoice] = useState('');
  const [lines, setLines] = useState<Line[]>([blank()]);
  useEffect(() => {
    // Opened from a supplier's page: that supplier, already chosen.
    const id = new URLSearchParams(location.search).get('supplier');
    if (id) get<Supplier>(`/suppliers/${id}`).then(setSupplier, () => {});
  }, []);
  const change = (i: number, line: Partial<Line>) => setLines((ls) => ls.map((l, j) => (j === i ? { ...l, ...line } : l)));
  // A product chosen brings its cost price as the line's unit cost, which the owner may change.
  const pick = (i: number, product: Product | null) =>
    setLines((ls) =>
      ls.map((l, j) =>
        j !== i
          ? l
          : { ...l, product, unit_cost: product && !l.unit_cost && product.cost_price != null ? String(product.cost_price) : l.unit_cost },
      ),
    );
  const form = useSubmit(async (idempotencyKey) => {
    await api('POST', '/suppliers/deliveries', {
      idempotencyKey,
      body: {
        supplier_id: supplier?.id ?? '',
        invoice_number: invoice.trim() || null,
        status: 'delivered',
        lines: lines.map((l) => ({ product_id: l.product?.id ?? '', qty: Number(l.qty), unit_cost: Number(l.unit_cost) })),
      },
    });
    navigate(`suppliers/${supplier?.id}`);
  });
  return html`<form class="card stack wide" onSubmit=${form.submit} data-testid="delivery-form">
    <h1>${t('receive')}</h1>
    <${ErrorBanner} error=${form.error} />
    <div class="two">
      <${Picker} source=${SUPPLIERS} value=${supplier} onPick=${setSupplier} label=${t('supplier')} name="supplier_id" error=${form.error} testid="delivery-supplier" required />
      <${Field} label=${t('invoice')} name="invoice_number" error=${form.error}>
        <input data-testid="delivery-invoice" value=${invoice} onInput=${(e: Event) => setInvoice((e.currentTarget as HTMLInputElement).value)} />
      <//>
    </div>
    ${lines.map(
      (l, i) => html`<fieldset class="line" key=${l.key} data-testid="delivery-line">
        <${Picker} source=${PRODUCTS} value=${l.product} onPick=${(p: Product | null) => pick(i, p)} label=${t('product')}
          name=${`lines.${i}.product_id`} error=${form.error} testid=${`line-${i}-product`} required />
        <${Field} label=${t('qty')} name=${`lines.${i}.qty`} error=${form.error}>
          <input required type="number" step="any" min="0" inputmode="decimal" data-testid=${`line-${i}-qty`} value=${l.qty} onInput=${(e: Event) => change(i, { qty: (e.currentTarget as HTMLInputElement).value })} />
        <//>
        <${Field} label=${t('cost')} name=${`lines.${i}.unit_cost`} error=${form.error}>
          <input required type="number" step="any" min="0" inputmode="decimal" data-testid=${`line-${i}-cost`} value=${l.unit_cost} onInput=${(e: Event) => change(i, { unit_cost: (e.currentTarget as HTMLInputElement).value })} />
        <//>
        ${lines.length > 1 ? html`<button type="button" class="link" onClick=${() => setLines((ls) => ls.filter((_, j) => j !== i))}>${t('line.remove')}</button>` : null}
      </fieldset>`,
    )}
    <div class="actions">
      <button type="button" data-testid="line-add" onClick=${() => setLines((ls) => [...ls, blank()])}>${t('line.add')}</button>
      <button class="primary" type="submit" disabled=${form.busy} data-testid="delivery-save">${core('save')}</button>
    </div>
  </form>`;
}
