/**
 * A confirm step for what cannot be taken back (deactivating, resetting a password, voiding): the
 * first button opens the question inline, the second does it; Cancel (or Escape) closes it.
 */
import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { t } from '../i18n/core.js';
import { html } from './html.js';

export function Confirm({
  label,
  confirm,
  body,
  testid,
  danger = false,
  onConfirm,
  busy = false,
}: {
  label: string;
  confirm: string;
  body: ComponentChildren;
  testid: string;
  danger?: boolean;
  onConfirm: () => void;
  busy?: boolean;
}) {
  const [asking, setAsking] = useState(false);
  if (!asking)
    return html`<button class=${danger ? 'danger' : ''} data-testid=${testid} onClick=${() => setAsking(true)}>${label}</button>`;
  return html`<div class="confirm" role="alertdialog" data-testid=${`${testid}-ask`} onKeyDown=${(e: KeyboardEvent) => e.key === 'Escape' && setAsking(false)}>
    <p>${body}</p>
    <div class="actions">
      <button class=${danger ? 'danger primary' : 'primary'} disabled=${busy} data-testid=${`${testid}-confirm`} onClick=${onConfirm} autofocus>${confirm}</button>
      <button onClick=${() => setAsking(false)}>${t('cancel')}</button>
    </div>
  </div>`;
}
