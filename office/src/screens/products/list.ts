/** The catalogue: searched, filtered by category, status and low stock, paged; export and import from here. */
import type { Category, Product } from '@duka/shared';
import { useEffect, useState } from 'preact/hooks';
import { type ApiError, fetchAuthed, get } from '../../api.js';
import { may } from '../../access.js';
import { t as core } from '../../i18n/core.js';
import { num, tsh } from '../../i18n/lang.js';
import { ErrorBanner } from '../../ui/form.js';
import { html } from '../../ui/html.js';
import { List, Pager, useList } from '../../ui/list.js';
import { follow, href } from '../../ui/router.js';
import { t } from './messages.js';

/** The organisation's categories, read once per screen that needs them (nothing when the user may not read them). */
export function useCategories(): Category[] {
  const [categories, setCategories] = useState<Category[]>([]);
  useEffect(() => {
    if (may('GET /inventory/categories')) get<Category[]>('/inventory/categories').then(setCategories, () => setCategories([]));
  }, []);
  return categories;
}

/** The export as a file the browser saves (fetchAuthed: a refreshed token, the server's error if refused). */
async function download(setError: (e: ApiError | null) => void) {
  try {
    const res = await fetchAuthed('GET', '/inventory/products/export');
    const name = /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? 'products.csv';
    const url = URL.createObjectURL(await res.blob());
    const a = Object.assign(document.createElement('a'), { href: url, download: name });
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
    setError(null);
  } catch (e) {
    setError(e as ApiError);
  }
}

export function ProductList() {
  const [search, setSearch] = useState('');
  const [typed, setTyped] = useState('');
  const [category, setCategory] = useState('');
  const [status, setStatus] = useState('');
  const [low, setLow] = useState(false);
  const [page, setPage] = useState(1);
  const categories = useCategories();
  const [exportError, setExportError] = useState<ApiError | null>(null);
  const { rows, meta, error } = useList<Product>('/inventory/products', {
    search,
    category_id: category,
    status,
    low_stock: low ? 'true' : '',
    page,
    page_size: 25,
  });
  const names = new Map(categories.map((c) => [c.id, c.name]));
  const filter = (set: () => void) => {
    set();
    setPage(1);
  };

  return html`<section class="products">
    <header class="screen-head">
      <h1>${t('title')}</h1>
      ${may('POST /inventory/products') ? html`<a class="button primary" href=${href('products/new')} data-testid="product-new" onClick=${(e: MouseEvent) => follow(e, 'products/new')}>${t('new')}</a>` : null}
      ${may('POST /inventory/products/import') ? html`<a class="button" href=${href('products/import')} data-testid="product-import" onClick=${(e: MouseEvent) => follow(e, 'products/import')}>${t('import')}</a>` : null}
      ${may('GET /inventory/products/export') ? html`<button data-testid="product-export" onClick=${() => download(setExportError)}>${t('export')}</button>` : null}
    </header>
    <${ErrorBanner} error=${error ?? exportError} />
    <form class="toolbar" role="search" onSubmit=${(e: Event) => (e.preventDefault(), filter(() => setSearch(typed.trim())))}>
      <input type="search" aria-label=${t('search')} placeholder=${t('search')} value=${typed} data-testid="product-search"
        onInput=${(e: Event) => setTyped((e.currentTarget as HTMLInputElement).value)} />
      <select aria-label=${t('category')} value=${category} data-testid="product-category-filter" onChange=${(e: Event) => filter(() => setCategory((e.currentTarget as HTMLSelectElement).value))}>
        <option value="">${t('category.all')}</option>
        ${categories.map((c) => html`<option value=${c.id}>${c.name}</option>`)}
      </select>
      <select aria-label=${t('status.all')} value=${status} data-testid="product-status-filter" onChange=${(e: Event) => filter(() => setStatus((e.currentTarget as HTMLSelectElement).value))}>
        <option value="">${t('status.all')}</option>
        <option value="active">${t('status.active')}</option>
        <option value="inactive">${t('status.inactive')}</option>
      </select>
      <label class="check"><input type="checkbox" checked=${low} data-testid="product-low-filter" onChange=${(e: Event) => filter(() => setLow((e.currentTarget as HTMLInputElement).checked))} /> ${t('low_only')}</label>
      <button type="submit" data-testid="product-search-submit">${core('search')}</button>
    </form>
    ${meta ? html`<p class="muted" data-testid="product-total" data-total=${meta.total}>${t('total', { n: num(meta.total) })}</p>` : null}
    ${
      rows
        ? html`<${List}
            testid="products"
            rows=${rows}
            rowId=${(p: Product) => p.id}
            columns=${[
              {
                label: t('col.name'),
                cell: (p: Product) =>
                  html`<span><a href=${href(`products/${p.id}`)} onClick=${(e: MouseEvent) => follow(e, `products/${p.id}`)}>${p.name}</a>${
                    p.is_active ? null : html` <small class="muted">${t('inactive')}</small>`
                  }</span>`,
              },
              { label: t('col.category'), cell: (p: Product) => (p.category_id ? (names.get(p.category_id) ?? '') : '') },
              { label: t('col.price'), num: true, cell: (p: Product) => tsh(p.selling_price) },
              {
                label: t('col.stock'),
                num: true,
                cell: (p: Product) =>
                  html`<span>${p.stock_in_packs ?? num(p.stock)}${p.is_low_stock ? html` <small class="error">${t('low')}</small>` : null}</span>`,
              },
            ]}
          />`
        : null
    }
    <${Pager} meta=${meta} onPage=${setPage} />
  </section>`;
}
