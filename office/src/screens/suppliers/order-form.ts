/**
 * A purchase order drafted by hand (POST /suppliers/purchase-orders): the supplier, then lines of a
 * product, both chosen with the pickers that search them all (ui/picker.ts), in its unit or in one of its packs, the quantity and the expected cost
 * (the product's cost price filled in, × a pack's contents for a pack). The input stays on failure,
 * each field the server names marked; one Idempotency-Key per submission, so a retry drafts once.
 */
import type { Product, PurchaseOrder, Supplier } from '@duka/shared';
import { useEffect, useState } from 'preact/hooks';
import { ApiError, api, get } from '../../api.js';
import { t as core } from '../../i18n/core.js';
import { ErrorBanner, Field, useSubmit } from '../../ui/form.js';
import { html } from '../../ui/html.js';
import { PRODUCTS, Picker, SUPPLIERS } from '../../ui/picker.js';
import { navigate } from '../../ui/router.js';
import { t } from './orders-messages.js';

interface Line {
  key: number;
  product: Product | null;
  pack_id: string;
  qty: string;
  unit_cost: string;
}
let lineKeys = 0;
const blank = (): Line => ({ key: ++lineKeys, product: null, pack_id: '', qty: '', unit_cost: '' });

/** The expected cost of one unit, or of one pack: the product's cost price × the pack's contents. */
function costOf(p: Product, packId: string): string {
  const pack = p.packs.find((k) => k.id === packId);
  return String(Math.round(p.cost_price * (pack ? pack.units : 1)));
}

export function OrderForm({ supplierId }: { supplierId?: string }) {
  const [supplier, setSupplier] = useState<Supplier | null>(null);
  const [note, setNote] = useState('');
  const [lines, setLines] = useState<Line[]>([blank()]);
  useEffect(() => {
    // Opened from a supplier's page: that supplier, already chosen.
    if (supplierId) get<Supplier>(`/suppliers/${supplierId}`).then(setSupplier, () => {});
  }, [supplierId]);
  const change = (i: number, patch: Partial<Line>) => setLines((ls) => ls.map((l, j) => (j === i ? { ...l, ...patch } : l)));
  const pick = (i: number) => (p: Product | null) => change(i, { product: p, pack_id: '', unit_cost: p ? costOf(p, '') : '' });
  const form = useSubmit(async (idempotencyKey) => {
    // A line without a product is named here, in the owner's words, rather than as the server's "Invalid UUID".
    const unpicked = lines.flatMap((l, i) =>
      l.product ? [] : [{ code: 'VALIDATION_ERROR' as const, field: `lines.${i}.product_id`, message: t('pick.none') }],
    );
    if (unpicked.length) throw new ApiError(400, t('pick.none'), 'VALIDATION_ERROR', unpicked);
    const { data } = await api<PurchaseOrder>('POST', '/suppliers/purchase-orders', {
      idempotencyKey,
      body: {
        supplier_id: supplier?.id ?? '',
        ...(note.trim() ? { note: note.trim() } : {}),
        lines: lines.map((l) => ({
          product_id: l.product?.id ?? '',
          ...(l.pack_id ? { pack_id: l.pack_id } : {}),
          qty: Number(l.qty),
          unit_cost: Number(l.unit_cost),
        })),
      },
    });
    navigate(`suppliers/orders/${data.id}`);
  });
  const value = (e: Event) => (e.currentTarget as HTMLInputElement).value;
  return html`<form class="card stack wide" onSubmit=${form.submit} data-testid="order-form">
    <h1>${t('new')}</h1>
    <${ErrorBanner} error=${form.error} />
    <div class="two">
      <${Picker} source=${SUPPLIERS} value=${supplier} onPick=${setSupplier} label=${t('supplier')} name="supplier_id" error=${form.error} testid="order-supplier" required />
      <${Field} label=${t('note')} name="note" error=${form.error}>
        <input data-testid="order-note" maxlength="500" value=${note} onInput=${(e: Event) => setNote(value(e))} />
      <//>
    </div>
    ${lines.map(
      (l, i) => html`<fieldset key=${l.key} class="line order-line" data-testid="order-line">
        <${Picker} source=${PRODUCTS} value=${l.product} onPick=${pick(i)} label=${t('product')}
          name=${`lines.${i}.product_id`} error=${form.error} testid=${`order-${i}-product`} required />
        ${
          l.product?.packs.length
            ? html`<${Field} label=${t('in')} name=${`lines.${i}.pack_id`} error=${form.error}>
                <select data-testid=${`order-${i}-pack`} value=${l.pack_id}
                  onChange=${(e: Event) => change(i, { pack_id: value(e), unit_cost: costOf(l.product!, value(e)) })}>
                  <option value="">${l.product.unit}</option>
                  ${l.product.packs.map((k) => html`<option value=${k.id}>${k.name} (${k.units} ${l.product!.unit})</option>`)}
                </select>
              <//>`
            : null
        }
        <${Field} label=${t('qty')} name=${`lines.${i}.qty`} error=${form.error}>
          <input required type="number" step="any" min="0" inputmode="decimal" data-testid=${`order-${i}-qty`} value=${l.qty} onInput=${(e: Event) => change(i, { qty: value(e) })} />
        <//>
        <${Field} label=${l.pack_id ? t('cost.pack') : t('cost')} name=${`lines.${i}.unit_cost`} error=${form.error}>
          <input required type="number" step="any" min="0" inputmode="decimal" data-testid=${`order-${i}-cost`} value=${l.unit_cost} onInput=${(e: Event) => change(i, { unit_cost: value(e) })} />
        <//>
        ${lines.length > 1 ? html`<button type="button" class="link" onClick=${() => setLines((ls) => ls.filter((_, j) => j !== i))}>${t('line.remove')}</button>` : null}
      </fieldset>`,
    )}
    <div class="actions">
      <button type="button" data-testid="order-line-add" onClick=${() => setLines((ls) => [...ls, blank()])}>${t('line.add')}</button>
      <button class="primary" type="submit" disabled=${form.busy} data-testid="order-save">${t('save')}</button>
      <button type="button" onClick=${() => history.back()}>${core('cancel')}</button>
    </div>
  </form>`;
}
