/** The line at the bottom: online or not, what waits to be sent, when the till last synced, and conflicts to look at. */
import type { TillStatus } from '@duka/client-sdk';
import { formatTime, t } from '../i18n.js';
import { html } from './html.js';

export function StatusBar({
  status,
  conflicts,
  onConflicts,
  onSignIn,
}: {
  status: TillStatus;
  conflicts: number;
  onConflicts: () => void;
  onSignIn: () => void;
}) {
  const counted = (n: number, many: 'status.conflicts' | 'status.rejected') => (n === 1 ? t(`${many}_one`) : t(many, { n }));
  return html`
    <footer class="status-bar" data-testid="status-bar">
      <span class=${`dot ${status.online ? 'online' : 'offline'}`} data-testid="status-online" data-online=${String(status.online)}>
        ${status.syncing ? t('status.syncing') : status.online ? t('status.online') : t('status.offline')}
      </span>
      <span data-testid="status-pending" data-pending=${status.pending}>${status.pending > 0 ? t('status.pending', { n: status.pending }) : t('status.all_sent')}</span>
      <span data-testid="status-last-sync">${status.lastSyncedAt ? t('status.last_sync', { time: formatTime(status.lastSyncedAt) }) : t('status.never_synced')}</span>
      ${status.rejected > 0 ? html`<button class="badge warn" data-testid="status-rejected" onClick=${onConflicts}>${counted(status.rejected, 'status.rejected')}</button>` : null}
      ${status.authRequired ? html`<button class="badge warn" data-testid="status-sign-in" onClick=${onSignIn}>${t('status.sign_in_again')}</button>` : null}
      ${status.updateRequired ? html`<span class="badge warn">${t('status.update_required')}</span>` : null}
      <button class=${`badge ${conflicts > 0 ? 'warn' : ''}`} data-testid="status-conflicts" data-conflicts=${conflicts} onClick=${onConflicts}>
        ${counted(conflicts, 'status.conflicts')}
      </button>
    </footer>
  `;
}
