/**
 * A product chosen by search as you type (GET /inventory/products?search=): the order form's one
 * way to pick a product, kept to this small component so the shared picker (ui/picker.ts, another
 * branch) can replace it by changing this file alone. Enter picks the first match; services,
 * which hold no stock, are left out (an order refuses them).
 */
import type { Product } from '@duka/shared';
import { useEffect, useState } from 'preact/hooks';
import { get } from '../../api.js';
import { html } from '../../ui/html.js';
import { t } from './orders-messages.js';

export function ProductPick({
  value,
  onPick,
  testid,
  invalid = false,
}: {
  value: Product | null;
  onPick: (p: Product | null) => void;
  testid: string;
  invalid?: boolean;
}) {
  const [search, setSearch] = useState('');
  const [found, setFound] = useState<Product[]>([]);
  useEffect(() => {
    if (value || !search.trim()) return setFound([]);
    let live = true;
    const timer = setTimeout(() => {
      get<Product[]>('/inventory/products', { search: search.trim(), status: 'active', page_size: 8 }).then(
        (ps) => live && setFound(ps.filter((p) => !p.is_service)),
        () => live && setFound([]),
      );
    }, 200);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [search, value]);
  if (value)
    return html`<div class="picked" data-testid=${`${testid}-picked`}>
      <strong>${value.name}</strong>
      <button type="button" class="link" onClick=${() => (onPick(null), setSearch(''))}>${t('pick.change')}</button>
    </div>`;
  const enter = (e: KeyboardEvent) => {
    if (e.key !== 'Enter') return;
    e.preventDefault();
    if (found[0]) onPick(found[0]);
  };
  return html`<div class="pick">
    <input type="search" placeholder=${t('pick.search')} aria-invalid=${invalid} data-testid=${`${testid}-search`} value=${search}
      onInput=${(e: Event) => setSearch((e.currentTarget as HTMLInputElement).value)} onKeyDown=${enter} />
    ${
      found.length
        ? html`<ul class="pick-list" role="listbox">
            ${found.map(
              (p) => html`<li><button type="button" data-testid=${`${testid}-option`} onClick=${() => onPick(p)}>${p.name}
                <small class="muted">${p.sku ?? ''} · ${p.stock} ${p.unit}</small></button></li>`,
            )}
          </ul>`
        : null
    }
  </div>`;
}
