/** An expense added (POST /expenses, with the form's Idempotency-Key) or edited (PATCH /expenses/{id}). */
import { EXPENSE_CATEGORIES, type Expense, type ExpenseCategory, PayoutMethod } from '@duka/shared';
import { api } from '../../api.js';
import { t as core } from '../../i18n/core.js';
import { ErrorBanner, Field } from '../../ui/form.js';
import { html } from '../../ui/html.js';
import { Loading, useRecordForm } from '../../ui/record.js';
import { navigate } from '../../ui/router.js';
import { t } from './messages.js';

export function ExpenseForm({ id }: { id?: string }) {
  const {
    values,
    bind,
    set,
    ready,
    loadError,
    submission: form,
  } = useRecordForm({
    read: id ? `/expenses/${id}` : null,
    valuesOf: (x: Expense | null) => ({
      title: x?.title ?? '',
      category: x?.category ?? 'Other',
      amount: x ? String(x.amount) : '',
      payment_method: x?.payment_method ?? 'Cash',
      payment_reference: x?.payment_reference ?? '',
      notes: x?.notes ?? '',
    }),
    save: async (v, idempotencyKey) => {
      const body = {
        title: v.title,
        category: v.category,
        amount: Number(v.amount),
        payment_method: v.payment_method,
        payment_reference: v.payment_reference.trim() || null,
        notes: v.notes.trim() || null,
      };
      if (id) await api('PATCH', `/expenses/${id}`, { body });
      else await api('POST', '/expenses', { body, idempotencyKey });
      navigate('expenses');
    },
  });
  if (!ready) return html`<${Loading} error=${loadError} />`;
  const select = (name: 'category' | 'payment_method', label: string, options: readonly string[], shown = (o: string) => o) =>
    html`<${Field} label=${label} name=${name} error=${form.error}>
      <select data-testid=${`expense-${name}`} value=${values[name]} onChange=${(e: Event) => set(name, (e.currentTarget as HTMLSelectElement).value)}>
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
