/**
 * The store's recent sales, newest first, with refunds and voids. Which buttons a sale shows comes
 * from the shared `checkReversal`, the rule the till and the server enforce; the till still has the
 * last word (a credit tab's payments, for one), and its refusal is shown as it words it.
 */
import type { Receipt, Till, TillUser } from '@duka/client-sdk';
import { checkReversal, holdsPermission, type Reversal } from '@duka/shared';
import { useState } from 'preact/hooks';
import { tzs } from '../format.js';
import { formatTime, t } from '../i18n.js';
import { methodLabel } from './cart-panel.js';
import { errorText } from './errors.js';
import { useLoad } from './hooks.js';
import { html } from './html.js';

const RECENT = 50;

function offered(move: Reversal, sale: Receipt, user: TillUser): boolean {
  const breach = checkReversal({
    move,
    may_refund: holdsPermission(user, 'refund'),
    role: user.role,
    own_sale: sale.cashier_id === user.id,
    age_ms: Date.now() - Date.parse(sale.created_at),
    sale: { status: sale.status, tab_paid: false },
  });
  return breach === undefined;
}

export function Sales({
  till,
  user,
  version,
  onChanged,
  onView,
}: {
  till: Till;
  user: TillUser;
  version: number;
  onChanged: () => void;
  onView: (r: Receipt) => void;
}) {
  const [search, setSearch] = useState('');
  const sales = useLoad(() => till.recentTransactions({ limit: RECENT, search }), [till, version, search], [] as Receipt[]);
  // Sales whose refund or void the server refused: the row says so, not just "sent".
  const refusedFor = useLoad(
    async () =>
      new Set(
        (await till.rejected())
          .filter((m) => m.type === 'sale.refund' || m.type === 'sale.void')
          .map((m) => String((m.payload as { transaction_id?: string }).transaction_id)),
      ),
    [till, version],
    new Set<string>(),
  );
  const [asking, setAsking] = useState<{ move: Reversal; sale: Receipt } | null>(null);
  const [reason, setReason] = useState('');
  const [message, setMessage] = useState<{ error: boolean; text: string } | null>(null);

  const confirm = async (e: Event) => {
    e.preventDefault();
    if (!asking) return;
    const number = asking.sale.receipt_number ?? asking.sale.client_receipt_number ?? '';
    try {
      if (asking.move === 'refund') await till.refund(asking.sale.id, reason.trim());
      else await till.void(asking.sale.id, reason.trim());
      setMessage({ error: false, text: t(asking.move === 'refund' ? 'sales.done_refund' : 'sales.done_void', { receipt: number }) });
      setAsking(null);
      setReason('');
      onChanged();
    } catch (err) {
      setMessage({ error: true, text: errorText(err) });
    }
  };

  return html`
    <section class="sales" data-testid="sales">
      <h2>${t('sales.title')}</h2>
      <input type="search" class="search" data-testid="sales-search" placeholder=${t('sales.search')} value=${search}
        onInput=${(e: any) => setSearch(e.currentTarget.value)} />
      ${message ? html`<p class=${message.error ? 'error' : 'ok'} role="status" data-testid="sales-message">${message.text}</p>` : null}
      ${
        asking
          ? html`<form class="reason" onSubmit=${confirm} data-testid="reversal-form">
            <strong>${t(asking.move === 'refund' ? 'sales.confirm_refund' : 'sales.confirm_void', { receipt: asking.sale.receipt_number ?? asking.sale.client_receipt_number ?? '' })}</strong>
            <input required data-testid="reversal-reason" placeholder=${t('sales.reason')} value=${reason} onInput=${(e: any) => setReason(e.currentTarget.value)} />
            <button type="submit" class="primary" data-testid="reversal-confirm">${t(asking.move === 'refund' ? 'sales.refund' : 'sales.void')}</button>
            <button type="button" onClick=${() => setAsking(null)}>${t('sales.cancel')}</button>
          </form>`
          : null
      }
      ${sales.length === 0 ? html`<p class="empty">${t('sales.none')}</p>` : null}
      <table>
        <tbody>
          ${sales.map(
            (s) => html`
              <tr key=${s.id} data-testid="sale-row" data-sale-id=${s.id} data-receipt=${s.receipt_number ?? s.client_receipt_number} data-status=${s.status} data-sync=${s.sync_state}>
                <td>${s.receipt_number ?? s.client_receipt_number}</td>
                <td>${formatTime(s.created_at)}</td>
                <td>${methodLabel(s.payment_method)}${s.customer_name ? ` · ${s.customer_name}` : ''}</td>
                <td class="num">${tzs(s.total)}</td>
                <td>${s.status === 'refunded' ? t('receipt.status.refunded') : s.status === 'void' ? t('receipt.status.voided') : ''}</td>
                <td class=${`sync ${s.sync_state}`} data-testid="sale-sync">${refusedFor.has(s.id) ? html`<span class="warn" data-testid="sale-reversal-refused">${t('sales.reversal_refused')}</span>` : t(`sales.${s.sync_state}`)}</td>
                <td class="row-actions">
                  <button onClick=${() => onView(s)} data-testid="sale-view">${t('sales.view')}</button>
                  ${offered('refund', s, user) ? html`<button data-testid="sale-refund" onClick=${() => (setAsking({ move: 'refund', sale: s }), setMessage(null))}>${t('sales.refund')}</button>` : null}
                  ${offered('void', s, user) ? html`<button data-testid="sale-void" onClick=${() => (setAsking({ move: 'void', sale: s }), setMessage(null))}>${t('sales.void')}</button>` : null}
                </td>
              </tr>
            `,
          )}
        </tbody>
      </table>
    </section>
  `;
}
