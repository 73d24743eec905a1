/** A supplier's page: what is owed, the orders it is expected to deliver, its deliveries and payments; the owner pays a delivery or the supplier. */
import { type Delivery, PayoutMethod, type Supplier, type SupplierPayment } from '@duka/shared';
import { useEffect, useState } from 'preact/hooks';
import { type ApiError, get } from '../../api.js';
import { may } from '../../access.js';
import { t as core } from '../../i18n/core.js';
import { tsh, when } from '../../i18n/lang.js';
import { ErrorBanner } from '../../ui/form.js';
import { html } from '../../ui/html.js';
import { List } from '../../ui/list.js';
import { PayForm } from '../../ui/pay-form.js';
import { follow, href } from '../../ui/router.js';
import { ExpectedDeliveries } from './expected.js';
import { t } from './messages.js';

export function SupplierPage({ id }: { id: string }) {
  const [supplier, setSupplier] = useState<Supplier | null>(null);
  const [deliveries, setDeliveries] = useState<Delivery[]>([]);
  const [payments, setPayments] = useState<SupplierPayment[]>([]);
  const [error, setError] = useState<ApiError | null>(null);
  const [paying, setPaying] = useState<Delivery | null>(null);
  const [tick, setTick] = useState(0);
  useEffect(() => {
    Promise.all([
      get<Supplier>(`/suppliers/${id}`),
      get<Delivery[]>(`/suppliers/${id}/deliveries`, { page_size: 50 }),
      get<SupplierPayment[]>(`/suppliers/${id}/payments`, { page_size: 50 }),
    ]).then(([s, d, p]) => (setSupplier(s), setDeliveries(d), setPayments(p), setError(null)), setError);
  }, [id, tick]);
  const reload = () => (setPaying(null), setTick((n) => n + 1));
  if (!supplier) return html`<section><${ErrorBanner} error=${error} />${error ? null : html`<p>${core('loading')}</p>`}</section>`;
  return html`<section data-testid="supplier-page">
    <header class="screen-head">
      <h1>${supplier.name}</h1>
      ${may('POST /suppliers/deliveries') ? html`<a href=${href('suppliers/receive')} onClick=${(e: MouseEvent) => follow(e, 'suppliers/receive')}>${t('receive')}</a>` : null}
      ${may('PATCH /suppliers/{id}') ? html`<a href=${href(`suppliers/${id}/edit`)} onClick=${(e: MouseEvent) => follow(e, `suppliers/${id}/edit`)}>${t('edit')}</a>` : null}
    </header>
    <${ErrorBanner} error=${error} />
    <div class="tiles">
      <div class="tile"><span class="label">${t('owed')}</span><strong class="value" data-testid="supplier-owed">${tsh(supplier.outstanding_balance)}</strong></div>
    </div>
    <${ExpectedDeliveries} supplier=${supplier} />
    <h2>${t('deliveries')}</h2>
    <${List}
      testid="deliveries"
      rows=${deliveries}
      rowId=${(d: Delivery) => d.id}
      columns=${[
        { label: t('date'), cell: (d: Delivery) => when(d.delivery_date) },
        { label: t('invoice'), cell: (d: Delivery) => d.invoice_number ?? '–' },
        { label: t('status'), cell: (d: Delivery) => t(`status.${d.status}`) },
        { label: t('value'), num: true, cell: (d: Delivery) => tsh(d.total_value) },
        { label: t('owed'), num: true, cell: (d: Delivery) => tsh(d.balance) },
        {
          label: '',
          cell: (d: Delivery) =>
            d.balance > 0 && may('POST /suppliers/deliveries/{id}/pay')
              ? html`<button type="button" data-testid="delivery-pay" onClick=${() => setPaying(d)}>${t('pay')}</button>`
              : null,
        },
      ]}
    />
    <div class="panels">
      ${
        paying
          ? html`<${PayForm} key=${paying.id} path=${`/suppliers/deliveries/${paying.id}/pay`} methodField="payment_method" methods=${PayoutMethod.options}
            title=${t('pay.delivery', { invoice: paying.invoice_number ?? '' })} testid="pay-delivery" onDone=${reload} />`
          : null
      }
      ${
        supplier.outstanding_balance > 0 && may('POST /suppliers/{id}/pay')
          ? html`<${PayForm} path=${`/suppliers/${id}/pay`} methodField="payment_method" methods=${PayoutMethod.options} title=${t('pay.supplier')} testid="pay-supplier" onDone=${reload} />`
          : null
      }
    </div>
    <h2>${t('payments')}</h2>
    <${List}
      testid="supplier-payments"
      rows=${payments}
      columns=${[
        { label: t('date'), cell: (p: SupplierPayment) => when(p.paid_at) },
        { label: t('method'), cell: (p: SupplierPayment) => p.payment_method },
        { label: t('reference'), cell: (p: SupplierPayment) => p.reference ?? '–' },
        { label: t('amount'), num: true, cell: (p: SupplierPayment) => tsh(p.amount) },
      ]}
    />
  </section>`;
}
