/** An expense added (POST /expenses, with the form's Idempotency-Key) or edited (PATCH /expenses/{id}). */
import { EXPENSE_CATEGORIES, type Expense, type ExpenseCategory, PayoutMethod } from '@duka/shared';
import { useEffect } from 'preact/hooks';
import { api, get } from '../../api.js';
import { t as core } from '../../i18n/core.js';
import { ErrorBanner, Field, useSubmit, useValues } from '../../ui/form.js';
import { html } from '../../ui/html.js';
import { navigate } from '../../ui/router.js';
import { t } from './messages.js';

export function ExpenseForm({ id }: { id?: string }) {
  const { values, bind, setValues } = useValues({
    title: '',
    category: 'Other',
    amount: '',
    payment_method: 'Cash',
    payment_reference: '',
    notes: '',
  });
  useEffect(() => {
    if (!id) return;
    get<Expense>(`/expenses/${id}`).then(
      (x) =>
        setValues({
          title: x.title,
          category: x.category,
          amount: String(x.amount),
          payment_method: x.payment_method,
          payment_reference: x.payment_reference ?? '',
          notes: x.notes ?? '',
        }),
      () => {},
    );
  }, [id]);
  const form = useSubmit(async (idempotencyKey) => {
    const body = {
      title: values.title,
      category: values.category,
      amount: Number(values.amount),
      payment_method: values.payment_method,
      payment_reference: values.payment_reference.trim() || null,
      notes: values.notes.trim() || null,
    };
    if (id) await api('PATCH', `/expenses/${id}`, { body });
    else await api('POST', '/expenses', { body, idempotencyKey });
    navigate('expenses');
  });
  const select = (name: 'category' | 'payment_method', label: string, options: readonly string[], shown = (o: string) => o) =>
    html`<${Field} label=${label} name=${name} error=${form.error}>
      <select data-testid=${`expense-${name}`} value=${values[name]} onChange=${(e: Event) => setValues({ ...values, [name]: (e.currentTarget as HTMLSelectElement).value })}>
        ${options.map((o) => html`<option value=${o}>${shown(o)}</option>`)}
      </select>
    <//>`;
  return html`<form class="card stack" onSubmit=${form.submit} data-testid="expense-form">
    <h1>${id ? t('edit') : t('add')}</h1>
    <${ErrorBanner} error=${form.error} />
    <${Field} label=${t('what')} name="title" error=${form.error}><input required data-testid="expense-title" ...${bind('title')} /><//>
    <div class="two">
      ${select('category', t('category'), EXPENSE_CATEGORIES, (c) => t(`cat.${c as ExpenseCategory}`))}
      <${Field} label=${t('amount')} name="amount" error=${form.error}><input required type="number" min="1" step="any" inputmode="decimal" data-testid="expense-amount" ...${bind('amount')} /><//>
    </div>
    <div class="two">
      ${select('payment_method', t('method'), PayoutMethod.options)}
      <${Field} label=${t('reference')} name="payment_reference" error=${form.error}><input ...${bind('payment_reference')} /><//>
    </div>
    <${Field} label=${t('notes')} name="notes" error=${form.error}><input ...${bind('notes')} /><//>
    <div class="actions">
      <button class="primary" type="submit" disabled=${form.busy} data-testid="expense-save">${core('save')}</button>
      <button type="button" onClick=${() => history.back()}>${core('cancel')}</button>
    </div>
  </form>`;
}
