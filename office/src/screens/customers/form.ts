/**
 * A customer added (POST /customers) or edited (PATCH /customers/{id}); the input stays on failure.
 * The credit limit is offered only to who holds the `credit` permission: the server refuses anyone
 * else a limit set or changed (shared POWERS.set_credit_limit).
 */
import type { Customer } from '@duka/shared';
import { useEffect } from 'preact/hooks';
import { holds } from '../../access.js';
import { api, get } from '../../api.js';
import { t as core } from '../../i18n/core.js';
import { ErrorBanner, inputsFor, useSubmit, useValues } from '../../ui/form.js';
import { html } from '../../ui/html.js';
import { navigate } from '../../ui/router.js';
import { t } from './messages.js';

export function CustomerForm({ id }: { id?: string }) {
  const { values, bind, setValues } = useValues({ name: '', phone: '', email: '', credit_limit: '', notes: '' });
  useEffect(() => {
    if (!id) return;
    get<Customer>(`/customers/${id}`).then(
      (c) =>
        setValues({ name: c.name, phone: c.phone ?? '', email: c.email ?? '', credit_limit: String(c.credit_limit), notes: c.notes ?? '' }),
      () => {},
    );
  }, [id]);
  const limit = holds('credit');
  const form = useSubmit(async () => {
    const body = {
      name: values.name,
      phone: values.phone.trim() || null,
      email: values.email.trim() || null,
      notes: values.notes.trim() || null,
      ...(limit && values.credit_limit !== '' ? { credit_limit: Number(values.credit_limit) } : {}),
    };
    const { data } = id ? await api<Customer>('PATCH', `/customers/${id}`, { body }) : await api<Customer>('POST', '/customers', { body });
    navigate(`customers/${data.id}`);
  });
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
