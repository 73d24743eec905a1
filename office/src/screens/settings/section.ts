/** What every settings section shares: a titled box (each reads its object with ui/record.ts's `useRead`). */
import type { ComponentChildren } from 'preact';
import type { ApiError } from '../../api.js';
import { ErrorBanner } from '../../ui/form.js';
import { html } from '../../ui/html.js';
import { t } from './messages.js';

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

/** The fields of a form with a value: a PATCH sends only what the owner filled in, secrets above all. */
export function filled(values: Record<string, string | boolean>): Record<string, string | boolean> {
  return Object.fromEntries(Object.entries(values).filter(([, v]) => v !== ''));
}
