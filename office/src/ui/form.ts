/**
 * How every form behaves: the input stays as typed until the server has taken it (a failed or
 * lost request loses nothing), a submission keeps one Idempotency-Key until it succeeds (a retry
 * after a lost answer never creates twice), and the server's errors are shown in the owner's
 * language with each field the server named highlighted beside it.
 */
import type { ErrorCode } from '@duka/shared';
import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { ApiError, newKey } from '../api.js';
import { t } from '../i18n/core.js';
import { html } from './html.js';

export interface Submission {
  busy: boolean;
  error: ApiError | null;
  done: boolean;
  /** Runs `action` with this submission's key; the key is kept until an attempt succeeds. */
  submit(e?: Event): Promise<void>;
  reset(): void;
}

export function useSubmit(action: (idempotencyKey: string) => Promise<unknown>): Submission {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError | null>(null);
  const [done, setDone] = useState(false);
  const [key, setKey] = useState(newKey);
  return {
    busy,
    error,
    done,
    async submit(e) {
      e?.preventDefault();
      if (busy) return;
      setBusy(true);
      setError(null);
      setDone(false);
      try {
        await action(key);
        setKey(newKey());
        setDone(true);
      } catch (err) {
        setError(err instanceof ApiError ? err : new ApiError(0, err instanceof Error ? err.message : String(err), 'CLIENT'));
      } finally {
        setBusy(false);
      }
    },
    reset() {
      setError(null);
      setDone(false);
    },
  };
}

// Every code of the catalogue has its sentence in core.ts: a code added without one fails the typecheck here.
const everyCodeWorded: `error.${ErrorCode}` extends Parameters<typeof t>[0] ? true : never = true;
void everyCodeWorded;

/**
 * The error in the owner's language: the office's sentence for its code, then the server's own
 * words (its field messages, in the owner's language where the server has them; otherwise the
 * specific words its rule wrote, which the server keeps as written).
 */
export function ErrorBanner({ error }: { error: ApiError | null | undefined }) {
  if (!error) return null;
  const key = `error.${error.code}`;
  const kind = t.has(key) ? t(key) : t('error.generic');
  const fields = error.errors.filter((e) => e.field);
  const words = error.errors[0]?.message ?? error.message;
  return html`<div class="banner error" role="alert" data-testid="error" data-code=${error.code}>
    <strong>${kind}</strong> ${error.code === 'NETWORK' || fields.length ? null : html`<span data-testid="error-words">${words}</span>`}
    ${fields.length ? html`<ul>${fields.map((f) => html`<li>${f.field}: ${f.message}</li>`)}</ul>` : null}
  </div>`;
}

/** A labelled input whose server error (by field name) is shown under it and marks it invalid. */
export function Field({
  label,
  name,
  error,
  children,
}: {
  label: string;
  name: string;
  error: ApiError | null | undefined;
  children: ComponentChildren;
}) {
  const message = error?.field(name);
  return html`<label class=${`field${message ? ' invalid' : ''}`} data-field=${name}>
    <span>${label}</span>
    ${children}
    ${message ? html`<small class="error" data-testid=${`error-${name}`}>${message}</small>` : null}
  </label>`;
}

/**
 * The labelled, bound text inputs of one form: `input(name, label, attrs?, field?)`, where the
 * test id is `<prefix>-<name>` and `field` is the server's name for it when it differs (`shop.name`).
 */
export function inputsFor<K extends string>(bind: (name: K) => object, error: ApiError | null, prefix: string) {
  return (name: K, label: string, attrs: Record<string, string> = {}, field: string = name) =>
    html`<${Field} label=${label} name=${field} error=${error}><input data-testid=${`${prefix}-${name}`} ...${attrs} ...${bind(name)} /><//>`;
}

/** State for a form's values: `bind(name)` gives an input its value and onInput. */
export function useValues<T extends Record<string, string | boolean>>(initial: T) {
  const [values, setValues] = useState<T>(initial);
  const set = (name: keyof T, value: string | boolean) => setValues((v) => ({ ...v, [name]: value }));
  const bind = (name: keyof T & string) => ({
    name,
    value: values[name] as string,
    onInput: (e: Event) => set(name, (e.currentTarget as HTMLInputElement).value),
  });
  return { values, set, bind, setValues };
}
