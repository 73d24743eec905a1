/**
 * Choosing a product or supplier out of a catalogue of any size: an input that asks the list
 * route's `search` as the owner types (debounced; one page of matches, the rest named by count),
 * a real listbox under it (arrows, Enter, Escape; a tap on a phone), and a product picked at once
 * when a whole barcode is typed or scanned (GET /inventory/products/barcode/{code}, which also
 * knows SKUs and packs' barcodes). A required picker with nothing chosen stops its form's submit.
 */
import type { Product, Supplier } from '@duka/shared';
import { useEffect, useRef, useState } from 'preact/hooks';
import { may, type Route } from '../access.js';
import { type ApiError, api } from '../api.js';
import { t } from '../i18n/core.js';
import { num } from '../i18n/lang.js';
import { html } from './html.js';

export interface Source<T extends { id: string }> {
  /** The list route searched, with `search` and `page_size` added to `query`. */
  route: Route;
  path: string;
  query?: Record<string, string>;
  label(item: T): string;
  detail?(item: T): string;
  /** The route that finds one item by a code typed whole or scanned. */
  code?: { route: Route; path(code: string): string };
}

export const PRODUCTS: Source<Product> = {
  route: 'GET /inventory/products',
  path: '/inventory/products',
  query: { status: 'active' },
  label: (p) => p.name,
  detail: (p) => [p.barcode ?? p.sku, t('picker.stock', { n: num(p.stock) })].filter(Boolean).join(' · '),
  code: { route: 'GET /inventory/products/barcode/{code}', path: (code) => `/inventory/products/barcode/${encodeURIComponent(code)}` },
};

export const SUPPLIERS: Source<Supplier> = {
  route: 'GET /suppliers',
  path: '/suppliers',
  query: { status: 'active' },
  label: (s) => s.name,
  detail: (s) => s.phone ?? s.category ?? '',
};

const DELAY_MS = 250;
const PAGE = 20;
/** A whole EAN-8, UPC-A, EAN-13 or GTIN-14, as a scanner types it: looked up as a code before any search. */
const WHOLE_CODE = /^\d{8}$|^\d{12,14}$/;

let count = 0;

export function Picker<T extends { id: string }>({
  source,
  value,
  onPick,
  label,
  name,
  error,
  testid,
  required = false,
}: {
  source: Source<T>;
  value: T | null;
  onPick: (item: T | null) => void;
  label: string;
  /** The server's name for the field (`supplier_id`, `lines.0.product_id`): its error is shown here. */
  name: string;
  error?: ApiError | null;
  testid: string;
  required?: boolean;
}) {
  const [id] = useState(() => `picker-${++count}`);
  const input = useRef<HTMLInputElement>(null);
  const [text, setText] = useState(value ? source.label(value) : '');
  const [open, setOpen] = useState(false);
  const [found, setFound] = useState<{ for: string; items: T[]; total: number } | null>(null);
  const [active, setActive] = useState(-1);
  const [failed, setFailed] = useState<ApiError | null>(null);
  const [tick, setTick] = useState(0);
  /** The latest question asked: an older answer arriving late is dropped. */
  const asked = useRef(0);

  useEffect(() => {
    if (value) setText(source.label(value));
  }, [value?.id]);
  useEffect(() => {
    input.current?.setCustomValidity(required && !value ? t('picker.required') : '');
  }, [required, value]);
  useEffect(() => {
    if (open && active >= 0) document.getElementById(`${id}-${active}`)?.scrollIntoView({ block: 'nearest' });
  }, [active, open]);

  const choose = (item: T) => {
    asked.current++;
    setText(source.label(item));
    setOpen(false);
    setActive(-1);
    onPick(item);
  };
  const byCode = async (code: string): Promise<T | null> => {
    if (!source.code || !may(source.code.route)) return null;
    return api<T>('GET', source.code.path(code)).then(
      (a) => a.data,
      () => null,
    );
  };

  useEffect(() => {
    if (!open || !may(source.route)) return;
    const q = text.trim();
    const n = ++asked.current;
    const timer = setTimeout(
      async () => {
        const scanned = WHOLE_CODE.test(q) ? await byCode(q) : null;
        if (n !== asked.current) return;
        if (scanned) return choose(scanned);
        try {
          const a = await api<T[] | { items: T[]; total: number }>('GET', source.path, {
            query: { ...source.query, ...(q ? { search: q } : {}), page_size: PAGE },
          });
          if (n !== asked.current) return;
          const items = Array.isArray(a.data) ? a.data : a.data.items;
          setFound({ for: q, items, total: a.meta?.total ?? items.length });
          setActive(items.length ? 0 : -1);
          setFailed(null);
        } catch (e) {
          if (n === asked.current) setFailed(e as ApiError);
        }
      },
      q ? DELAY_MS : 0,
    );
    return () => clearTimeout(timer);
  }, [text, open, tick]);

  /** Enter: the option highlighted if it answers what is typed; else the code typed, looked up now. */
  const resolve = async () => {
    const q = text.trim();
    const item = found?.for === q ? found.items[active] : undefined;
    if (item) return choose(item);
    const scanned = q ? await byCode(q) : null;
    if (scanned) return choose(scanned);
    setOpen(true);
    setTick((n) => n + 1);
  };
  const close = () => {
    setOpen(false);
    if (value) setText(source.label(value));
  };
  const keys = (e: KeyboardEvent) => {
    const last = (found?.items.length ?? 0) - 1;
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      if (!open) return setOpen(true);
      setActive((i) => (e.key === 'ArrowDown' ? Math.min(i + 1, last) : Math.max(i - 1, 0)));
    } else if (e.key === 'Enter' && (open || !value)) {
      // A chosen value and a closed list: Enter submits the form, as in every other field.
      e.preventDefault();
      if (text.trim()) void resolve();
    } else if (e.key === 'Escape' && open) {
      e.preventDefault();
      close();
    }
  };
  const typed = (e: Event) => {
    setText((e.currentTarget as HTMLInputElement).value);
    setOpen(true);
    if (value) onPick(null);
  };

  const message = error?.field(name);
  const items = found?.items ?? [];
  const status = failed
    ? failed.message
    : !found
      ? t('loading')
      : items.length
        ? t('picker.found', { n: num(found.total) })
        : t('picker.none');
  return html`<div class=${`field picker${message ? ' invalid' : ''}`} data-field=${name}>
    <label for=${id}>${label}</label>
    <div class="picker-box">
      <input ref=${input} id=${id} type="text" role="combobox" aria-autocomplete="list" aria-expanded=${open ? 'true' : 'false'}
        aria-controls=${`${id}-list`} aria-activedescendant=${open && active >= 0 ? `${id}-${active}` : undefined}
        aria-invalid=${message ? 'true' : undefined} autocomplete="off" autocapitalize="off" spellcheck=${false} enterkeyhint="search"
        placeholder=${source.code ? t('picker.type_or_scan') : t('picker.type')} required=${required} value=${text}
        data-testid=${testid} data-picked=${value?.id ?? ''} disabled=${!may(source.route)}
        onInput=${typed} onKeyDown=${keys} onClick=${() => setOpen(true)} onBlur=${close} />
      <div class="picker-pop" hidden=${!open} onMouseDown=${(e: Event) => e.preventDefault()}>
        <ul role="listbox" id=${`${id}-list`} aria-label=${label} data-testid=${`${testid}-options`}>
          ${items.map(
            (item, i) => html`<li role="option" id=${`${id}-${i}`} aria-selected=${i === active ? 'true' : 'false'}
              class=${i === active ? 'active' : ''} data-id=${item.id} data-testid=${`${testid}-option`} onClick=${() => choose(item)}>
              <span>${source.label(item)}</span>${source.detail ? html`<small class="muted">${source.detail(item)}</small>` : null}
            </li>`,
          )}
        </ul>
        <p class=${failed ? 'error' : 'muted'} role="status">
          ${status}${found && found.total > items.length ? ` ${t('picker.more', { n: num(found.total - items.length) })}` : ''}
        </p>
      </div>
    </div>
    ${message ? html`<small class="error" data-testid=${`error-${name}`}>${message}</small>` : null}
  </div>`;
}
