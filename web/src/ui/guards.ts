/**
 * What keeps a cashier from losing a sale by accident: signing out is refused while work waits to
 * be sent, closing the tab asks first, the owner is told once when the browser would not promise to
 * keep the till's storage, and keys typed outside a field go to the scan field (a wedge scanner's
 * digits and Enter would otherwise press whatever button last had the focus).
 */
import type { Till } from '@duka/client-sdk';
import { useEffect, useState } from 'preact/hooks';
import { t } from '../i18n.js';
import { html } from './html.js';

export function useUnsentGuard(pending: number): void {
  useEffect(() => {
    if (pending === 0) return;
    const ask = (e: BeforeUnloadEvent) => {
      e.preventDefault();
      e.returnValue = '';
    };
    window.addEventListener('beforeunload', ask);
    return () => window.removeEventListener('beforeunload', ask);
  }, [pending > 0]);
}

const editable = (el: Element | null): boolean =>
  !!el &&
  (el instanceof HTMLInputElement ||
    el instanceof HTMLTextAreaElement ||
    el instanceof HTMLSelectElement ||
    (el as HTMLElement).isContentEditable);

/** While selling, a printable key or Enter typed outside any field lands in the scan field. */
export function useScanFocus(active: boolean): void {
  useEffect(() => {
    if (!active) return;
    const redirect = (e: KeyboardEvent) => {
      if (e.ctrlKey || e.metaKey || e.altKey || editable(document.activeElement)) return;
      if (e.key.length !== 1 && e.key !== 'Enter') return;
      const scan = document.querySelector<HTMLInputElement>('[data-testid="scan-input"]');
      if (!scan || !scan.offsetParent) return;
      if (e.key === 'Enter') e.preventDefault(); // not a press of the focused button
      scan.focus();
    };
    document.addEventListener('keydown', redirect, true);
    return () => document.removeEventListener('keydown', redirect, true);
  }, [active]);
}

export function SignOutBlocked({ till, pending, onClose }: { till: Till; pending: number; onClose: () => void }) {
  const [sending, setSending] = useState(false);
  // What "Send now" came to, when the queue did not empty: offline, or the server not reached.
  const [outcome, setOutcome] = useState<string | null>(null);
  // Once everything has gone, the dialog has nothing left to guard.
  useEffect(() => void (pending === 0 && onClose()), [pending]);
  const send = async () => {
    setOutcome(null);
    if (!till.status().online) return setOutcome(t('signout.offline'));
    setSending(true);
    try {
      await till.syncNow();
      if (!till.status().online) setOutcome(t('signout.offline'));
    } catch (e) {
      setOutcome(
        till.status().online ? t('signout.not_sent', { message: e instanceof Error ? e.message : String(e) }) : t('signout.offline'),
      );
    } finally {
      setSending(false);
    }
  };
  return html`
    <div class="overlay" data-testid="sign-out-blocked" role="alertdialog" onKeyDown=${(e: KeyboardEvent) => e.key === 'Escape' && onClose()}>
      <div class="sheet">
        <h2>${t('signout.blocked.title')}</h2>
        <p>${t('signout.blocked.body', { n: pending })}</p>
        ${outcome ? html`<p class="warn" role="status" data-testid="sign-out-send-outcome">${outcome}</p>` : null}
        <div class="actions">
          <button data-testid="sign-out-send" disabled=${sending} onClick=${send}>${t('signout.send_now')}</button>
          <button class="primary" data-testid="sign-out-stay" onClick=${onClose} autofocus>${t('signout.stay')}</button>
        </div>
      </div>
    </div>
  `;
}

const WARNED_KEY = 'duka.till.storage-warned';

/** Shown once per browser to the owner when `navigator.storage.persist()` was refused. */
export function StorageWarning() {
  const [show, setShow] = useState(false);
  useEffect(() => {
    if (localStorage.getItem(WARNED_KEY) === '1') return;
    void navigator.storage?.persisted?.().then((kept) => setShow(!kept));
  }, []);
  if (!show) return null;
  const dismiss = () => {
    localStorage.setItem(WARNED_KEY, '1');
    setShow(false);
  };
  return html`
    <p class="banner warn no-print" role="alert" data-testid="storage-warning">
      ${t('storage.not_persisted')} <button data-testid="storage-warning-dismiss" onClick=${dismiss}>${t('storage.dismiss')}</button>
    </p>
  `;
}
