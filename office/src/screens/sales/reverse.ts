/**
 * A void of the whole sale, with its reason. The server refuses it a second time (the sale is void
 * already), so it carries no Idempotency-Key. A refund has its own form (refund.ts).
 */
import type { Transaction } from '@duka/shared';
import { api } from '../../api.js';
import { t as core } from '../../i18n/core.js';
import { ErrorBanner, Field, useSubmit, useValues } from '../../ui/form.js';
import { html } from '../../ui/html.js';
import { t } from './messages.js';

export function Reverse({ sale, onDone, onCancel }: { sale: Transaction; onDone: (sale: Transaction) => void; onCancel: () => void }) {
  const form = useValues({ reason: '' });
  const save = useSubmit(async () => {
    const body = { reason: form.values.reason };
    onDone((await api<Transaction>('POST', `/pos/transactions/${sale.id}/void`, { body })).data);
  });
  return html`<form class="stack card no-print" data-testid="void-form" onSubmit=${save.submit}>
    <h2>${t('void.title')}</h2>
    <${ErrorBanner} error=${save.error} />
    <${Field} label=${t('reason')} name="reason" error=${save.error}>
      <input data-testid="void-reason" required maxLength=${500} ...${form.bind('reason')} autofocus />
    </${Field}>
    <div class="actions">
      <button class="danger primary" type="submit" disabled=${save.busy} data-testid="void-submit">
        ${save.busy ? core('loading') : t('void.submit')}
      </button>
      <button type="button" onClick=${onCancel}>${core('cancel')}</button>
    </div>
  </form>`;
}
