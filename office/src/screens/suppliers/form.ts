/** A supplier added (POST /suppliers) or edited (PATCH /suppliers/{id}), its email and lead time for orders; the input stays on failure. */
import type { Supplier } from '@duka/shared';
import { useEffect } from 'preact/hooks';
import { api, get } from '../../api.js';
import { t as core } from '../../i18n/core.js';
import { ErrorBanner, inputsFor, useSubmit, useValues } from '../../ui/form.js';
import { html } from '../../ui/html.js';
import { navigate } from '../../ui/router.js';
import { t } from './messages.js';
import { t as orders } from './orders-messages.js';

export function SupplierForm({ id }: { id?: string }) {
  const { values, bind, setValues } = useValues({
    name: '',
    phone: '',
    email: '',
    rep: '',
    category: '',
    payment_terms: '',
    lead_time_days: '',
  });
  useEffect(() => {
    if (!id) return;
    get<Supplier>(`/suppliers/${id}`).then(
      (s) =>
        setValues({
          name: s.name,
          phone: s.phone ?? '',
          email: s.email ?? '',
          rep: s.rep ?? '',
          category: s.category ?? '',
          payment_terms: s.payment_terms?.toString() ?? '',
          lead_time_days: s.lead_time_days?.toString() ?? '',
        }),
      () => {},
    );
  }, [id]);
  const form = useSubmit(async () => {
    const body = {
      name: values.name,
      phone: values.phone.trim() || null,
      email: values.email.trim() || null,
      rep: values.rep.trim() || null,
      category: values.category.trim() || null,
      payment_terms: values.payment_terms ? Number(values.payment_terms) : null,
      lead_time_days: values.lead_time_days ? Number(values.lead_time_days) : null,
    };
    const { data } = id ? await api<Supplier>('PATCH', `/suppliers/${id}`, { body }) : await api<Supplier>('POST', '/suppliers', { body });
    navigate(`suppliers/${data.id}`);
  });
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
