/**
 * The store's recent sales, newest first, with refunds and voids. Which buttons a sale shows comes
 * from the shared `checkReversal`, the rule the till and the server enforce; the till still has the
 * last word (a credit tab's payments, for one), and its refusal is shown as it words it. A refund
 * the user lacks only the permission for shows disabled, with the reason; a refused refund or void
 * is said as what it was, and replaces the "done" message it contradicts.
 */
import type { Receipt, Till, TillExchangeInput, TillUser } from '@duka/client-sdk';
import { checkReversal, formatTzs, holdsPermission, type RefundLineInput, type Reversal } from '@duka/shared';
import { useRef, useState } from 'preact/hooks';
import { tzs } from '../format.js';
import { formatTime, t } from '../i18n.js';
import { paymentCheck } from '../print/receipt-model.js';
import { methodLabel } from './cart-panel.js';
import { errorText } from './errors.js';
import { ExchangeForm } from './exchange-form.js';
import { useLoad } from './hooks.js';
import { html } from './html.js';
import { RefundPartForm } from './refund-part-form.js';

const RECENT = 50;

/** `asIf`: as if the user held the refund permission, to tell a refund they lack only the permission for. */
function offered(move: Reversal, sale: Receipt, user: TillUser, asIf?: { may_refund: true }): boolean {
  const breach = checkReversal({
    move,
    may_refund: asIf?.may_refund ?? holdsPermission(user, 'refund'),
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
  // Sales whose refund or void the server refused, and which: the row says so, not just "sent".
  const refusedFor = useLoad(
    async () =>
      new Map(
        (await till.rejected())
          .filter((m) => m.type === 'sale.refund' || m.type === 'sale.void')
          .map(
            (m) =>
              [String((m.payload as { transaction_id?: string }).transaction_id), m.type === 'sale.refund' ? 'refund' : 'void'] as const,
          ),
      ),
    [till, version],
    new Map<string, Reversal>(),
  );
  // `part`: a refund of some lines (refund-part-form.ts); a refund of them is still a refund, refused as one.
  // `exchange`: some lines back for other items (exchange-form.ts).
  const [asking, setAskingState] = useState<{ move: Reversal | 'part' | 'exchange'; sale: Receipt } | null>(null);
  const [reason, setReason] = useState('');
  // The move being asked now, read after a confirm's await: a refund still sending must not close a void asked since.
  const current = useRef(asking);
  const setAsking = (next: { move: Reversal | 'part' | 'exchange'; sale: Receipt } | null) => {
    current.current = next;
    setAskingState(next);
    setReason('');
  };
  // `done`: the move this message reports done; once the server refuses it, the message says that instead.
  const [message, setMessage] = useState<{
    error: boolean;
    text: string;
    done?: { move: Reversal; saleId: string; receipt: string };
  } | null>(null);
  const mayRefund = holdsPermission(user, 'refund');
  const refusedDone = message?.done && refusedFor.get(message.done.saleId) === message.done.move ? message.done : null;
  const shown = refusedDone
    ? {
        error: true,
        text: t(refusedDone.move === 'refund' ? 'sales.refund_refused_note' : 'sales.void_refused_note', { receipt: refusedDone.receipt }),
      }
    : message;

  const confirm = async (e: Event) => {
    e.preventDefault();
    await reverse(reason.trim());
  };
  /** `part`: the lines of a refund of part of the sale, and the money they give back (cents). */
  const reverse = async (why: string, part?: { lines: RefundLineInput[]; amount: number }) => {
    const asked = asking;
    if (!asked) return;
    const number = asked.sale.receipt_number ?? asked.sale.client_receipt_number ?? '';
    const move: Reversal = asked.move === 'void' ? 'void' : 'refund';
    try {
      if (move === 'refund') await till.refund(asked.sale.id, why, part ? { lines: part.lines } : {});
      else await till.void(asked.sale.id, why);
      const text = part
        ? t('refund_part.done', { amount: formatTzs(part.amount), receipt: number })
        : t(move === 'refund' ? 'sales.done_refund' : 'sales.done_void', { receipt: number });
      setMessage({ error: false, text, done: { move, saleId: asked.sale.id, receipt: number } });
      if (current.current === asked) setAsking(null);
      onChanged();
    } catch (err) {
      setMessage({ error: true, text: errorText(err) });
    }
  };

  /** `difference`: cents, above 0 paid by the customer, below 0 given back. */
  const exchange = async (input: TillExchangeInput, why: string, difference: number) => {
    const asked = asking;
    if (!asked) return;
    const receipt = asked.sale.receipt_number ?? asked.sale.client_receipt_number ?? '';
    try {
      await till.exchange(asked.sale.id, why, input);
      const key = difference > 0 ? 'exchange.done_paid' : difference < 0 ? 'exchange.done_given' : 'exchange.done_even';
      setMessage({ error: false, text: t(key, { receipt, amount: formatTzs(Math.abs(difference)) }) });
      if (current.current === asked) setAsking(null);
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
      ${shown ? html`<p class=${shown.error ? 'error' : 'ok'} role="status" data-testid="sales-message">${shown.text}</p>` : null}
      ${mayRefund ? null : html`<p class="hint" id="refund-needs-permission" data-testid="sales-refund-permission">${t('sales.refund_needs_permission')}</p>`}
      ${
        asking?.move === 'part'
          ? html`<${RefundPartForm} key=${asking.sale.id} sale=${asking.sale} onCancel=${() => setAsking(null)}
              onConfirm=${(lines: RefundLineInput[], why: string, amount: number) => reverse(why, { lines, amount })} />`
          : null
      }
      ${
        asking?.move === 'exchange'
          ? html`<${ExchangeForm} key=${asking.sale.id} till=${till} version=${version} sale=${asking.sale} onCancel=${() => setAsking(null)} onConfirm=${exchange} />`
          : null
      }
      ${
        asking && asking.move !== 'part' && asking.move !== 'exchange'
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
                <td>${methodLabel(s.payment_method)}${s.customer_name ? ` · ${s.customer_name}` : ''}<${CheckNote} sale=${s} /></td>
                <td class="num">${tzs(s.total)}</td>
                <td>${s.status === 'refunded' ? t('receipt.status.refunded') : s.status === 'void' ? t('receipt.status.voided') : ''}${
                  s.status !== 'refunded' && (s.refunded_total ?? 0) > 0
                    ? html`<span class="refunded-part" data-testid="sale-refunded" data-amount=${s.refunded_total}>${t('sales.refunded_part', { amount: tzs(s.refunded_total!) })}</span>`
                    : null
                }</td>
                <td class=${`sync ${s.sync_state}`} data-testid="sale-sync">${refusedFor.has(s.id) ? html`<span class="warn" data-testid="sale-reversal-refused" data-move=${refusedFor.get(s.id)}>${t(refusedFor.get(s.id) === 'refund' ? 'sales.refund_refused' : 'sales.void_refused')}</span>` : t(`sales.${s.sync_state}`)}</td>
                <td class="row-actions">
                  <button onClick=${() => onView(s)} data-testid="sale-view">${t('sales.view')}</button>
                  ${offered('refund', s, user) ? html`<button data-testid="sale-refund" onClick=${() => (setAsking({ move: 'refund', sale: s }), setMessage(null))}>${t('sales.refund')}</button>` : null}
                  ${offered('refund', s, user) ? html`<button data-testid="sale-refund-part" onClick=${() => (setAsking({ move: 'part', sale: s }), setMessage(null))}>${t('refund_part.button')}</button>` : null}
                  ${offered('refund', s, user) ? html`<button data-testid="sale-exchange" onClick=${() => (setAsking({ move: 'exchange', sale: s }), setMessage(null))}>${t('exchange.button')}</button>` : null}
                  ${!mayRefund && offered('refund', s, user, { may_refund: true }) ? html`<button data-testid="sale-refund" disabled title=${t('sales.refund_needs_permission')} aria-describedby="refund-needs-permission">${t('sales.refund')}</button>` : null}
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

/** A mobile-money sale's payment, as the server last said: confirmed, unconfirmed, or no matching payment. */
function CheckNote({ sale }: { sale: Receipt }) {
  const check = paymentCheck(sale);
  if (!check) return null;
  const key = check === 'verified' ? 'sales.check.verified' : check === 'unmatched' ? 'sales.check.unmatched' : 'sales.check.unconfirmed';
  return html` · <span class=${check === 'verified' ? 'ok' : 'warn'} data-testid="sale-payment-check" data-check=${check}>${t(key)}</span>`;
}
