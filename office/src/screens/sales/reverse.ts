/**
 * A refund or a void of the whole sale, with its reason. A refund carries the form's
 * Idempotency-Key (POST /refund honours one: a retry after a lost answer refunds once); a void is
 * refused a second time by the server (the sale is void already).
 */
import type { Transaction } from '@duka/shared';
import { api } from '../../api.js';
import { t as core } from '../../i18n/core.js';
import { ErrorBanner, Field, useSubmit, useValues } from '../../ui/form.js';
import { html } from '../../ui/html.js';
import { t } from './messages.js';

export function Reverse({
  sale,
  move,
  onDone,
  onCancel,
}: {
  sale: Transaction;
  move: 'refund' | 'void';
  onDone: (sale: Transaction) => void;
  onCancel: () => void;
}) {
  const form = useValues({ reason: '' });
  const save = useSubmit(async (idempotencyKey) => {
    const body = { reason: form.values.reason };
    const path = `/pos/transactions/${sale.id}/${move}`;
    onDone((await api<Transaction>('POST', path, move === 'refund' ? { body, idempotencyKey } : { body })).data);
  });
  return html`<form class="stack card no-print" data-testid=${`${move}-form`} onSubmit=${save.submit}>
    <h2>${t(`${move}.title`)}</h2>
    <${ErrorBanner} error=${save.error} />
    <${Field} label=${t('reason')} name="reason" error=${save.error}>
      <input data-testid=${`${move}-reason`} required maxLength=${500} ...${form.bind('reason')} autofocus />
    </${Field}>
    <div class="actions">
      <button class=${move === 'void' ? 'danger primary' : 'primary'} type="submit" disabled=${save.busy} data-testid=${`${move}-submit`}>
        ${save.busy ? core('loading') : t(`${move}.submit`)}
      </button>
      <button type="button" onClick=${onCancel}>${core('cancel')}</button>
    </div>
  </form>`;
}
