/**
 * "Refund part" on the Sales screen (issue 51): per line of the sale still not given back, how much
 * comes back (a measured line in its unit with decimals, a piece line whole, at most what is left),
 * the money it comes to (refund-part.ts: the shared `refundShare`) shown before the cashier
 * confirms, and the reason. The till refunds those lines offline like any refund.
 */
import type { Receipt } from '@duka/client-sdk';
import { formatTzs, quantityText, type RefundLineInput } from '@duka/shared';
import { useState } from 'preact/hooks';
import { t } from '../i18n.js';
import { type RefundRow, refundPlan, refundRows } from '../refund-part.js';
import { html } from './html.js';

interface Props {
  sale: Receipt;
  onConfirm: (lines: RefundLineInput[], reason: string, amount: number) => void;
  onCancel: () => void;
}

export function RefundPartForm({ sale, onConfirm, onCancel }: Props) {
  const [typed, setTyped] = useState<ReadonlyMap<number, string>>(new Map());
  const [reason, setReason] = useState('');
  const plan = refundPlan(sale, typed);
  const ready = plan.lines.length > 0 && plan.faults.size === 0 && reason.trim() !== '';
  const rows = refundRows(sale).filter((r) => r.left > 0 && !r.repeat);
  const submit = (e: Event) => {
    e.preventDefault();
    if (ready) onConfirm(plan.lines, reason.trim(), plan.amount);
  };
  const wrong = (r: RefundRow) => {
    const fault = plan.faults.get(r.index);
    if (!fault) return null;
    const text =
      fault === 'too_much'
        ? t('refund_part.too_much', { qty: quantityText(r.left, r.unit) })
        : t(r.decimals ? 'refund_part.wrong_decimal' : 'refund_part.wrong_whole');
    return html`<span class="error" role="alert" data-testid="refund-part-wrong">${text}</span>`;
  };
  return html`
    <form class="reason refund-part" onSubmit=${submit} data-testid="refund-part-form">
      <strong>${t('refund_part.title', { receipt: sale.receipt_number ?? sale.client_receipt_number ?? '' })}</strong>
      <ul>
        ${rows.map(
          (r) => html`
            <li key=${r.index} data-testid="refund-part-line" data-product-id=${sale.lines[r.index]!.product_id} data-left=${r.left}>
              <span class="name">${r.name}</span>
              <input data-testid="refund-part-qty" inputmode=${r.decimals ? 'decimal' : 'numeric'} autocomplete="off" placeholder="0"
                aria-label=${t('refund_part.qty', { name: r.name })} value=${typed.get(r.index) ?? ''}
                onInput=${(e: any) => setTyped(new Map(typed).set(r.index, e.currentTarget.value))} />
              <span class="hint">${t('refund_part.left', { qty: quantityText(r.left, r.unit) })}</span>
              ${wrong(r)}
            </li>
          `,
        )}
      </ul>
      <p data-testid="refund-part-amount" data-cents=${plan.amount}>${t('refund_part.amount', { amount: formatTzs(plan.amount) })}</p>
      <input required data-testid="reversal-reason" placeholder=${t('sales.reason')} value=${reason} onInput=${(e: any) => setReason(e.currentTarget.value)} />
      <button type="submit" class="primary" data-testid="refund-part-confirm" disabled=${!ready}>${t('refund_part.confirm', { amount: formatTzs(plan.amount) })}</button>
      <button type="button" onClick=${onCancel}>${t('sales.cancel')}</button>
    </form>
  `;
}
