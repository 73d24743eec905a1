/**
 * A customer added (POST /customers) or edited (PATCH /customers/{id}); the input stays on failure.
 * The credit limit is offered only to who holds the `credit` permission: the server refuses anyone
 * else a limit set or changed (shared POWERS.set_credit_limit).
 */
import type { Customer } from '@duka/shared';
import { holds } from '../../access.js';
import { api } from '../../api.js';
import { t as core } from '../../i18n/core.js';
import { ErrorBanner, inputsFor } from '../../ui/form.js';
import { html } from '../../ui/html.js';
import { Loading, useRecordForm } from '../../ui/record.js';
import { navigate } from '../../ui/router.js';
import { t } from './messages.js';

export function CustomerForm({ id }: { id?: string }) {
  const limit = holds('credit');
  const {
    bind,
    ready,
    loadError,
    submission: form,
  } = useRecordForm({
    read: id ? `/customers/${id}` : null,
    valuesOf: (c: Customer | null) => ({
      name: c?.name ?? '',
      phone: c?.phone ?? '',
      email: c?.email ?? '',
      credit_limit: c ? String(c.credit_limit) : '',
      notes: c?.notes ?? '',
    }),
    save: async (v) => {
      const body = {
        name: v.name,
        phone: v.phone.trim() || null,
        email: v.email.trim() || null,
        notes: v.notes.trim() || null,
        ...(limit && v.credit_limit !== '' ? { credit_limit: Number(v.credit_limit) } : {}),
      };
      const { data } = id
        ? await api<Customer>('PATCH', `/customers/${id}`, { body })
        : await api<Customer>('POST', '/customers', { body });
      navigate(`customers/${data.id}`);
    },
  });
  if (!ready) return html`<${Loading} error=${loadError} />`;
  const input = inputsFor(bind, form.error, 'customer');
  return html`<form class="card stack" onSubmit=${form.submit} data-testid="customer-form">
    <h1>${id ? t('edit') : t('add')}</h1>
    <${ErrorBanner} error=${form.error} />
    ${input('name', t('name'), { required: 'true' })}
    <div class="two">${input('phone', t('phone'), { type: 'tel' })} ${input('email', t('email'), { type: 'email' })}</div>
    ${limit ? input('credit_limit', t('limit'), { type: 'number', min: '0', inputmode: 'numeric' }) : null}
    ${input('notes', t('notes'))}
    <div class="actions">
      <button class="primary" type="submit" disabled=${form.busy} data-testid="customer-save">${core('save')}</button>
      <button type="button" onClick=${() => history.back()}>${core('cancel')}</button>
    </div>
  </form>`;
}
