/**
 * Mobile money at the checkout (issue 38): the customer's number in any form a cashier types it
 * (0754…, +255754…, 255754…), checked by the shared `parseTzMobile` and its faults said in the
 * till's language; the wallet preselected from the number's prefix (`walletOf`) and changeable;
 * the amount. Online, in a shop with a collection account, the till asks the customer's phone
 * (the waiting screen is mobile-wait.ts). Offline, or without such an account, the SMS path: the
 * number and the reference from the customer's SMS (Charge waits for it: it is what the payment is
 * matched by), charged as an ordinary sale that the server checks against the payments its
 * provider reports, where the shop has a collection account.
 */
import { formatTzs, MobileMoneyMethod, parseTzMobile, walletOf } from '@duka/shared';
import { type Payment, referenceMissing, setPhone } from '../cart.js';
import { type MessageKey, methodName, t } from '../i18n.js';
import { signal } from '../signal.js';
import { html } from './html.js';

/** The server said this shop has no collection account: until a reload, the checkout offers the SMS path only. */
export const noPushAccount = signal(false);

/** What is wrong with the typed number, in the till's language; null when it is a mobile number or nothing was typed. */
export function phoneFault(phone: string): string | null {
  if (phone.trim() === '') return null;
  const parsed = parseTzMobile(phone);
  return parsed.ok ? null : t(`mm.phone.${parsed.code}` as MessageKey);
}

interface Props {
  pay: Payment;
  /** The sale's total, cents. */
  total: number;
  /** The till can ask the phone now: online, and the shop not known to lack a collection account. */
  canPush: boolean;
  /** Why the SMS path is the way now: offline, or no collection account; null while a push can be asked. */
  smsOnly: 'offline' | 'no_account' | null;
  asking: boolean;
  onPay: (p: Payment) => void;
  onAsk: () => void;
}

/** The number is valid and a wallet is chosen: the phone can be asked. */
export const readyToAsk = (pay: Payment): boolean => pay.wallet !== null && parseTzMobile(pay.phone).ok;

export function MobilePanel({ pay, total, canPush, smsOnly, asking, onPay, onAsk }: Props) {
  const fault = phoneFault(pay.phone);
  const brand = walletOf(pay.phone);
  return html`
    <div class="mobile-money" data-testid="mm-panel">
      <label>${t('mm.phone')}
        <input type="tel" inputmode="tel" autocomplete="off" data-testid="mm-phone" placeholder="0712 345 678" value=${pay.phone}
          onInput=${(e: any) => onPay(setPhone(pay, e.currentTarget.value))} />
      </label>
      ${fault ? html`<p class="hint" role="alert" data-testid="mm-phone-error">${fault}</p>` : null}
      <div class="methods wallets" role="radiogroup" aria-label=${t('mm.wallet')}>
        ${MobileMoneyMethod.options.map(
          (
            m,
          ) => html`<button key=${m} type="button" role="radio" aria-checked=${pay.wallet === m} class=${pay.wallet === m ? 'selected' : ''}
            data-testid="mm-wallet" data-method=${m} onClick=${() => onPay({ ...pay, wallet: m, walletChosen: true })}>${methodName(m)}</button>`,
        )}
      </div>
      ${
        pay.wallet === null && parseTzMobile(pay.phone).ok
          ? html`<p class="hint" data-testid="mm-wallet-pick">${brand && !brand.method ? t('mm.wallet_unsupported', { wallet: brand.wallet }) : t('mm.wallet_pick')}</p>`
          : null
      }
      <p data-testid="mm-amount" data-cents=${total}>${t('mm.amount', { amount: formatTzs(total) })}</p>
      ${
        canPush
          ? html`<button class="primary" type="button" data-testid="mm-ask" disabled=${asking || total <= 0 || !readyToAsk(pay)} onClick=${onAsk}>
              ${asking ? t('mm.asking') : t('mm.ask')}</button>`
          : null
      }
      <p class="hint" data-testid="mm-sms-note" data-reason=${smsOnly ?? 'optional'}>
        ${smsOnly === 'offline' ? t('mm.sms_offline') : smsOnly === 'no_account' ? t('mm.sms_no_account') : t('mm.sms_title')}
      </p>
      <input data-testid="pay-reference" placeholder=${t('pay.reference')} value=${pay.reference}
        onInput=${(e: any) => onPay({ ...pay, reference: e.currentTarget.value })} />
      ${total > 0 && referenceMissing(pay) ? html`<p class="hint" data-testid="mm-reference-missing">${t('mm.reference_missing')}</p>` : null}
    </div>
  `;
}
