/** The first sync after signing in: the whole shop comes down, with a progress bar from the till's `progress` events. */
import type { BootstrapProgress, Till } from '@duka/client-sdk';
import { useCallback, useEffect, useState } from 'preact/hooks';
import { t } from '../i18n.js';
import { errorText } from './errors.js';
import { useTillEvent } from './hooks.js';
import { html } from './html.js';

export function Bootstrap({ till }: { till: Till }) {
  const [progress, setProgress] = useState<BootstrapProgress | null>(null);
  const [error, setError] = useState<string | null>(null);
  useTillEvent(
    till,
    'progress',
    useCallback((p: BootstrapProgress) => setProgress(p), []),
  );

  const start = useCallback(() => {
    setError(null);
    // The till retries by itself; the error only tells the cashier why it is taking long.
    till.syncNow().catch((e) => setError(errorText(e)));
  }, [till]);
  useEffect(start, [start]);

  const pct = progress && progress.total > 0 ? Math.min(100, Math.round((progress.done / progress.total) * 100)) : 0;
  return html`
    <main class="bootstrap" data-testid="bootstrap">
      <h1>${t('bootstrap.title')}</h1>
      <progress data-testid="bootstrap-progress" max="100" value=${pct}></progress>
      <p>${progress ? t('bootstrap.rows', { done: progress.done, total: progress.total }) : t('bootstrap.waiting')}</p>
      ${error ? html`<p class="error" role="alert">${error}</p><button onClick=${start}>${t('reload')}</button>` : null}
    </main>
  `;
}
