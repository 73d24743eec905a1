/**
 * Plan and billing (GET /subscriptions/current, /plans, /invoices; POST /checkout, /cancel): the
 * plan and its period, changing plan by a mobile-money push to the owner's phone, returning to
 * free at the period's end, and the invoices.
 */
import type { CurrentSubscription, Invoice, Plan } from '@duka/shared';
import { may } from '../../access.js';
import { api } from '../../api.js';
import { lang, tsh, when } from '../../i18n/lang.js';
import { ErrorBanner, Field, useSubmit, useValues } from '../../ui/form.js';
import { html } from '../../ui/html.js';
import { Loading, useRead } from '../../ui/record.js';
import { type Column, List, useList } from '../../ui/list.js';
import { t } from './messages.js';
import { Section } from './section.js';

const NETWORKS = ['mpesa', 'airtel', 'tigo', 'halopesa', 'azampesa'] as const;
const planName = (p: Pick<Plan, 'name_en' | 'name_sw'>) => (lang.value === 'sw' ? p.name_sw : p.name_en);

export function BillingSection() {
  const current = useRead<CurrentSubscription>('/subscriptions/current');
  const s = current.data;
  const cancel = useSubmit(async () => current.setData((await api<CurrentSubscription>('POST', '/subscriptions/cancel')).data));
  return html`<${Section} id="billing" title=${t('plan.title')} error=${current.error}>
    ${
      !s
        ? current.error
          ? null
          : html`<${Loading} />`
        : html`<p data-testid="plan-current"><strong>${t('plan.current', { plan: planName(s.plan), status: s.status })}</strong>
            ${s.current_period_end ? html`<br /><span class="muted">${t('plan.until', { date: when(s.current_period_end) })}</span>` : null}
            ${s.cancel_at_period_end ? html`<br /><span class="muted">${t('plan.cancelling')}</span>` : null}</p>`
    }
    <${ErrorBanner} error=${cancel.error} />
    ${s && s.plan.code !== 'free' && !s.cancel_at_period_end && may('POST /subscriptions/cancel') ? html`<button type="button" class="link" disabled=${cancel.busy} onClick=${cancel.submit}>${t('plan.cancel')}</button>` : null}
    ${may('POST /subscriptions/checkout') ? html`<${Checkout} current=${s} onDone=${current.reload} />` : null}
    ${may('GET /subscriptions/invoices') ? html`<${Invoices} />` : null}
  </${Section}>`;
}

function Checkout({ current, onDone }: { current: CurrentSubscription | null; onDone: () => void }) {
  const plans = useRead<Plan[]>(may('GET /subscriptions/plans') ? '/subscriptions/plans' : null);
  const { values, bind, set } = useValues({ plan_code: '', billing_cycle: 'monthly', phone: '', network: 'mpesa' });
  const form = useSubmit(async (idempotencyKey) => {
    await api('POST', '/subscriptions/checkout', { body: values, idempotencyKey });
    onDone();
  });
  const choose = (name: 'plan_code' | 'billing_cycle' | 'network') => ({
    ...bind(name),
    onChange: (e: Event) => set(name, (e.currentTarget as HTMLSelectElement).value),
  });
  const offered = (plans.data ?? []).filter((p) => p.status === 'active' && p.code !== current?.plan.code);
  if (!offered.length) return null;
  return html`<details class="add">
    <summary>${t('plan.choose')}</summary>
    <form class="form-grid" onSubmit=${form.submit}>
      <${ErrorBanner} error=${form.error} />
      <${Field} label=${t('plan.choose')} name="plan_code" error=${form.error}>
        <select ...${choose('plan_code')} required>
          <option value=""></option>
          ${offered.map((p) => html`<option value=${p.code}>${planName(p)} · ${t('plan.price', { monthly: tsh(p.price_monthly) })}</option>`)}
        </select>
      </${Field}>
      <${Field} label=${t('plan.cycle')} name="billing_cycle" error=${form.error}>
        <select ...${choose('billing_cycle')}><option value="monthly">${t('plan.monthly')}</option><option value="yearly">${t('plan.yearly')}</option></select>
      </${Field}>
      <${Field} label=${t('plan.phone')} name="phone" error=${form.error}><input ...${bind('phone')} type="tel" required /></${Field}>
      <${Field} label=${t('plan.network')} name="network" error=${form.error}>
        <select ...${choose('network')}>${NETWORKS.map((n) => html`<option value=${n}>${n}</option>`)}</select>
      </${Field}>
      ${form.done && !form.error ? html`<p class="banner ok" role="status">${t('plan.started')}</p>` : null}
      <button type="submit" class="primary" disabled=${form.busy}>${t('plan.pay')}</button>
    </form>
  </details>`;
}

function Invoices() {
  const { rows, error } = useList<Invoice>('/subscriptions/invoices', { per_page: 10 });
  const columns: Column<Invoice>[] = [
    { label: '#', cell: (i) => i.number },
    { label: t('plan.cycle'), cell: (i) => `${i.plan_code} · ${i.billing_cycle}` },
    { label: 'TSh', cell: (i) => tsh(i.amount), num: true },
    { label: '', cell: (i) => `${i.status} ${i.paid_at ? when(i.paid_at) : ''}` },
  ];
  return html`<h3>${t('plan.invoices')}</h3><${ErrorBanner} error=${error} />${rows ? html`<${List} columns=${columns} rows=${rows} testid="invoices" />` : null}`;
}
