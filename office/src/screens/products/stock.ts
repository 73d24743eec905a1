/** A product's stock in the active store: an adjustment with a reason, and who changed it before. */
import type { Product, StockAdjustment } from '@duka/shared';
import { api } from '../../api.js';
import { may } from '../../access.js';
import { num, when } from '../../i18n/lang.js';
import { ErrorBanner, Field, useSubmit, useValues } from '../../ui/form.js';
import { html } from '../../ui/html.js';
import { List, useList } from '../../ui/list.js';
import { t } from './messages.js';

const REASONS = ['damaged', 'expired', 'lost', 'found', 'correction', 'returned'] as const;
/** Reasons the server writes itself, named in the history too. */
const NAMED = [...REASONS, 'initial_stock', 'delivery'];

export function StockPanel({ product, onChanged }: { product: Product; onChanged: (p: Product) => void }) {
  const history = useList<StockAdjustment>(`/inventory/products/${product.id}/adjustments`, { limit: 20 });
  const { values, bind, set, setValues } = useValues({ qty_change: '', reason: 'correction', note: '' });
  const submission = useSubmit(async (key) => {
    const qty = Number(values.qty_change);
    const answer = await api<Product>('POST', `/inventory/products/${product.id}/adjust`, {
      body: {
        qty_change: values.qty_change.trim() === '' || !Number.isFinite(qty) ? values.qty_change : qty,
        reason: values.reason,
        ...(values.note.trim() ? { note: values.note.trim() } : {}),
      },
      idempotencyKey: key,
    });
    setValues({ qty_change: '', reason: values.reason, note: '' });
    onChanged(answer.data);
    history.reload();
  });
  const e = submission.error;
  const reason = (r: string) => (NAMED.includes(r) ? t(`reason.${r}` as 'reason.damaged') : r);

  return html`<section class="panel stack" data-testid="stock-panel">
    <h2>${t('adjust.title')}</h2>
    <p data-testid="stock-now">${t('adjust.now', { qty: product.stock_in_packs ?? num(product.stock) })}</p>
    ${
      may('POST /inventory/products/{id}/adjust') && !product.is_service
        ? html`<form class="stack" onSubmit=${submission.submit} data-testid="adjust-form" novalidate>
        <${ErrorBanner} error=${e} />
        <div class="two">
          <${Field} label=${t('adjust.qty')} name="qty_change" error=${e}>
            <input type="number" step="any" inputmode="decimal" ...${bind('qty_change')} data-testid="adjust-qty" />
          </${Field}>
          <${Field} label=${t('adjust.reason')} name="reason" error=${e}>
            <select ...${bind('reason')} onChange=${(ev: Event) => set('reason', (ev.currentTarget as HTMLSelectElement).value)} data-testid="adjust-reason">
              ${REASONS.map((r) => html`<option value=${r}>${t(`reason.${r}`)}</option>`)}
            </select>
          </${Field}>
        </div>
        <${Field} label=${t('adjust.note')} name="note" error=${e}><input ...${bind('note')} data-testid="adjust-note" /></${Field}>
        <button type="submit" class="primary" disabled=${submission.busy} data-testid="adjust-submit">${t('adjust.submit')}</button>
        ${submission.done ? html`<p class="ok" role="status">${t('adjust.done')}</p>` : null}
      </form>`
        : null
    }
    <h2>${t('history')}</h2>
    <${ErrorBanner} error=${history.error} />
    ${
      history.rows
        ? html`<${List}
            testid="adjustments"
            rows=${history.rows}
            columns=${[
              { label: t('history.when'), cell: (a: StockAdjustment) => when(a.created_at) },
              { label: t('history.change'), num: true, cell: (a: StockAdjustment) => `${a.qty_change > 0 ? '+' : ''}${num(a.qty_change)}` },
              { label: t('history.after'), num: true, cell: (a: StockAdjustment) => num(a.qty_after) },
              { label: t('history.reason'), cell: (a: StockAdjustment) => [reason(a.reason), a.note ? ` (${a.note})` : ''].join('') },
            ]}
          />`
        : null
    }
  </section>`;
}
