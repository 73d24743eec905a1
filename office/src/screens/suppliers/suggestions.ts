/**
 * What to order (GET /inventory/reorder-suggestions), by supplier, each product with the figures
 * the suggestion comes from; "Draft the orders" (POST /suppliers/purchase-orders/from-suggestions,
 * its Idempotency-Key from the form) makes one draft per supplier and names the products no
 * supplier is known for. Drafted products count as on order, so the list then empties of them.
 */
import type { DraftOrdersFromSuggestions, ReorderGroup, ReorderSuggestion, ReorderSuggestions } from '@duka/shared';
import { useEffect, useState } from 'preact/hooks';
import { may } from '../../access.js';
import { type ApiError, api, get } from '../../api.js';
import { t as core } from '../../i18n/core.js';
import { num, tsh } from '../../i18n/lang.js';
import { ErrorBanner, useSubmit } from '../../ui/form.js';
import { html } from '../../ui/html.js';
import { List } from '../../ui/list.js';
import { follow, href } from '../../ui/router.js';
import { orderLink } from './expected.js';
import { t } from './orders-messages.js';

const suggested = (s: ReorderSuggestion) =>
  s.pack ? `${num(s.pack.packs)} ${s.pack.name} (${num(s.suggested)} ${s.unit})` : `${num(s.suggested)} ${s.unit}`;

function Group({ group }: { group: ReorderGroup }) {
  return html`<div class="panel suggestion-group" data-testid="suggestion-group">
    <h2>${group.supplier_name ?? t('supplier.unknown')} <small class="muted">${t('lead', { days: group.lead_time_days })}</small></h2>
    <${List}
      testid="suggestions"
      rows=${group.suggestions}
      rowId=${(s: ReorderSuggestion) => s.product_id}
      columns=${[
        { label: t('product'), cell: (s: ReorderSuggestion) => s.name },
        { label: t('stock'), num: true, cell: (s: ReorderSuggestion) => num(s.stock) },
        { label: t('reorder_point'), num: true, cell: (s: ReorderSuggestion) => num(s.reorder_point) },
        { label: t('days_left'), num: true, cell: (s: ReorderSuggestion) => (s.days_left === null ? '–' : num(s.days_left)) },
        { label: t('on_order'), num: true, cell: (s: ReorderSuggestion) => num(s.on_order + s.on_draft) },
        {
          label: t('suggested'),
          num: true,
          cell: (s: ReorderSuggestion) => html`<strong data-testid="suggested">${suggested(s)}</strong>`,
        },
      ]}
    />
  </div>`;
}

export function Suggestions() {
  const [cover, setCover] = useState('14');
  const [data, setData] = useState<ReorderSuggestions | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const [made, setMade] = useState<DraftOrdersFromSuggestions | null>(null);
  const [tick, setTick] = useState(0);
  const days = Math.max(0, Math.min(180, Math.trunc(Number(cover) || 0)));
  useEffect(() => {
    get<ReorderSuggestions>('/inventory/reorder-suggestions', { cover_days: days }).then((d) => (setData(d), setError(null)), setError);
  }, [days, tick]);
  const draft = useSubmit(async (idempotencyKey) => {
    const { data: out } = await api<DraftOrdersFromSuggestions>('POST', '/suppliers/purchase-orders/from-suggestions', {
      idempotencyKey,
      body: { cover_days: days },
    });
    setMade(out);
    setTick((n) => n + 1);
  });
  const any = !!data?.groups.some((g) => g.supplier_id !== null);
  return html`<section data-testid="suggestions-page">
    <a href=${href('suppliers/orders')} onClick=${(e: MouseEvent) => follow(e, 'suppliers/orders')}>← ${t('title')}</a>
    <header class="screen-head"><h1>${t('suggestions')}</h1></header>
    <p class="muted">${t('suggestions.how')}</p>
    <form class="toolbar" onSubmit=${draft.submit}>
      <label class="field"><span>${t('cover')}</span>
        <input type="number" min="0" max="180" inputmode="numeric" data-testid="suggestions-cover" value=${cover} onInput=${(e: Event) => setCover((e.currentTarget as HTMLInputElement).value)} />
      </label>
      ${may('POST /suppliers/purchase-orders/from-suggestions') && any ? html`<button class="primary" type="submit" disabled=${draft.busy} data-testid="suggestions-draft">${t('draft')}</button>` : null}
    </form>
    <${ErrorBanner} error=${error ?? draft.error} />
    ${made ? html`<${Made} made=${made} />` : null}
    ${data ? (data.groups.length ? data.groups.map((g) => html`<${Group} key=${g.supplier_id ?? 'unknown'} group=${g} />`) : html`<p class="muted" data-testid="suggestions-none">${t('suggestions.none')}</p>`) : html`<p>${core('loading')}</p>`}
  </section>`;
}

function Made({ made }: { made: DraftOrdersFromSuggestions }) {
  return html`<div class="banner ok" role="status" data-testid="suggestions-made">
    <strong>${t('drafted', { n: made.orders.length })}</strong>
    <ul>${made.orders.map((o) => html`<li>${orderLink(o)} · ${o.supplier_name} · ${tsh(o.total_value)}</li>`)}</ul>
    ${made.skipped.length ? html`<p>${t('skipped', { names: made.skipped.map((s) => s.name).join(', ') })}</p>` : null}
  </div>`;
}
