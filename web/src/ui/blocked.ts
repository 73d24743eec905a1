/** What the cashier sees when the till cannot open: another tab has it, the browser cannot keep sales, or it failed. */
import { t } from '../i18n.js';
import type { HostState } from '../till-host.js';
import { html } from './html.js';

export function Blocked({ state }: { state: Exclude<HostState, { kind: 'open' } | { kind: 'opening' }> }) {
  const [title, body] =
    state.kind === 'elsewhere'
      ? [t('blocked.elsewhere.title'), t('blocked.elsewhere.body')]
      : state.kind === 'no-storage'
        ? [t('blocked.storage.title'), t('blocked.storage.body')]
        : [t('blocked.failed.title'), state.message];
  return html`
    <main class="blocked" data-testid=${`blocked-${state.kind}`}>
      <h1>${title}</h1>
      <p>${body}</p>
      ${state.kind === 'no-storage' ? html`<p class="detail">${state.message}</p>` : null}
      <button data-testid="reload" onClick=${() => location.reload()}>${t('reload')}</button>
    </main>
  `;
}
