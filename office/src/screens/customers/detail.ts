/**
 * A customer's credit: what they owe, their tabs and payments; a payment taken (its own
 * Idempotency-Key: ui/pay-form.ts), an SMS reminder sent, a tab written off with a reason by
 * whoever holds the `credit` permission.
 */
import { type CreditProfile, type CreditTab, SettlementMethod } from '@duka/shared';
import { useEffect, useState } from 'preact/hooks';
import { type ApiError, api, get } from '../../api.js';
import { may } from '../../access.js';
import { t as core } from '../../i18n/core.js';
import { tsh, when } from '../../i18n/lang.js';
import { ErrorBanner, useSubmit } from '../../ui/form.js';
import { html } from '../../ui/html.js';
import { List } from '../../ui/list.js';
import { PayForm } from '../../ui/pay-form.js';
import { follow, href } from '../../ui/router.js';
import { WriteOff } from './write-off.js';
import { t } from './messages.js';

export function CustomerPage({ id }: { id: string }) {
  const [profile, setProfile] = useState<CreditProfile | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const [tick, setTick] = useState(0);
  const [writing, setWriting] = useState<CreditTab | null>(null);
  useEffect(() => {
    get<CreditProfile>(`/credits/customers/${id}`).then((p) => (setProfile(p), setError(null)), setError);
  }, [id, tick]);
  const reload = () => (setWriting(null), setTick((n) => n + 1));
  const remind = useSubmit(() => api('POST', `/credits/customers/${id}/remind`));
  if (!profile) return html`<section><${ErrorBanner} error=${error} />${error ? null : html`<p>${core('loading')}</p>`}</section>`;
  const c = profile.customer;
  const owed = profile.total_outstanding;
  return html`<section data-testid="customer-page">
    <header class="screen-head">
      <h1>${c.name}</h1>
      <span class="muted">${c.phone ?? ''}</span>
      ${may('PATCH /customers/{id}') ? html`<a href=${href(`customers/${id}/edit`)} onClick=${(e: MouseEvent) => follow(e, `customers/${id}/edit`)}>${t('edit')}</a>` : null}
    </header>
    <${ErrorBanner} error=${error ?? remind.error} />
    ${remind.done ? html`<p class="banner ok" role="status" data-testid="reminded">${t('reminded')}</p>` : null}
    <div class="tiles">
      <div class="tile"><span class="label">${t('balance')}</span><strong class="value" data-testid="customer-balance">${tsh(owed)}</strong></div>
    </div>
    <div class="panels">
      ${
        owed > 0 && may('POST /credits/customers/{customer_id}/payments')
          ? html`<${PayForm} path=${`/credits/customers/${id}/payments`} methodField="method" methods=${SettlementMethod.options} title=${t('pay')} testid="credit-pay" onDone=${reload} />`
          : null
      }
      ${
        owed > 0 && c.phone && may('POST /credits/customers/{customer_id}/remind')
          ? html`<div class="panel"><button type="button" data-testid="remind" disabled=${remind.busy} onClick=${remind.submit}>${t('remind')}</button></div>`
          : null
      }
      ${writing ? html`<${WriteOff} key=${writing.id} tab=${writing} onDone=${reload} />` : null}
    </div>
    <h2>${t('tabs')}</h2>
    <${List}
      testid="credit-tabs"
      rows=${profile.tabs}
      rowId=${(x: CreditTab) => x.id}
      columns=${[
        { label: t('sale.date'), cell: (x: CreditTab) => when(x.created_at) },
        { label: t('due.date'), cell: (x: CreditTab) => html`<span class=${x.is_overdue ? 'error' : ''}>${x.due_date}</span>` },
        { label: t('amount'), num: true, cell: (x: CreditTab) => tsh(x.amount) },
        { label: t('paid'), num: true, cell: (x: CreditTab) => tsh(x.paid_amount) },
        { label: t('left'), num: true, cell: (x: CreditTab) => tsh(x.balance) },
        { label: t('status'), cell: (x: CreditTab) => t(`status.${x.status}`) },
        {
          label: '',
          cell: (x: CreditTab) =>
            x.balance > 0 && may('POST /credits/{tab_id}/write-off')
              ? html`<button type="button" class="link" data-testid="write-off" onClick=${() => setWriting(x)}>${t('write_off')}</button>`
              : null,
        },
      ]}
    />
    <h2>${t('payments')}</h2>
    <${List}
      testid="credit-payments"
      rows=${profile.payments}
      columns=${[
        { label: t('date'), cell: (p: CreditProfile['payments'][number]) => when(p.created_at) },
        { label: t('method'), cell: (p: CreditProfile['payments'][number]) => p.method },
        { label: t('reference'), cell: (p: CreditProfile['payments'][number]) => p.reference ?? '–' },
        { label: t('amount'), num: true, cell: (p: CreditProfile['payments'][number]) => tsh(p.amount) },
      ]}
    />
  </section>`;
}
