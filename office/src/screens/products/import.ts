/**
 * The catalogue from a CSV file: the file is checked first (a dry run: nothing written), its
 * problems listed by the row numbers the owner's spreadsheet shows, the first rows previewed;
 * Import stays disabled until the file has no problem, and then sends it whole, with one
 * Idempotency-Key, so a retry after a lost answer imports once.
 */
import type { ErrorItem, ImportPreviewRow, ImportProductsPreview, ImportProductsResult } from '@duka/shared';
import { useState } from 'preact/hooks';
import { type ApiError, api } from '../../api.js';
import { num, tsh } from '../../i18n/lang.js';
import { ErrorBanner, Field, useSubmit } from '../../ui/form.js';
import { html } from '../../ui/html.js';
import { List } from '../../ui/list.js';
import { follow, href } from '../../ui/router.js';
import { t } from './messages.js';

const rowOf = (e: ErrorItem) => /^rows\[(\d+)\]\.(.+)$/.exec(e.field ?? '');

export function ImportProducts() {
  const [csv, setCsv] = useState<string | null>(null);
  const [check, setCheck] = useState<ImportProductsPreview | null>(null);
  const [checkError, setCheckError] = useState<ApiError | null>(null);
  const [checking, setChecking] = useState(false);
  const [created, setCreated] = useState<number | null>(null);
  const submission = useSubmit(async (key) => {
    const answer = await api<ImportProductsResult>('POST', '/inventory/products/import', { body: { csv }, idempotencyKey: key });
    setCreated(answer.data.created);
    setCheck(null);
  });

  const dryRun = async (text: string) => {
    setChecking(true);
    setCheckError(null);
    setCheck(null);
    try {
      setCheck((await api<ImportProductsPreview>('POST', '/inventory/products/import', { body: { csv: text, dry_run: true } })).data);
    } catch (e) {
      setCheckError(e as ApiError);
    } finally {
      setChecking(false);
    }
  };
  const pick = async (e: Event) => {
    const file = (e.currentTarget as HTMLInputElement).files?.[0];
    setCreated(null);
    submission.reset();
    if (!file) return setCsv(null);
    const text = await file.text();
    setCsv(text);
    await dryRun(text);
  };

  return html`<section class="import">
    <p><a href=${href('products')} onClick=${(e: MouseEvent) => follow(e, 'products')}>← ${t('back')}</a></p>
    <h1>${t('import.title')}</h1>
    <p class="muted">${t('import.help')}</p>
    <${Field} label=${t('import.file')} name="csv" error=${checkError}>
      <input type="file" accept=".csv,text/csv" data-testid="import-file" onChange=${pick} />
    </${Field}>
    ${csv && !checking ? html`<button type="button" data-testid="import-recheck" onClick=${() => dryRun(csv)}>${t('import.check')}</button>` : null}
    ${checking ? html`<p aria-busy="true">…</p>` : null}
    <${ErrorBanner} error=${checkError ?? submission.error} />
    ${created !== null ? html`<p class="banner ok" role="status" data-testid="import-done">${t('import.done', { n: num(created) })}</p>` : null}
    ${check ? html`<${Checked} check=${check} busy=${submission.busy} onImport=${submission.submit} />` : null}
  </section>`;
}

function Checked({ check, busy, onImport }: { check: ImportProductsPreview; busy: boolean; onImport: () => void }) {
  return html`<div class="stack" data-testid="import-check">
    <p data-testid="import-summary">${t('import.checked', { rows: num(check.rows), valid: num(check.valid) })}</p>
    ${
      check.errors.length
        ? html`<div class="banner error" data-testid="import-errors">
        <strong>${t('import.problems', { n: num(check.errors.length) })}</strong>
        <ul>
          ${check.errors.map((e) => {
            const at = rowOf(e);
            return html`<li data-testid="import-error" data-field=${e.field}>
              ${at ? html`<strong>${t('import.row')} ${at[1]}</strong> ${at[2]}: ` : null}${e.message}
            </li>`;
          })}
        </ul>
      </div>`
        : null
    }
    <h2>${t('import.preview')}</h2>
    <${List}
      testid="import-preview"
      rows=${check.preview}
      columns=${[
        { label: t('import.row'), num: true, cell: (r: ImportPreviewRow) => r.row },
        { label: t('name'), cell: (r: ImportPreviewRow) => r.name },
        { label: t('barcode'), cell: (r: ImportPreviewRow) => r.barcode ?? '' },
        { label: t('category'), cell: (r: ImportPreviewRow) => r.category ?? '' },
        { label: t('selling_price'), num: true, cell: (r: ImportPreviewRow) => (r.selling_price == null ? '' : tsh(r.selling_price)) },
        { label: t('stock'), num: true, cell: (r: ImportPreviewRow) => (r.stock == null ? '' : num(r.stock)) },
      ]}
    />
    <button type="button" class="primary" data-testid="import-go" disabled=${busy || check.errors.length > 0} onClick=${onImport}>
      ${t('import.go', { n: num(check.rows) })}
    </button>
  </div>`;
}
