/**
 * What the server noted while booking this till's offline sales (sold at an old price, oversold,
 * …): each kind named in the till's language; the server's own sentence, with the product and the
 * figures, stays as it came (English).
 */
import type { Till, TillConflict } from '@duka/client-sdk';
import { formatTime, t } from '../i18n.js';
import { useLoad } from './hooks.js';
import { html } from './html.js';

export function Conflicts({ till, version }: { till: Till; version: number }) {
  const conflicts = useLoad(() => till.conflicts(), [till, version], [] as TillConflict[]);
  return html`
    <section class="conflicts" data-testid="conflicts">
      <h2>${t('conflicts.title')}</h2>
      <p class="hint">${conflicts.length === 0 ? t('conflicts.none') : t('conflicts.explain')}</p>
      <ul>
        ${conflicts.map(
          (c) => html`
            <li key=${c.mutation_id + c.kind + (c.product_id ?? '')} data-testid="conflict" data-kind=${c.kind}>
              <span class="kind">${t(`conflict.kind.${c.kind}`)}</span>
              <span class="message">${c.message}</span>
              <time>${formatTime(c.created_at)}</time>
            </li>
          `,
        )}
      </ul>
    </section>
  `;
}
