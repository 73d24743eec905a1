/**
 * The TRA part of a printed receipt (TRA rule 27): the verification code (RCTVNUM), the receipt's
 * date and time, its counters, the verification link and its QR code. Only a sale the server has
 * numbered has one: an unsynced sale, or a sale of a store that does not fiscalise, prints none.
 */
import type { TransactionFiscal } from '@duka/shared';
import { fiscalStamp } from '../fiscal.js';
import { t } from '../i18n.js';
import { html } from './html.js';

/** `customerTin`: the buyer's TIN the sale was rung up with (TRA's customer id), when given. */
export function FiscalBlock({ fiscal, customerTin }: { fiscal: TransactionFiscal; customerTin: string | null }) {
  const { date, time, znum } = fiscalStamp(fiscal.issued_at);
  return html`
    <section class="fiscal" data-testid="receipt-fiscal" data-status=${fiscal.status}>
      <p class="fiscal-title">${t('receipt.fiscal.title')}</p>
      <p>${t('receipt.fiscal.rctvnum')}: <strong data-testid="receipt-rctvnum">${fiscal.rctvnum}</strong></p>
      <p>${t('receipt.fiscal.issued')}: ${date} ${time}</p>
      ${customerTin ? html`<p>${t('receipt.fiscal.customer_tin', { tin: customerTin })}</p>` : null}
      <p class="small">Z ${znum} · DC ${fiscal.dc} · GC ${fiscal.gc}</p>
      ${fiscal.qr ? html`<img class="qr" data-testid="receipt-qr" src=${fiscal.qr} alt=${t('receipt.fiscal.qr')} />` : null}
      <p class="small url" data-testid="receipt-verify-url">${fiscal.verify_url}</p>
      ${fiscal.status === 'issued' ? null : html`<p class="small" data-testid="receipt-fiscal-pending">(${t('receipt.fiscal.pending')})</p>`}
    </section>
  `;
}
