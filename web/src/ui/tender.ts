/**
 * Cash received on a cash sale: typed, or one tap on the notes a customer is likely to hand over
 * for this total (the shared `quickTenders`: exact, then the total rounded up to 1,000, 2,000,
 * 5,000 and 10,000), with the change to give back. Less than the total holds the charge. F8
 * brings the focus here from anywhere on the sell screen; Enter here charges when the cash covers the
 * total, and says why not otherwise.
 */
import { changeFor, formatTzs, fromCents, quickTenders } from '@duka/shared';
import { useEffect, useRef } from 'preact/hooks';
import { type Payment, tenderedCents } from '../cart.js';
import { t } from '../i18n.js';
import { html } from './html.js';

/** True when a tender was typed that does not cover `total` (cents): the sale waits. */
export const tenderShort = (pay: Payment, total: number): boolean => {
  const cents = tenderedCents(pay);
  return cents !== null && cents < total;
};

/** Why Enter in Cash received did not charge, in the till's language; null when the tender covers the total. */
export function enterRefusal(pay: Payment, total: number, lines: number): string | null {
  if (lines === 0) return t('tender.enter_empty_cart');
  const cents = tenderedCents(pay);
  if (cents === null) return t('tender.enter_none');
  return cents < total ? t('tender.enter_short', { amount: formatTzs(total - cents) }) : null;
}

interface Props {
  pay: Payment;
  total: number;
  onPay: (p: Payment) => void;
  /** Moves each time the tender's key (F8) is pressed: the field takes the focus, its figure selected. */
  focus: number;
  /** Enter in the field: charge, if the tender covers the total. */
  onEnter: () => void;
  /** Why the last Enter did not charge. */
  why: string | null;
}

export function Tender({ pay, total, onPay, focus, onEnter, why }: Props) {
  const cents = tenderedCents(pay);
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (focus === 0) return;
    input.current?.focus();
    input.current?.select();
  }, [focus]);
  const set = (amount: number) => onPay({ ...pay, tendered: String(fromCents(amount)) });
  const key = (e: KeyboardEvent) => {
    if (e.key !== 'Enter' || e.ctrlKey || e.metaKey) return;
    e.preventDefault();
    onEnter();
  };
  return html`
    <div class="tender" data-testid="tender">
      <label><span>${t('tender.label')} <kbd>F8</kbd></span>
        <input ref=${input} data-testid="tender-input" inputmode="decimal" autocomplete="off" enterkeyhint="done" value=${pay.tendered}
          onInput=${(e: any) => onPay({ ...pay, tendered: e.currentTarget.value })} onKeyDown=${key} />
      </label>
      ${why ? html`<p class="error" role="alert" data-testid="tender-why">${why}</p>` : null}
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
