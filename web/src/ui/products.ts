/**
 * Finding products: a scan field that keyboard-wedge scanners type into (digits, then Enter) and
 * that keeps the focus between sales, a search box, and the grid of what matched.
 */
import type { Till } from '@duka/client-sdk';
import type { Product } from '@duka/shared';
import { useEffect, useRef, useState } from 'preact/hooks';
import { tzs } from '../format.js';
import { t } from '../i18n.js';
import { useLoad } from './hooks.js';
import { html } from './html.js';

const GRID_LIMIT = 60;

interface Props {
  till: Till;
  version: number;
  /** What the last scan found wrong (no such code), or null. */
  notice: string | null;
  onAdd: (p: Product) => void;
  /** A code from the scan field, perhaps with a quantity (`3*code`). */
  onScan: (typed: string) => Promise<void>;
}

export function Products({ till, version, notice, onAdd, onScan }: Props) {
  const [query, setQuery] = useState('');
  const [code, setCode] = useState('');
  const scan = useRef<HTMLInputElement>(null);
  const products = useLoad(() => till.searchProducts(query.trim(), { limit: GRID_LIMIT }), [till, query, version], [] as Product[]);

  // Back to the scan field after every sale or cart change, unless the cashier is typing elsewhere.
  useEffect(() => {
    const active = document.activeElement;
    if (!active || active === document.body) scan.current?.focus();
  }, [version]);

  const submit = async (e: Event) => {
    e.preventDefault();
    // From the field itself: a scanner types faster than the app re-renders, so `code` may lag a keystroke behind.
    const typed = (scan.current?.value ?? code).trim();
    if (!typed) return;
    setCode('');
    if (scan.current) scan.current.value = '';
    await onScan(typed);
    scan.current?.focus();
  };
  // A tap on a tile leaves the focus in the scan field, so the next scan is not typed into the tile.
  const tap = (p: Product) => {
    onAdd(p);
    scan.current?.focus();
  };

  return html`
    <section class="products">
      <form class="scan" onSubmit=${submit}>
        <input ref=${scan} data-testid="scan-input" autofocus inputmode="numeric" autocomplete="off" placeholder=${t('products.scan')}
          value=${code} onInput=${(e: any) => setCode(e.currentTarget.value)} />
      </form>
      <input type="search" class="search" data-testid="product-search" placeholder=${t('products.search')} value=${query}
        onInput=${(e: any) => setQuery(e.currentTarget.value)} />
      ${notice ? html`<p class="error" role="alert" data-testid="scan-notice">${notice}</p>` : null}
      <div class="grid" data-testid="product-grid">
        ${products.length === 0 ? html`<p class="empty">${t('products.none')}</p>` : null}
        ${products.map(
          (p) => html`
            <button key=${p.id} class=${`product ${p.is_low_stock ? 'low' : ''}`} data-testid="product-tile" data-product-id=${p.id} data-name=${p.name} data-stock=${p.stock}
              onClick=${() => tap(p)}>
              <span class="name">${p.name}</span>
              <span class="price">${tzs(p.selling_price)}</span>
              <span class="stock">${p.is_service ? t('products.service') : t('products.stock', { n: p.stock_in_packs ?? p.stock })}</span>
            </button>
          `,
        )}
      </div>
    </section>
  `;
}
