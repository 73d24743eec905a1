/**
 * A product created or edited: the fields the API takes, a barcode typed or scanned, packs, and
 * the medicine fields for a pharmacy. What is typed stays on a failure, with the server's errors
 * by field; a new product's POST keeps one Idempotency-Key until it succeeds. Without the `stock`
 * permission the prices of a product are shown but not changeable, and neither its opening stock nor
 * its deactivation is offered: the server refuses those to such a user (shared/staff/powers.ts).
 */
import type { DosageForm, DrugSchedule, Product } from '@duka/shared';
import { UNITS } from '@duka/shared';
import { useState } from 'preact/hooks';
import { api } from '../../api.js';
import { holds, profile } from '../../access.js';
import { t as core } from '../../i18n/core.js';
import { ErrorBanner, Field } from '../../ui/form.js';
import { html } from '../../ui/html.js';
import { useRecordForm } from '../../ui/record.js';
import { useCategories } from './list.js';
import { t } from './messages.js';
import { type PackRow, PacksEditor, packInputs, packRowsOf } from './packs.js';
import { ScanButton } from './scan.js';

/** The API's enums, listed here so the screen's chunk does not carry zod; `satisfies` keeps them whole. */
const DOSAGE_FORMS = Object.keys({
  tablet: 1,
  capsule: 1,
  syrup: 1,
  suspension: 1,
  injection: 1,
  cream: 1,
  ointment: 1,
  drops: 1,
  inhaler: 1,
  suppository: 1,
  powder: 1,
  other: 1,
} satisfies Record<DosageForm, 1>);
const SCHEDULES = Object.keys({ otc: 1, pom: 1, controlled: 1 } satisfies Record<DrugSchedule, 1>);

const text = (v: string | number | null | undefined) => (v == null ? '' : String(v));

/** A number as typed: blank is `blank`, a number is sent as one, anything else as typed (the server names the field). */
const number = (v: string, blank: null | undefined) => (v.trim() === '' ? blank : Number.isFinite(Number(v)) ? Number(v) : v);

export function ProductForm({ product, onSaved }: { product?: Product; onSaved: (p: Product) => void }) {
  const editing = !!product;
  const categories = useCategories();
  const pharmacy = profile.value?.organisation?.business_type === 'pharmacy' || !!product?.schedule;
  const [packs, setPacks] = useState<PackRow[]>(packRowsOf(product?.packs ?? []));
  const blank = editing ? null : undefined;
  const { values, bind, set, submission } = useRecordForm({
    read: product,
    valuesOf: (p: Product | null) => ({
      name: text(p?.name),
      sku: text(p?.sku),
      barcode: text(p?.barcode),
      category_id: text(p?.category_id),
      selling_price: text(p?.selling_price),
      cost_price: text(p?.cost_price),
      unit: p?.unit ?? 'piece',
      reorder_point: text(p?.reorder_point),
      stock: '',
      is_active: p?.is_active ?? true,
      generic_name: text(p?.generic_name),
      strength: text(p?.strength),
      dosage_form: text(p?.dosage_form),
      schedule: text(p?.schedule),
    }),
    save: async (v, key) => {
      const body = {
        name: v.name,
        sku: v.sku.trim() || blank,
        barcode: v.barcode.trim() || blank,
        category_id: v.category_id || blank,
        selling_price: number(v.selling_price, undefined),
        cost_price: number(v.cost_price, undefined),
        unit: v.unit,
        reorder_point: number(v.reorder_point, undefined),
        ...(editing ? { is_active: v.is_active } : { stock: number(v.stock, undefined) }),
        ...(pharmacy
          ? {
              generic_name: v.generic_name.trim() || blank,
              strength: v.strength.trim() || blank,
              dosage_form: v.dosage_form || blank,
              schedule: v.schedule || blank,
            }
          : {}),
        ...(editing || packs.length ? { packs: packInputs(packs) } : {}),
      };
      const saved = editing
        ? await api<Product>('PATCH', `/inventory/products/${product.id}`, { body })
        : await api<Product>('POST', '/inventory/products', { body, idempotencyKey: key });
      onSaved(saved.data);
    },
  });
  const e = submission.error;
  const input = (name: Parameters<typeof bind>[0], type = 'text', disabled = false) =>
    html`<input type=${type} inputmode=${type === 'number' ? 'decimal' : undefined} step="any" disabled=${disabled} ...${bind(name)} data-testid=${`product-${name}`} />`;
  // The powers change_price, adjust_stock and remove_product: a new product's prices are free.
  const stockHolder = holds('stock');
  const pricesFixed = editing && !stockHolder;

  return html`<form class="stack product-form" onSubmit=${submission.submit} data-testid="product-form" novalidate>
    <${ErrorBanner} error=${e} />
    <${Field} label=${t('name')} name="name" error=${e}>${input('name')}</${Field}>
    <div class="two">
      <${Field} label=${t('barcode')} name="barcode" error=${e}>${input('barcode')}</${Field}>
      <${Field} label=${t('sku')} name="sku" error=${e}>${input('sku')}</${Field}>
    </div>
    <${ScanButton} onCode=${(code: string) => set('barcode', code)} />
    <${Field} label=${t('category')} name="category_id" error=${e}>
      <select ...${bind('category_id')} onChange=${(ev: Event) => set('category_id', (ev.currentTarget as HTMLSelectElement).value)} data-testid="product-category_id">
        <option value="">${t('category.none')}</option>
        ${categories.map((c) => html`<option value=${c.id}>${c.name}</option>`)}
      </select>
    </${Field}>
    <div class="two">
      <${Field} label=${t('selling_price')} name="selling_price" error=${e}>${input('selling_price', 'number', pricesFixed)}</${Field}>
      <${Field} label=${t('cost_price')} name="cost_price" error=${e}>${input('cost_price', 'number', pricesFixed)}</${Field}>
    </div>
    <div class="two">
      <${Field} label=${t('unit')} name="unit" error=${e}>
        <select ...${bind('unit')} onChange=${(ev: Event) => set('unit', (ev.currentTarget as HTMLSelectElement).value)} data-testid="product-unit">
          ${UNITS.map((u) => html`<option value=${u}>${u}</option>`)}
        </select>
      </${Field}>
      <${Field} label=${t('reorder_point')} name="reorder_point" error=${e}>${input('reorder_point', 'number')}</${Field}>
    </div>
    ${editing || !stockHolder ? null : html`<${Field} label=${t('stock')} name="stock" error=${e}>${input('stock', 'number')}</${Field}>`}
    ${
      editing && (stockHolder || !product?.is_active)
        ? html`<label class="check"><input type="checkbox" checked=${values.is_active} data-testid="product-is_active"
            onChange=${(ev: Event) => set('is_active', (ev.currentTarget as HTMLInputElement).checked)} /> ${t('is_active')}</label>`
        : null
    }
    ${
      pharmacy
        ? html`<fieldset class="stack" data-testid="pharmacy-fields">
      <legend>${t('pharmacy')}</legend>
      <${Field} label=${t('generic_name')} name="generic_name" error=${e}>${input('generic_name')}</${Field}>
      <${Field} label=${t('strength')} name="strength" error=${e}>${input('strength')}</${Field}>
      <div class="two">
        <${Field} label=${t('dosage_form')} name="dosage_form" error=${e}>
          <select ...${bind('dosage_form')} onChange=${(ev: Event) => set('dosage_form', (ev.currentTarget as HTMLSelectElement).value)}>
            <option value="">–</option>
            ${DOSAGE_FORMS.map((f) => html`<option value=${f}>${f}</option>`)}
          </select>
        </${Field}>
        <${Field} label=${t('schedule')} name="schedule" error=${e}>
          <select ...${bind('schedule')} onChange=${(ev: Event) => set('schedule', (ev.currentTarget as HTMLSelectElement).value)}>
            <option value="">${t('schedule.none')}</option>
            ${SCHEDULES.map((s) => html`<option value=${s}>${s}</option>`)}
          </select>
        </${Field}>
      </div>
    </fieldset>`
        : null
    }
    <${PacksEditor} rows=${packs} onChange=${setPacks} error=${e} />
    <button type="submit" class="primary" disabled=${submission.busy} data-testid="product-save">${editing ? core('save') : t('new')}</button>
    ${submission.done && editing ? html`<p class="ok" role="status" data-testid="product-saved">${core('saved')}</p>` : null}
  </form>`;
}
