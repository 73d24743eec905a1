/**
 * A payment taken or made (a customer's credit, a supplier's delivery): amount, method and
 * reference, one Idempotency-Key per payment kept until the server has it, so a payment retried
 * after a lost answer is recorded once. The amount stays typed after a failure.
 */
import { api } from '../api.js';
import { messages } from '../i18n/lang.js';
import { ErrorBanner, Field, useSubmit, useValues } from './form.js';
import { html } from './html.js';

const t = messages(
  { amount: 'Amount (TSh)', method: 'Method', reference: 'Reference (optional)', done: 'Payment recorded.' },
  { amount: 'Kiasi (TSh)', method: 'Njia', reference: 'Kumbukumbu (si lazima)', done: 'Malipo yamerekodiwa.' },
);

export function PayForm({
  path,
  methodField,
  methods,
  title,
  testid,
  onDone,
}: {
  path: string;
  /** What the route calls the method: `method` (credits) or `payment_method` (suppliers). */
  methodField: string;
  methods: readonly string[];
  title: string;
  testid: string;
  onDone: () => void;
}) {
  const { values, bind, setValues } = useValues({ amount: '', method: methods[0] ?? '', reference: '' });
  const form = useSubmit(async (idempotencyKey) => {
    await api('POST', path, {
      idempotencyKey,
      body: {
        amount: Number(values.amount),
        [methodField]: values.method,
        ...(values.reference.trim() ? { reference: values.reference.trim() } : {}),
      },
    });
    setValues({ amount: '', method: values.method, reference: '' });
    onDone();
  });
  return html`<form class="panel stack" onSubmit=${form.submit} data-testid=${testid}>
    <h2>${title}</h2>
    <${ErrorBanner} error=${form.error} />
    ${form.done ? html`<p class="banner ok" role="status" data-testid=${`${testid}-done`}>${t('done')}</p>` : null}
    <div class="two">
      <${Field} label=${t('amount')} name="amount" error=${form.error}>
        <input required type="number" min="1" step="any" inputmode="decimal" data-testid=${`${testid}-amount`} ...${bind('amount')} />
      <//>
      <${Field} label=${t('method')} name=${methodField} error=${form.error}>
        <select data-testid=${`${testid}-method`} value=${values.method} onChange=${(e: Event) => setValues({ ...values, method: (e.currentTarget as HTMLSelectElement).value })}>
          ${methods.map((m) => html`<option value=${m}>${m}</option>`)}
        </select>
      <//>
    </div>
    <${Field} label=${t('reference')} name="reference" error=${form.error}>
      <input data-testid=${`${testid}-reference`} ...${bind('reference')} />
    <//>
    <button class="primary" type="submit" disabled=${form.busy} data-testid=${`${testid}-submit`}>${title}</button>
  </form>`;
}
