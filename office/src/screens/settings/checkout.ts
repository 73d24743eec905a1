/**
 * Changing plan (POST /subscriptions/checkout): a paid plan, its cycle, and the phone and network
 * the money comes from. The server answers what it did: a payment pushed to the phone (the section
 * then waits for it, billing.ts), a push the provider refused (its words shown), a downgrade
 * waiting for the period end, or a cancellation undone. The route takes no Idempotency-Key (a
 * push is never replayed): the button is disabled while the request is out.
 */
import type { CheckoutResult, Plan } from '@duka/shared';
import { useState } from 'preact/hooks';
import { api } from '../../api.js';
import { lang, tsh } from '../../i18n/lang.js';
import { ErrorBanner, Field, useSubmit, useValues } from '../../ui/form.js';
import { html } from '../../ui/html.js';
import { t } from './messages.js';

export const NETWORKS = ['mpesa', 'airtel', 'tigo', 'halopesa', 'azampesa'] as const;
type Cycle = 'monthly' | 'yearly';

export const planName = (p: Pick<Plan, 'name_en' | 'name_sw'>) => (lang.value === 'sw' ? p.name_sw : p.name_en);

/** A payment pushed to the owner's phone, waiting for the owner to confirm it there. */
export interface Waiting {
  plan_code: string;
  billing_cycle: Cycle;
  amount: number;
  phone: string;
  /** Polled long enough without the plan changing: the page stops asking. */
  gaveUp?: boolean;
}

export function Checkout({ plans, onStarted, onChanged }: { plans: Plan[]; onStarted: (w: Waiting) => void; onChanged: () => void }) {
  const { values, bind, set } = useValues({ plan_code: '', billing_cycle: 'monthly', phone: '', network: 'mpesa' });
  const [result, setResult] = useState<CheckoutResult | null>(null);
  const form = useSubmit(async () => {
    setResult(null);
    const done = (await api<CheckoutResult>('POST', '/subscriptions/checkout', { body: values })).data;
    setResult(done);
    if (done.payment?.status === 'pending')
      onStarted({
        plan_code: values.plan_code,
        billing_cycle: values.billing_cycle as Cycle,
        amount: done.payment.amount,
        phone: done.payment.phone,
      });
    onChanged();
  });
  const choose = (name: 'plan_code' | 'billing_cycle' | 'network') => ({
    ...bind(name),
    onChange: (e: Event) => set(name, (e.currentTarget as HTMLSelectElement).value),
  });
  // Free is not bought: the way back to it is "Return to free" (the API refuses a checkout of it).
  // The plan running stays on the list: another cycle, or staying on it after cancelling.
  const offered = plans.filter((p) => p.status === 'active' && p.code !== 'free');
  if (!offered.length) return null;
  const price = (p: Plan) =>
    values.billing_cycle === 'yearly'
      ? t('plan.price_yearly', { price: tsh(p.price_yearly) })
      : t('plan.price', { monthly: tsh(p.price_monthly) });
  const refused = result?.payment?.status === 'failed' ? result.payment : null;
  return html`<details class="add">
    <summary data-testid="plan-change">${t('plan.choose')}</summary>
    <form class="form-grid" onSubmit=${form.submit} data-testid="plan-form">
      <${ErrorBanner} error=${form.error} />
      <${Field} label=${t('plan.plan')} name="plan_code" error=${form.error}>
        <select ...${choose('plan_code')} required>
          <option value=""></option>
          ${offered.map((p) => html`<option value=${p.code}>${planName(p)} · ${price(p)}</option>`)}
        </select>
      </${Field}>
      <${Field} label=${t('plan.cycle')} name="billing_cycle" error=${form.error}>
        <select ...${choose('billing_cycle')}><option value="monthly">${t('plan.monthly')}</option><option value="yearly">${t('plan.yearly')}</option></select>
      </${Field}>
      <${Field} label=${t('plan.phone')} name="phone" error=${form.error}><input ...${bind('phone')} type="tel" autocomplete="tel" required /></${Field}>
      <${Field} label=${t('plan.network')} name="network" error=${form.error}>
        <select ...${choose('network')}>${NETWORKS.map((n) => html`<option value=${n}>${t(`net.${n}`)}</option>`)}</select>
      </${Field}>
      ${refused ? html`<p class="banner error" role="alert" data-testid="plan-refused">${t('plan.refused', { detail: refused.detail ?? '' })}</p>` : null}
      ${result?.change === 'scheduled' ? html`<p class="banner ok" role="status" data-testid="plan-scheduled">${t('plan.scheduled_done')}</p>` : null}
      ${result?.change === 'resumed' ? html`<p class="banner ok" role="status" data-testid="plan-resumed">${t('plan.resumed')}</p>` : null}
      <button type="submit" class="primary" disabled=${form.busy} data-testid="plan-pay">${t('plan.pay')}</button>
    </form>
  </details>`;
}
