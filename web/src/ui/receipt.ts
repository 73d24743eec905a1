/**
 * A sale's receipt, laid out for an 80 mm thermal printer: the print stylesheet (styles.css,
 * `@media print`) prints only this block, so `window.print()` from the receipt view is the print.
 * The sale is read again from the replica after every sync (`version`), so a receipt left open
 * gets its store number and its TRA fiscal receipt as soon as the server's copy arrives.
 */
import type { Receipt, Till } from '@duka/client-sdk';
import type { Organisation, Store } from '@duka/shared';
import { useEffect, useRef } from 'preact/hooks';
import { formatTime, t } from '../i18n.js';
import { tzs } from '../format.js';
import { methodLabel } from './cart-panel.js';
import { FiscalBlock } from './fiscal-block.js';
import { useLoad } from './hooks.js';
import { html } from './html.js';

interface Props {
  till: Till;
  version: number;
  sale: Receipt;
  shop: Organisation | null;
  store: Store | null;
  onClose: () => void;
  /** A code scanned while the receipt is open: the receipt closes and the next sale starts with it. */
  onScan: (code: string) => void;
}

export function ReceiptView({ till, version, sale, shop, store, onClose, onScan }: Props) {
  const receipt = useLoad(async () => (await till.transaction(sale.id)) ?? sale, [till, version, sale.id], sale);
  const number = receipt.receipt_number ?? receipt.client_receipt_number;
  // `autofocus` is only honoured at page load: the field takes the focus when the receipt opens.
  const scanField = useRef<HTMLInputElement>(null);
  useEffect(() => scanField.current?.focus(), []);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && onClose();
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [onClose]);
  // The scanner keeps typing into this field: Enter with a code starts the next sale, an empty Enter just closes.
  const next = (e: Event) => {
    e.preventDefault();
    const field = (e.currentTarget as HTMLFormElement).elements.namedItem('code') as HTMLInputElement;
    const code = field.value.trim();
    if (code) onScan(code);
    else onClose();
  };
  return html`
    <div class="overlay" data-testid="receipt-view">
      <div class="sheet">
        <article class="receipt" data-testid="receipt" data-receipt=${number} data-sale-id=${receipt.id}>
          <header>
            <strong>${shop?.name ?? ''}</strong>
            ${store && store.name !== shop?.name ? html`<div>${store.name}</div>` : null}
          </header>
          <p>${t('receipt.number')}: <span data-testid="receipt-number">${number}</span>
            ${receipt.receipt_number ? null : html`<br /><small>(${t('receipt.pending_number')})</small>`}</p>
          <p>${t('receipt.date')}: ${formatTime(receipt.created_at)}</p>
          ${receipt.status === 'refunded' ? html`<p class="stamp">${t('receipt.status.refunded')}</p>` : null}
          ${receipt.status === 'void' ? html`<p class="stamp">${t('receipt.status.voided')}</p>` : null}
          <table>
            <tbody>
              ${receipt.lines.map(
                (l) => html`
                  <tr key=${l.product_id}><td colspan="2">${l.product_name}</td></tr>
                  <tr><td>${l.qty} × ${tzs(l.unit_price)}</td><td class="num">${tzs(l.line_total)}</td></tr>
                `,
              )}
            </tbody>
            <tfoot>
              <tr><td>${t('cart.subtotal')}</td><td class="num">${tzs(receipt.subtotal)}</td></tr>
              ${receipt.discount > 0 ? html`<tr><td>${t('cart.discount_amount')} (${receipt.discount_pct} %)</td><td class="num">−${tzs(receipt.discount)}</td></tr>` : null}
              <tr class="total"><td>${t('cart.total')}</td><td class="num" data-testid="receipt-total">${tzs(receipt.total)}</td></tr>
              ${receipt.tax > 0 ? html`<tr><td>${t('receipt.tax')}</td><td class="num">${tzs(receipt.tax)}</td></tr>` : null}
            </tfoot>
          </table>
          <p>${t('receipt.paid_by', { method: methodLabel(receipt.payment_method) })}${receipt.payment_reference ? ` (${receipt.payment_reference})` : ''}</p>
          ${receipt.customer_name ? html`<p>${t('receipt.customer', { name: receipt.customer_name })}</p>` : null}
          ${receipt.fiscal ? html`<${FiscalBlock} fiscal=${receipt.fiscal} customerTin=${receipt.customer_tin} />` : null}
          <p class="thanks">${t('receipt.thanks')}</p>
        </article>
        <form class="next-scan no-print" onSubmit=${next}>
          <input ref=${scanField} name="code" data-testid="receipt-scan" autocomplete="off" inputmode="numeric" placeholder=${t('receipt.next_scan')} />
        </form>
        <div class="actions no-print">
          <button data-testid="receipt-print" onClick=${() => window.print()}>${t('receipt.print')}</button>
          <button class="primary" data-testid="receipt-close" onClick=${onClose}>${t('receipt.new_sale')}</button>
        </div>
      </div>
    </div>
  `;
}
