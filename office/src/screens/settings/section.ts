/** What every settings section shares: one object read from the API (again on `reload`), and a titled box. */
import type { ComponentChildren } from 'preact';
import { useCallback, useEffect, useState } from 'preact/hooks';
import { type ApiError, api } from '../../api.js';
import { t as core } from '../../i18n/core.js';
import { ErrorBanner } from '../../ui/form.js';
import { html } from '../../ui/html.js';
import { t } from './messages.js';

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

export function Section({
  id,
  title,
  error,
  children,
}: {
  id: string;
  title: string;
  error?: ApiError | null;
  children: ComponentChildren;
}) {
  return html`<section class="settings-section card" data-testid=${`settings-${id}`} aria-labelledby=${`settings-${id}-title`}>
    <h2 id=${`settings-${id}-title`}>${title}</h2>
    <${ErrorBanner} error=${error} />
    ${children}
  </section>`;
}

/** "set" / "not set" beside a write-only secret: the secret itself never comes back. */
export const SecretState = ({ set, testid }: { set: boolean; testid: string }) =>
  html`<small class=${set ? 'ok' : 'muted'} data-testid=${testid}>${set ? t('secret.set') : t('secret.unset')}</small>`;

export const Loading = () => html`<p class="muted">${core('loading')}</p>`;

/** The fields of a form with a value: a PATCH sends only what the owner filled in, secrets above all. */
export function filled(values: Record<string, string | boolean>): Record<string, string | boolean> {
  return Object.fromEntries(Object.entries(values).filter(([, v]) => v !== ''));
}
