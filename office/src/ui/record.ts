/**
 * One record read from the API, and the form that edits it: `useRead` reads a record (again on
 * `reload`); `useRecordForm` fills a form from a record (read by path, or already in hand), keeps
 * what the owner types, and saves it through `useSubmit` (one Idempotency-Key until it succeeds),
 * so each add-or-edit form says only which fields it has and which call saves them.
 */
import { useCallback, useEffect, useState } from 'preact/hooks';
import { type ApiError, api } from '../api.js';
import { t } from '../i18n/core.js';
import { ErrorBanner, useSubmit, useValues } from './form.js';
import { html } from './html.js';

export function useRead<T>(path: string | null) {
  const [data, setData] = useState<T | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const [tick, setTick] = useState(0);
  useEffect(() => {
    if (!path) return;
    let live = true;
    api<T>('GET', path).then(
      (a) => live && (setData(a.data), setError(null)),
      (e: ApiError) => live && setError(e),
    );
    return () => {
      live = false;
    };
  }, [path, tick]);
  return { data, error, setData, reload: useCallback(() => setTick((n) => n + 1), []) };
}

/**
 * A form over one record. `read`: the record's GET path (an edit form opened by id), the record
 * itself (read by the page around the form), or null/undefined for a new one. `valuesOf` gives
 * the form's values for a record (null: a new one's blanks); `save` sends them, with the
 * submission's Idempotency-Key for the routes that take one.
 */
export function useRecordForm<R, V extends Record<string, string | boolean>>({
  read,
  valuesOf,
  save,
}: {
  read: string | R | null | undefined;
  valuesOf: (record: R | null) => V;
  save: (values: V, idempotencyKey: string, record: R | null) => Promise<unknown>;
}) {
  const given = typeof read === 'string' ? null : (read ?? null);
  const loaded = useRead<R>(typeof read === 'string' ? read : null);
  const record = given ?? loaded.data;
  const form = useValues<V>(valuesOf(record));
  // A record read fills the form, which is ready (drawn) from then on: nothing typed is overwritten.
  const [filled, setFilled] = useState<R | null>(null);
  useEffect(() => {
    if (!loaded.data) return;
    form.setValues(valuesOf(loaded.data));
    setFilled(loaded.data);
  }, [loaded.data]);
  const submission = useSubmit((key) => save(form.values, key, record));
  return {
    ...form,
    /** The record edited; null for a new one, and until it is read. */
    record,
    /** False while the record to edit is being read (or could not be: `loadError`). */
    ready: typeof read !== 'string' || (!!loaded.data && filled === loaded.data),
    loadError: loaded.error,
    submission,
  };
}

/** What a form shows while its record is read, or why it could not be. */
export const Loading = ({ error }: { error?: ApiError | null }) =>
  error ? html`<${ErrorBanner} error=${error} />` : html`<p class="muted">${t('loading')}</p>`;
