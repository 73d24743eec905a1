/**
 * Lists as every screen shows them: a table on a wide screen, cards on a phone (styles.css), a
 * pager under a paged route's list, and `useList` to read a page again when its query changes.
 */
import type { PageMeta } from '@duka/shared';
import type { ComponentChildren } from 'preact';
import { useCallback, useEffect, useState } from 'preact/hooks';
import { api, type ApiError, type Request } from '../api.js';
import { t } from '../i18n/core.js';
import { html } from './html.js';

export interface Column<T> {
  label: string;
  cell: (row: T) => ComponentChildren;
  num?: boolean;
}

export function List<T>({ columns, rows, testid, rowId }: { columns: Column<T>[]; rows: T[]; testid: string; rowId?: (row: T) => string }) {
  if (!rows.length) return html`<p class="muted" data-testid=${`${testid}-empty`}>${t('none')}</p>`;
  return html`<table class="list" data-testid=${testid}>
    <thead><tr>${columns.map((c) => html`<th class=${c.num ? 'num' : ''}>${c.label}</th>`)}</tr></thead>
    <tbody>
      ${rows.map(
        (row) => html`<tr data-testid=${`${testid}-row`} data-id=${rowId?.(row)}>
          ${columns.map((c) => html`<td data-label=${c.label} class=${c.num ? 'num' : ''}>${c.cell(row)}</td>`)}
        </tr>`,
      )}
    </tbody>
  </table>`;
}

export function Pager({ meta, onPage }: { meta: PageMeta | null; onPage: (page: number) => void }) {
  if (!meta || meta.total_pages <= 1) return null;
  return html`<div class="pager" data-testid="pager">
    <button disabled=${meta.page <= 1} onClick=${() => onPage(meta.page - 1)}>${t('page.prev')}</button>
    <span>${t('page.of', { page: meta.page, pages: meta.total_pages })}</span>
    <button disabled=${meta.page >= meta.total_pages} onClick=${() => onPage(meta.page + 1)}>${t('page.next')}</button>
  </div>`;
}

/** A list route read with `query`, again whenever the query changes or `reload()` is called. */
export function useList<T>(path: string, query: Request['query'] = {}) {
  const [rows, setRows] = useState<T[] | null>(null);
  const [meta, setMeta] = useState<PageMeta | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const [tick, setTick] = useState(0);
  const key = JSON.stringify(query);
  useEffect(() => {
    let live = true;
    api<T[] | { items: T[]; total: number }>('GET', path, { query }).then(
      (a) => {
        if (!live) return;
        // Some routes page in `meta`, some answer `{ items, total }` (the contract keeps both shapes).
        setRows(Array.isArray(a.data) ? a.data : a.data.items);
        setMeta(a.meta);
        setError(null);
      },
      (e: ApiError) => live && setError(e),
    );
    return () => {
      live = false;
    };
  }, [path, key, tick]);
  const reload = useCallback(() => setTick((n) => n + 1), []);
  return { rows, meta, error, reload };
}
