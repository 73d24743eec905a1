/**
 * A delivery received (POST /suppliers/deliveries, status delivered: the stock goes up in the same
 * transaction): the supplier, then lines of product, quantity and unit cost. One Idempotency-Key
 * per submission, kept until it succeeds, so a retry after a lost answer records it once.
 */
import type { Product, Supplier } from '@duka/shared';
import { useEffect, useState } from 'preact/hooks';
import { api, get } from '../../api.js';
import { t as core } from '../../i18n/core.js';
import { ErrorBanner, Field, useSubmit } from '../../ui/form.js';
import { html } from '../../ui/html.js';
import { navigate } from '../../ui/router.js';
import { t } from './messages.js';

interface Line {
  product_id: string;
  qty: string;
  unit_cost: string;
}
const blank = (): Line => ({ product_id: '', qty: '', unit_cost: '' });

export function ReceiveDelivery() {
  const [suppliers, setSuppliers] = useState<Supplier[]>([]);
  const [products, setProducts] = useState<Product[]>([]);
  const [supplier, setSupplier] = useState(new URLSearchParams(location.search).get('supplier') ?? '');
  const [invoice, setInvoice] = useState('');
  const [lines, setLines] = useState<Line[]>([blank()]);
  useEffect(() => {
    get<Supplier[]>('/suppliers', { page_size: 100, status: 'active' }).then(setSuppliers, () => {});
    get<Product[]>('/inventory/products', { page_size: 100, status: 'active' }).then(setProducts, () => {});
  }, []);
  const change = (i: number, name: keyof Line, value: string) =>
    setLines((ls) =>
      ls.map((l, j) => {
        if (j !== i) return l;
        const next = { ...l, [name]: value };
        // A product chosen brings its cost price as the line's unit cost, which the owner may change.
        const p = name === 'product_id' ? products.find((x) => x.id === value) : undefined;
        return p && !l.unit_cost && p.cost_price != null ? { ...next, unit_cost: String(p.cost_price) } : next;
      }),
    );
  const form = useSubmit(async (idempotencyKey) => {
    await api('POST', '/suppliers/deliveries', {
      idempotencyKey,
      body: {
        supplier_id: supplier,
        invoice_number: invoice.trim() || null,
        status: 'delivered',
        lines: lines.map((l) => ({ product_id: l.product_id, qty: Number(l.qty), unit_cost: Number(l.unit_cost) })),
      },
    });
    navigate(`suppliers/${supplier}`);
  });
  return html`<form class="card stack wide" onSubmit=${form.submit} data-testid="delivery-form">
    <h1>${t('receive')}</h1>
    <${ErrorBanner} error=${form.error} />
    <div class="two">
      <${Field} label=${t('supplier')} name="supplier_id" error=${form.error}>
        <select required data-testid="delivery-supplier" value=${supplier} onChange=${(e: Event) => setSupplier((e.currentTarget as HTMLSelectElement).value)}>
          <option value="">${t('pick')}</option>
          ${suppliers.map((s) => html`<option value=${s.id}>${s.name}</option>`)}
        </select>
      <//>
      <${Field} label=${t('invoice')} name="invoice_number" error=${form.error}>
        <input data-testid="delivery-invoice" value=${invoice} onInput=${(e: Event) => setInvoice((e.currentTarget as HTMLInputElement).value)} />
      <//>
    </div>
    ${lines.map(
      (l, i) => html`<fieldset class="line" data-testid="delivery-line">
        <${Field} label=${t('product')} name=${`lines.${i}.product_id`} error=${form.error}>
          <select required data-testid=${`line-${i}-product`} value=${l.product_id} onChange=${(e: Event) => change(i, 'product_id', (e.currentTarget as HTMLSelectElement).value)}>
            <option value="">${t('pick')}</option>
            ${products.map((p) => html`<option value=${p.id}>${p.name}</option>`)}
          </select>
        <//>
        <${Field} label=${t('qty')} name=${`lines.${i}.qty`} error=${form.error}>
          <input required type="number" step="any" min="0" inputmode="decimal" data-testid=${`line-${i}-qty`} value=${l.qty} onInput=${(e: Event) => change(i, 'qty', (e.currentTarget as HTMLInputElement).value)} />
        <//>
        <${Field} label=${t('cost')} name=${`lines.${i}.unit_cost`} error=${form.error}>
          <input required type="number" step="any" min="0" inputmode="decimal" data-testid=${`line-${i}-cost`} value=${l.unit_cost} onInput=${(e: Event) => change(i, 'unit_cost', (e.currentTarget as HTMLInputElement).value)} />
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
