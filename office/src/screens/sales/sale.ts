/**
 * One sale as its receipt: lines, totals, how it was paid; "Reprint" prints that receipt alone
 * (the print stylesheet hides the rest). A refund (of some lines or all, refund.ts) or a void is
 * offered to who may make it; each line says how much of it was refunded, the totals what went back.
 */
import { type Transaction, VOID_WINDOW_MS } from '@duka/shared';
import { useEffect, useState } from 'preact/hooks';
import { holds, may, profile } from '../../access.js';
import { api, type ApiError } from '../../api.js';
import { t as core } from '../../i18n/core.js';
import { num, tsh, when } from '../../i18n/lang.js';
import { ErrorBanner } from '../../ui/form.js';
import { html } from '../../ui/html.js';
import { follow, href } from '../../ui/router.js';
import { t } from './messages.js';
import { qtyText, Refund } from './refund.js';
import { Reverse } from './reverse.js';

export const StatusPill = ({ status }: { status: Transaction['status'] }) =>
  html`<span class=${`pill ${status}`} data-testid="sale-status">${t(`status.${status}`)}</span>`;

/**
 * The server's rule (shared checkReversal): a sale partly refunded is refunded, not voided; then the
 * refund permission, a manager or the owner; else one's own sale, for VOID_WINDOW_MS.
 */
function mayVoid(sale: Transaction): boolean {
  const me = profile.value?.user;
  if (!me || !may('POST /pos/transactions/{id}/void') || !['paid', 'credit'].includes(sale.status) || sale.refunded_total) return false;
  if (holds('refund') || me.role === 'owner' || me.role === 'manager') return true;
  return sale.cashier_id === me.id && Date.now() - Date.parse(sale.created_at) <= VOID_WINDOW_MS;
}

export function SaleView({ id }: { id: string }) {
  const [sale, setSale] = useState<Transaction | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const [open, setOpen] = useState<'refund' | 'void' | null>(null);
  const [done, setDone] = useState<string | null>(null);
  useEffect(() => {
    api<Transaction>('GET', `/pos/transactions/${id}`).then(
      (a) => setSale(a.data),
      (e: ApiError) => setError(e),
    );
  }, [id]);
  const back = html`<a class="no-print" href=${href('sales')} onClick=${(e: MouseEvent) => follow(e, 'sales')}>← ${t('back')}</a>`;
  if (!sale) return html`<section>${back}<${ErrorBanner} error=${error} />${error ? null : html`<p>${core('loading')}</p>`}</section>`;
  const canRefund = may('POST /pos/transactions/{id}/refund') && ['paid', 'credit'].includes(sale.status);
  const canVoid = mayVoid(sale);
  const reversed = (move: 'refund' | 'void') => (next: Transaction) => {
    // What this refund gave back: the server's refunded_total before and after it.
    const back = (next.refunded_total ?? 0) - (sale.refunded_total ?? 0);
    setSale(next);
    setOpen(null);
    setDone(move === 'refund' ? t('done.refund', { amount: tsh(back) }) : t('done.void'));
  };
  return html`<section class="sale" data-testid="sale-detail">
    ${back}
    <header class="screen-head no-print">
      <h1>${sale.receipt_number}</h1>
      <${StatusPill} status=${sale.status} />
    </header>
    <div class="actions no-print">
      <button data-testid="sale-reprint" onClick=${() => print()}>${t('reprint')}</button>
      ${canRefund ? html`<button data-testid="sale-refund" aria-expanded=${open === 'refund'} onClick=${() => setOpen(open === 'refund' ? null : 'refund')}>${t('refund')}</button>` : null}
      ${canVoid ? html`<button class="danger" data-testid="sale-void" aria-expanded=${open === 'void'} onClick=${() => setOpen(open === 'void' ? null : 'void')}>${t('void')}</button>` : null}
    </div>
    ${done ? html`<div class="banner ok no-print" role="status" data-testid="notice">${done}</div>` : null}
    ${open === 'refund' ? html`<${Refund} sale=${sale} onDone=${reversed('refund')} onCancel=${() => setOpen(null)} />` : null}
    ${open === 'void' ? html`<${Reverse} sale=${sale} onDone=${reversed('void')} onCancel=${() => setOpen(null)} />` : null}
    <${Receipt} sale=${sale} />
  </section>`;
}

function Receipt({ sale }: { sale: Transaction }) {
  const row = (label: string, value: string, testid?: string) =>
    html`<tr><th>${label}</th><td class="num" data-testid=${testid}>${value}</td></tr>`;
  return html`<article class="receipt" data-testid="receipt">
    <header>
      <strong>${profile.value?.store?.name ?? profile.value?.organisation?.name ?? ''}</strong>
      <div>${t('receipt')} ${sale.receipt_number}</div>
      <div>${when(sale.created_at)}${sale.till_number ? ` · ${t('till')} ${sale.till_number}` : ''}</div>
      ${sale.customer_name ? html`<div>${t('customer')}: ${sale.customer_name}</div>` : null}
    </header>
    <table>
      <thead><tr><th>${t('item')}</th><th class="num">${t('qty')}</th><th class="num">${t('amount')}</th></tr></thead>
      <tbody>
        ${sale.lines.map(
          (l) => html`<tr data-testid="receipt-line">
            <td>${l.product_name}<br /><small class="muted">@ ${tsh(l.unit_price)}${
              l.refunded_qty
                ? html` · <span data-testid="line-refunded">${t('refunded_qty', { qty: qtyText(l.refunded_qty, l.unit ?? 'piece') })}</span>`
                : ''
            }</small></td>
            <td class="num">${num(l.qty)}</td><td class="num">${tsh(l.line_total)}</td>
          </tr>`,
        )}
      </tbody>
    </table>
    <table class="totals">
      ${row(t('subtotal'), tsh(sale.subtotal))}
      ${sale.discount ? row(t('discount'), `−${tsh(sale.discount)}`) : null}
      ${row(t('total'), tsh(sale.total), 'receipt-total')}
      ${sale.tax ? row(t('tax'), tsh(sale.tax)) : null}
      ${sale.payments.map((p) => row(p.method, tsh(p.amount)))}
      ${sale.cash_tendered != null ? row(t('tendered'), tsh(sale.cash_tendered)) : null}
      ${sale.change_given != null ? row(t('change'), tsh(sale.change_given)) : null}
      ${sale.refunded_total ? row(t('refunded_total'), tsh(sale.refunded_total), 'receipt-refunded') : null}
    </table>
    ${sale.fiscal ? html`<p class="fiscal">${t('fiscal')}: ${sale.fiscal.rctvnum} · <a href=${sale.fiscal.verify_url}>${sale.fiscal.verify_url}</a></p>` : null}
    ${sale.status !== 'paid' && sale.status !== 'credit' ? html`<p class="stamp"><${StatusPill} status=${sale.status} /></p>` : null}
    ${sale.refund_reason ? html`<p class="muted">${t('reason.refund', { reason: sale.refund_reason })}</p>` : null}
    ${sale.void_reason ? html`<p class="muted" data-testid="void-reason">${t('reason.void', { reason: sale.void_reason })}</p>` : null}
  </article>`;
}
