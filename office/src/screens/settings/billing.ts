/**
 * Plan and billing (GET /subscriptions/current, /plans, /invoices; POST /checkout, /cancel): the
 * plan, its status and period and what waits for the period end, changing plan by a mobile-money
 * push (checkout.ts), returning to free at the period end, and the last invoices. While a pushed
 * payment waits for the owner's confirmation on the phone, the plan is read again every few
 * seconds: the page shows the new plan as soon as the provider has told the server it was paid.
 */
import type { CurrentSubscription, Invoice, Plan } from '@duka/shared';
import { useEffect, useState } from 'preact/hooks';
import { may } from '../../access.js';
import { api } from '../../api.js';
import { tsh, when } from '../../i18n/lang.js';
import { ErrorBanner, useSubmit } from '../../ui/form.js';
import { html } from '../../ui/html.js';
import { Loading, useRead } from '../../ui/record.js';
import { type Column, List, useList } from '../../ui/list.js';
import { Checkout, planName, type Waiting } from './checkout.js';
import { t } from './messages.js';
import { Section } from './section.js';

/** How often, and how long, the plan is read again while a payment waits on the phone. */
const POLL_MS = 2_000;
const POLL_FOR_MS = 10 * 60_000;

/** What the checkout paid for is in force: its plan and cycle, active. */
const arrived = (s: CurrentSubscription, w: Waiting) =>
  s.plan.code === w.plan_code && s.billing_cycle === w.billing_cycle && s.status === 'active';

export function BillingSection() {
  const current = useRead<CurrentSubscription>('/subscriptions/current');
  const plans = useRead<Plan[]>(may('GET /subscriptions/plans') ? '/subscriptions/plans' : null);
  const s = current.data;
  const [waiting, setWaiting] = useState<Waiting | null>(null);
  const [paid, setPaid] = useState(false);
  // Bumped to read the invoices again: a checkout adds one, a payment marks it paid.
  const [invoicesTick, setInvoicesTick] = useState(0);
  const cancel = useSubmit(async () => current.setData((await api<CurrentSubscription>('POST', '/subscriptions/cancel')).data));

  useEffect(() => {
    if (!waiting || waiting.gaveUp) return;
    const until = Date.now() + POLL_FOR_MS;
    const timer = setInterval(() => (Date.now() > until ? setWaiting({ ...waiting, gaveUp: true }) : current.reload()), POLL_MS);
    return () => clearInterval(timer);
  }, [waiting]);
  useEffect(() => {
    if (!waiting || !s || !arrived(s, waiting)) return;
    setWaiting(null);
    setPaid(true);
    setInvoicesTick((n) => n + 1);
  }, [s]);

  const nameOf = (code: string) => {
    const p = plans.data?.find((x) => x.code === code);
    return p ? planName(p) : code;
  };
  return html`<${Section} id="billing" title=${t('plan.title')} error=${current.error}>
    ${
      !s
        ? current.error
          ? null
          : html`<${Loading} />`
        : html`<p data-testid="plan-current"><strong>${t('plan.current', { plan: planName(s.plan), status: t(`plan.status.${s.status}`) })}</strong>
            ${s.current_period_end ? html`<br /><span class="muted">${t('plan.until', { date: when(s.current_period_end) })}</span>` : null}
            ${s.cancel_at_period_end ? html`<br /><span class="muted" data-testid="plan-cancelling">${t('plan.cancelling')}</span>` : null}
            ${
              s.scheduled_change && !s.cancel_at_period_end
                ? html`<br /><span class="muted" data-testid="plan-scheduled-change">${t('plan.changes', { plan: nameOf(s.scheduled_change.plan_code), date: when(s.scheduled_change.at) })}</span>`
                : null
            }</p>`
    }
    ${
      waiting
        ? html`<p class=${`banner ${waiting.gaveUp ? 'error' : 'ok'}`} role="status" data-testid="plan-waiting">
            ${t(waiting.gaveUp ? 'plan.not_yet' : 'plan.waiting', { amount: tsh(waiting.amount), phone: waiting.phone, plan: nameOf(waiting.plan_code) })}</p>`
        : paid && s
          ? html`<p class="banner ok" role="status" data-testid="plan-paid">${t('plan.paid', { plan: planName(s.plan) })}</p>`
          : null
    }
    <${ErrorBanner} error=${cancel.error} />
    ${s && s.plan.code !== 'free' && !s.cancel_at_period_end && may('POST /subscriptions/cancel') ? html`<button type="button" class="link" disabled=${cancel.busy} onClick=${cancel.submit} data-testid="plan-cancel">${t('plan.cancel')}</button>` : null}
    ${
      may('POST /subscriptions/checkout') && plans.data
        ? html`<${Checkout}
            plans=${plans.data}
            onStarted=${(w: Waiting) => (setPaid(false), setWaiting(w))}
            onChanged=${() => (current.reload(), setInvoicesTick((n) => n + 1))} />`
        : null
    }
    ${may('GET /subscriptions/invoices') ? html`<${Invoices} tick=${invoicesTick} nameOf=${nameOf} />` : null}
  </${Section}>`;
}

function Invoices({ tick, nameOf }: { tick: number; nameOf: (code: string) => string }) {
  const { rows, error, reload } = useList<Invoice>('/subscriptions/invoices', { per_page: 10 });
  useEffect(() => {
    if (tick) reload();
  }, [tick]);
  const columns: Column<Invoice>[] = [
    { label: t('plan.invoice'), cell: (i) => i.number },
    { label: t('plan.plan'), cell: (i) => `${nameOf(i.plan_code)} · ${t(`plan.${i.billing_cycle}`)}` },
    { label: t('plan.amount'), cell: (i) => tsh(i.amount), num: true },
    {
      label: t('plan.invoice_status'),
      cell: (i) =>
        html`<span data-testid="invoice-status" data-status=${i.status}>${t(`invoice.${i.status}`)}${i.paid_at ? ` ${when(i.paid_at)}` : ''}</span>`,
    },
  ];
  return html`<h3>${t('plan.invoices')}</h3><${ErrorBanner} error=${error} />${rows ? html`<${List} columns=${columns} rows=${rows} testid="invoices" rowId=${(i: Invoice) => i.id} />` : null}`;
}
