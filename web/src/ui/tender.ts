/**
 * Cash received on a cash sale: typed, or one tap on the notes a customer is likely to hand over
 * for this total (the shared `quickTenders`: exact, then the total rounded up to 1,000, 2,000,
 * 5,000 and 10,000), with the change to give back. Less than the total holds the charge.
 */
import { changeFor, formatTzs, fromCents, quickTenders } from '@duka/shared';
import { type Payment, tenderedCents } from '../cart.js';
import { t } from '../i18n.js';
import { html } from './html.js';

/** True when a tender was typed that does not cover `total` (cents): the sale waits. */
export const tenderShort = (pay: Payment, total: number): boolean => {
  const cents = tenderedCents(pay);
  return cents !== null && cents < total;
};

export function Tender({ pay, total, onPay }: { pay: Payment; total: number; onPay: (p: Payment) => void }) {
  const cents = tenderedCents(pay);
  const set = (amount: number) => onPay({ ...pay, tendered: String(fromCents(amount)) });
  return html`
    <div class="tender" data-testid="tender">
      <label>${t('tender.label')}
        <input data-testid="tender-input" inputmode="decimal" autocomplete="off" value=${pay.tendered}
          onInput=${(e: any) => onPay({ ...pay, tendered: e.currentTarget.value })} />
      </label>
      <div class="quick">
        ${
          total > 0
            ? quickTenders(total).map(
                (
                  amount,
                ) => html`<button key=${amount} type="button" data-testid="tender-quick" data-amount=${fromCents(amount)} onClick=${() => set(amount)}>
                  ${amount === total ? t('tender.exact') : formatTzs(amount).replace(/^TZS /, '')}
                </button>`,
              )
            : null
        }
      </div>
      ${
        cents === null
          ? null
          : cents >= total
            ? html`<p class="change" data-testid="tender-change" data-cents=${changeFor(total, cents)}>${t('tender.change', { amount: formatTzs(changeFor(total, cents)) })}</p>`
            : html`<p class="error" data-testid="tender-short">${t('tender.short', { amount: formatTzs(total - cents) })}</p>`
      }
    </div>
  `;
}
