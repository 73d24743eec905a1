/** A supplier added (POST /suppliers) or edited (PATCH /suppliers/{id}), its email and lead time for orders; the input stays on failure. */
import type { Supplier } from '@duka/shared';
import { api } from '../../api.js';
import { t as core } from '../../i18n/core.js';
import { ErrorBanner, inputsFor } from '../../ui/form.js';
import { html } from '../../ui/html.js';
import { Loading, useRecordForm } from '../../ui/record.js';
import { navigate } from '../../ui/router.js';
import { t } from './messages.js';
import { t as orders } from './orders-messages.js';

export function SupplierForm({ id }: { id?: string }) {
  const {
    bind,
    ready,
    loadError,
    submission: form,
  } = useRecordForm({
    read: id ? `/suppliers/${id}` : null,
    valuesOf: (s: Supplier | null) => ({
      name: s?.name ?? '',
      phone: s?.phone ?? '',
      email: s?.email ?? '',
      rep: s?.rep ?? '',
      category: s?.category ?? '',
      payment_terms: s?.payment_terms?.toString() ?? '',
      lead_time_days: s?.lead_time_days?.toString() ?? '',
    }),
    save: async (v) => {
      const body = {
        name: v.name,
        phone: v.phone.trim() || null,
        email: v.email.trim() || null,
        rep: v.rep.trim() || null,
        category: v.category.trim() || null,
        payment_terms: v.payment_terms ? Number(v.payment_terms) : null,
      };
      const { data } = id
        ? await api<Supplier>('PATCH', `/suppliers/${id}`, { body })
        : await api<Supplier>('POST', '/suppliers', { body });
      navigate(`suppliers/${data.id}`);
    },
  });
  if (!ready) return html`<${Loading} error=${loadError} />`;
  const input = inputsFor(bind, form.error, 'supplier');
  return html`<form class="card stack" onSubmit=${form.submit} data-testid="supplier-form">
    <h1>${id ? t('edit') : t('add')}</h1>
    <${ErrorBanner} error=${form.error} />
    ${input('name', t('name'), { required: 'true' })}
    <div class="two">${input('phone', t('phone'), { type: 'tel' })} ${input('rep', t('rep'))}</div>
    <div class="two">${input('email', orders('email'), { type: 'email' })} ${input('lead_time_days', orders('lead_time'), { type: 'number', min: '0', inputmode: 'numeric' })}</div>
    <div class="two">${input('category', t('category'))} ${input('payment_terms', t('terms'), { type: 'number', min: '0', inputmode: 'numeric' })}</div>
    <div class="actions">
      <button class="primary" type="submit" disabled=${form.busy} data-testid="supplier-save">${core('save')}</button>
      <button type="button" onClick=${() => history.back()}>${core('cancel')}</button>
    </div>
  </form>`;
}
