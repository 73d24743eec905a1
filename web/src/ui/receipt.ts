/**
 * A sale's receipt on screen, from the same model the thermal printer prints (src/print/). Print
 * sends it to the paired printer; with none paired, the print stylesheet (styles.css, `@media
 * print`) prints only this block through the browser's dialog, sized to the chosen paper width.
 * The sale is read again from the replica after every sync (`version`), so a receipt left open
 * gets its store number and its TRA fiscal receipt as soon as the server's copy arrives.
 */
import type { Receipt, Till } from '@duka/client-sdk';
import { formatTzs, type Organisation, perUnitText, quantityText, type Store } from '@duka/shared';
import { useLayoutEffect, useRef, useState } from 'preact/hooks';
import { phoneForPeople } from '../format.js';
import { formatTime, shopZone, t } from '../i18n.js';
import { printDialog, printReceipt } from '../print/print-receipt.js';
import { printerSettings } from '../print/printer.js';
import { PrinterButton, printerErrorText } from '../print/printer-panel.js';
import { cashierName, type PaymentCheck, type ReceiptModel, receiptModel } from '../print/receipt-model.js';
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
  // `autofocus` is only honoured at page load: the field takes the focus when the receipt opens.
  // Layout effects, so a key pressed the moment the receipt shows is not missed.
  const scanField = useRef<HTMLInputElement>(null);
  const close = useRef(onClose);
  close.current = onClose;
  useLayoutEffect(() => {
    scanField.current?.focus();
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && close.current();
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);
  // The scanner keeps typing into this field: Enter with a code starts the next sale, an empty Enter just closes.
  const next = (e: Event) => {
    e.preventDefault();
    const field = (e.currentTarget as HTMLFormElement).elements.namedItem('code') as HTMLInputElement;
    const code = field.value.trim();
    if (code) onScan(code);
    else onClose();
  };
  const user = useLoad(() => till.user(), [till], null);
  const [printError, setPrintError] = useState<string | null>(null);
  const m = receiptModel(receipt, { shop, store, cashier: cashierName(receipt, user), zone: shop?.timezone ?? shopZone.get() });
  const print = async () => {
    setPrintError(null);
    try {
      await printReceipt(m);
    } catch (e) {
      // The paired printer is off or gone: say so, and print on paper through the browser after all.
      setPrintError(printerErrorText(e));
      printDialog(printerSettings.get().width);
    }
  };
  return html`
    <div class="overlay" data-testid="receipt-view">
      <div class="sheet">
        <article class="receipt" data-testid="receipt" data-receipt=${m.number} data-sale-id=${receipt.id}>
          <${Header} m=${m} />
          <p>${t('receipt.number')}: <span data-testid="receipt-number">${m.number}</span>
            ${m.provisional ? html`<br /><small>(${t('receipt.pending_number')})</small>` : null}
            ${m.tillNumber ? html`<br /><small>${t('print.till_number')}: ${m.tillNumber}</small>` : null}</p>
          <p>${t('receipt.date')}: ${formatTime(receipt.created_at)}</p>
          ${m.cashier ? html`<p data-testid="receipt-cashier">${t('print.cashier', { name: m.cashier })}</p>` : null}
          ${m.status === 'refunded' ? html`<p class="stamp">${t('receipt.status.refunded')}</p>` : null}
          ${m.status === 'void' ? html`<p class="stamp">${t('receipt.status.voided')}</p>` : null}
          <${Lines} m=${m} />
          <p data-testid="receipt-paid-by" data-method=${m.payment.method}>${t('receipt.paid_by', { method: methodLabel(m.payment.method) })}${m.payment.reference ? ` (${m.payment.reference})` : ''}</p>
          ${m.parts.length ? html`<${Parts} m=${m} />` : null}
          ${m.payment.phone ? html`<p data-testid="receipt-phone">${t('receipt.paid_from', { phone: phoneForPeople(m.payment.phone) })}</p>` : null}
          ${m.payment.check ? html`<${PaymentCheckLine} check=${m.payment.check} />` : null}
          ${m.tendered !== null ? html`<p data-testid="receipt-tendered">${t('print.tendered')}: ${formatTzs(m.tendered)}</p>` : null}
          ${m.change !== null ? html`<p data-testid="receipt-change">${t('print.change')}: ${formatTzs(m.change)}</p>` : null}
          ${m.customer ? html`<p>${t('receipt.customer', { name: m.customer.name })}</p>` : null}
          ${receipt.fiscal ? html`<${FiscalBlock} fiscal=${receipt.fiscal} customerTin=${receipt.customer_tin} />` : null}
          <p class="thanks">${t('receipt.thanks')}</p>
        </article>
        <form class="next-scan no-print" onSubmit=${next}>
          <input ref=${scanField} name="code" data-testid="receipt-scan" autocomplete="off" inputmode="numeric" placeholder=${t('receipt.next_scan')} />
        </form>
        ${printError ? html`<p class="error no-print" data-testid="receipt-print-error">${printError}</p>` : null}
        <div class="actions no-print">
          <${PrinterButton} />
          <button data-testid="receipt-print" onClick=${print}>${t('receipt.print')}</button>
          <button class="primary" data-testid="receipt-close" onClick=${onClose}>${t('receipt.new_sale')}</button>
        </div>
      </div>
    </div>
  `;
}

/** Printed as on paper ("Payment unconfirmed"); what will become of it is for the cashier, on screen only. */
function PaymentCheckLine({ check }: { check: PaymentCheck }) {
  return html`
    <p data-testid="receipt-verification" data-verification=${check}>
      <strong>${t(check === 'verified' ? 'receipt.verification.verified' : 'receipt.verification.unconfirmed')}</strong>
      ${check === 'verified' ? null : html`<br /><small class="no-print" data-testid="receipt-verification-note">${t(`receipt.check.${check}`)}</small>`}
    </p>
  `;
}

/** A sale paid several ways: each part with its amount (and reference), as on paper. */
function Parts({ m }: { m: ReceiptModel }) {
  return html`
    <table class="parts" data-testid="receipt-parts">
      <tbody>
        ${m.parts.map(
          (p) => html`<tr key=${p.method} data-testid="receipt-part" data-method=${p.method} data-cents=${p.amount}>
            <td>${methodLabel(p.method)}${p.reference ? ` (${p.reference})` : ''}</td><td class="num">${formatTzs(p.amount)}</td>
          </tr>`,
        )}
      </tbody>
    </table>
  `;
}

function Header({ m }: { m: ReceiptModel }) {
  const { name, branch, address, phone, tin } = m.shop;
  return html`
    <header data-testid="receipt-shop">
      <strong>${name}</strong>
      ${branch ? html`<div>${branch}</div>` : null}
      ${address ? html`<div>${address}</div>` : null}
      ${phone ? html`<div>${t('print.phone', { phone })}</div>` : null}
      ${tin ? html`<div>${t('print.tin', { tin })}</div>` : null}
    </header>
  `;
}

function Lines({ m }: { m: ReceiptModel }) {
  return html`
    <table>
      <tbody>
        ${m.lines.map(
          (l, i) => html`
            <tr key=${i}><td colspan="2">${l.name}</td></tr>
            <tr><td data-testid="receipt-qty">${quantityText(l.qty, l.unit)} × ${formatTzs(l.unitPrice)}${perUnitText(l.unit)}</td><td class="num">${formatTzs(l.total)}</td></tr>
          `,
        )}
      </tbody>
      <tfoot>
        <tr><td>${t('cart.subtotal')}</td><td class="num">${formatTzs(m.subtotal)}</td></tr>
        ${m.discount > 0 ? html`<tr><td>${t('cart.discount_amount')} (${m.discountPct} %)</td><td class="num">−${formatTzs(m.discount)}</td></tr>` : null}
        <tr class="total"><td>${t('cart.total')}</td><td class="num" data-testid="receipt-total">${formatTzs(m.total)}</td></tr>
        ${m.tax > 0 ? html`<tr><td>${t('receipt.tax')}</td><td class="num">${formatTzs(m.tax)}</td></tr>` : null}
      </tfoot>
    </table>
  `;
}
