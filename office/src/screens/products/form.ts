/**
 * A product created or edited: the fields the API takes, a barcode typed or scanned, packs, and
 * the medicine fields for a pharmacy. What is typed stays on a failure, with the server's errors
 * by field; a new product's POST keeps one Idempotency-Key until it succeeds.
 */
import type { DosageForm, DrugSchedule, Product } from '@duka/shared';
import { UNITS } from '@duka/shared';
import { useState } from 'preact/hooks';
import { api } from '../../api.js';
import { profile } from '../../access.js';
import { t as core } from '../../i18n/core.js';
import { ErrorBanner, Field, useSubmit, useValues } from '../../ui/form.js';
import { html } from '../../ui/html.js';
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
  const { values, bind, set } = useValues({
    name: text(product?.name),
    sku: text(product?.sku),
    barcode: text(product?.barcode),
    category_id: text(product?.category_id),
    selling_price: text(product?.selling_price),
    cost_price: text(product?.cost_price),
    unit: product?.unit ?? 'piece',
    reorder_point: text(product?.reorder_point),
    stock: '',
    is_active: product?.is_active ?? true,
    generic_name: text(product?.generic_name),
    strength: text(product?.strength),
    dosage_form: text(product?.dosage_form),
    schedule: text(product?.schedule),
  });
  const [packs, setPacks] = useState<PackRow[]>(packRowsOf(product?.packs ?? []));
  const blank = editing ? null : undefined;
  const submission = useSubmit(async (key) => {
    const body = {
      name: values.name,
      sku: (values.sku as string).trim() || blank,
      barcode: (values.barcode as string).trim() || blank,
      category_id: values.category_id || blank,
      selling_price: number(values.selling_price as string, undefined),
      cost_price: number(values.cost_price as string, undefined),
      unit: values.unit,
      reorder_point: number(values.reorder_point as string, undefined),
      ...(editing ? { is_active: values.is_active } : { stock: number(values.stock as string, undefined) }),
      ...(pharmacy
        ? {
            generic_name: (values.generic_name as string).trim() || blank,
            strength: (values.strength as string).trim() || blank,
            dosage_form: values.dosage_form || blank,
            schedule: values.schedule || blank,
          }
        : {}),
      ...(editing || packs.length ? { packs: packInputs(packs) } : {}),
    };
    const saved = editing
      ? await api<Product>('PATCH', `/inventory/products/${product.id}`, { body })
      : await api<Product>('POST', '/inventory/products', { body, idempotencyKey: key });
    onSaved(saved.data);
  });
  const e = submission.error;
  const input = (name: Parameters<typeof bind>[0], type = 'text') =>
    html`<input type=${type} inputmode=${type === 'number' ? 'decimal' : undefined} step="any" ...${bind(name)} data-testid=${`product-${name}`} />`;

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
      <${Field} label=${t('selling_price')} name="selling_price" error=${e}>${input('selling_price', 'number')}</${Field}>
      <${Field} label=${t('cost_price')} name="cost_price" error=${e}>${input('cost_price', 'number')}</${Field}>
    </div>
    <div class="two">
      <${Field} label=${t('unit')} name="unit" error=${e}>
        <select ...${bind('unit')} onChange=${(ev: Event) => set('unit', (ev.currentTarget as HTMLSelectElement).value)} data-testid="product-unit">
          ${UNITS.map((u) => html`<option value=${u}>${u}</option>`)}
        </select>
      </${Field}>
      <${Field} label=${t('reorder_point')} name="reorder_point" error=${e}>${input('reorder_point', 'number')}</${Field}>
    </div>
    ${editing ? null : html`<${Field} label=${t('stock')} name="stock" error=${e}>${input('stock', 'number')}</${Field}>`}
    ${
      editing
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
