/** A product's packs as the form edits them: a row each, strings while typed, the API's PackInput when sent. */
import type { PackInput, ProductPack } from '@duka/shared';
import type { ApiError } from '../../api.js';
import { Field } from '../../ui/form.js';
import { html } from '../../ui/html.js';
import { t } from './messages.js';

export interface PackRow {
  id?: string;
  name: string;
  units: string;
  barcode: string;
  selling_price: string;
}

export const packRowsOf = (packs: ProductPack[]): PackRow[] =>
  packs.map((p) => ({
    id: p.id,
    name: p.name,
    units: String(p.units),
    barcode: p.barcode ?? '',
    selling_price: p.selling_price == null ? '' : String(p.selling_price),
  }));

export const packInputs = (rows: PackRow[]): PackInput[] =>
  rows.map((r) => ({
    ...(r.id ? { id: r.id } : {}),
    name: r.name.trim(),
    units: Number(r.units),
    barcode: r.barcode.trim() || null,
    selling_price: r.selling_price.trim() === '' ? null : Number(r.selling_price),
  }));

export function PacksEditor({ rows, onChange, error }: { rows: PackRow[]; onChange: (rows: PackRow[]) => void; error: ApiError | null }) {
  const set = (i: number, key: keyof PackRow, value: string) => onChange(rows.map((r, j) => (j === i ? { ...r, [key]: value } : r)));
  const input = (i: number, key: keyof PackRow, type = 'text') =>
    html`<input type=${type} inputmode=${type === 'number' ? 'decimal' : undefined} step="any" value=${rows[i]![key]} data-testid=${`pack-${i}-${key}`}
      onInput=${(e: Event) => set(i, key, (e.currentTarget as HTMLInputElement).value)} />`;
  return html`<fieldset class="packs" data-testid="packs">
    <legend>${t('packs')}</legend>
    ${rows.map(
      (_, i) => html`<div class="pack-row">
        <${Field} label=${t('pack.name')} name=${`packs.${i}.name`} error=${error}>${input(i, 'name')}</${Field}>
        <${Field} label=${t('pack.units')} name=${`packs.${i}.units`} error=${error}>${input(i, 'units', 'number')}</${Field}>
        <${Field} label=${t('pack.barcode')} name=${`packs.${i}.barcode`} error=${error}>${input(i, 'barcode')}</${Field}>
        <${Field} label=${t('pack.price')} name=${`packs.${i}.selling_price`} error=${error}>${input(i, 'selling_price', 'number')}</${Field}>
        <button type="button" class="link" onClick=${() => onChange(rows.filter((__, j) => j !== i))}>${t('pack.remove')}</button>
      </div>`,
    )}
    <button type="button" data-testid="pack-add" onClick=${() => onChange([...rows, { name: '', units: '', barcode: '', selling_price: '' }])}>${t('pack.add')}</button>
  </fieldset>`;
}
