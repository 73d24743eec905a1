/**
 * The wait while the customer confirms a mobile-money push on their phone (issue 38): who was
 * asked, from which wallet, for how much, driven by the till's `payment` events (the websocket, or
 * the SDK's polling when it is down). Paid: the receipt. Failed or expired: the provider's words,
 * and the choices: try again, take cash instead, or back to the cart. Cancel while waiting gives
 * the stock back; cash instead cancels, then sells the same lines for cash.
 */
import type { HeldPayment, Receipt, Till } from '@duka/client-sdk';
import type { MobileMoneyMethod, PaymentRequest, PaymentRequestState } from '@duka/shared';
import { useEffect, useState } from 'preact/hooks';
import { phoneForPeople, tzs } from '../format.js';
import { methodName, t } from '../i18n.js';
import { errorText } from './errors.js';
import { useTillStatus } from './hooks.js';
import { html } from './html.js';

/** A push being waited for, as the checkout shows it. */
export interface Waiting {
  id: string;
  /** `+255…`. */
  phone: string;
  wallet: MobileMoneyMethod;
  /** TZS. */
  amount: number;
  state: Pick<PaymentRequestState, 'status' | 'detail' | 'attempt'>;
}

export const waitingFrom = (r: PaymentRequest): Waiting => ({ id: r.id, phone: r.phone, wallet: r.method, amount: r.amount, state: r });

/** A push this till was waiting on before a reload, still awaiting the customer; null when none. */
export function stillWaiting(held: HeldPayment[]): Waiting | null {
  const h = held.filter((x) => !x.abandoned && x.state?.status === 'awaiting_payment').at(-1);
  if (!h?.state) return null;
  return { id: h.id, phone: h.phone, wallet: h.sale.payment_method as MobileMoneyMethod, amount: h.amount ?? 0, state: h.state };
}

interface Props {
  till: Till;
  wait: Waiting;
  /** Paid (by phone or in cash instead): the sale to show. */
  onSold: (receipt: Receipt) => void;
  /** The push is over without a sale: back to the cart, which still holds the lines. */
  onBack: () => void;
}

const OVER: Record<string, 'mm.failed' | 'mm.expired' | 'mm.cancelled'> = {
  failed: 'mm.failed',
  expired: 'mm.expired',
  cancelled: 'mm.cancelled',
};

export function MobileWait({ till, wait, onSold, onBack }: Props) {
  const status = useTillStatus(till);
  const [state, setState] = useState(wait.state);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const paid = async (id: string) => {
    const receipt = await till.transaction(id);
    if (receipt) onSold(receipt);
  };
  const answer = (r: PaymentRequest) => (r.status === 'paid' ? paid(r.id) : setState(r));
  useEffect(
    () =>
      till.onPayment((u) => {
        if (u.id !== wait.id) return;
        if (u.status === 'paid' && u.receipt) onSold(u.receipt);
        else setState(u);
      }),
    [till, wait.id],
  );
  // Once on opening: a message missed before this screen listened (a reload) is read from the server.
  useEffect(() => void till.paymentRequest(wait.id).then(answer, () => undefined), [till, wait.id]);

  const act = async (fn: () => Promise<unknown>) => {
    setBusy(true);
    setError(null);
    try {
      await fn();
    } catch (e) {
      setError(errorText(e));
    } finally {
      setBusy(false);
    }
  };
  const cancel = () => act(async () => answer(await till.cancelMobilePayment(wait.id)));
  const retry = () => act(async () => answer(await till.retryMobilePayment(wait.id)));
  const cash = () => act(async () => onSold(await till.payCashInstead(wait.id)));

  const awaiting = state.status === 'awaiting_payment';
  const asked = { phone: phoneForPeople(wait.phone), wallet: methodName(wait.wallet), amount: tzs(wait.amount) };
  const over = OVER[state.status];
  return html`
    <div class="overlay" data-testid="mm-wait" data-status=${state.status} data-request-id=${wait.id}>
      <div class="sheet mobile-wait" role="status">
        <p data-testid="mm-waiting"><strong>${t(awaiting ? 'mm.waiting' : 'mm.asked', asked)}</strong></p>
        ${awaiting ? html`<p class="hint">${t('mm.waiting_hint')}</p>` : null}
        ${awaiting && !status.online ? html`<p class="banner" data-testid="mm-offline">${t('mm.offline_waiting')}</p>` : null}
        ${over ? html`<p class="error" data-testid="mm-over">${t(over)}</p>` : null}
        ${state.detail ? html`<p data-testid="mm-detail">${state.detail}</p>` : null}
        ${state.attempt > 1 ? html`<p class="hint" data-testid="mm-attempt">${t('mm.attempt', { n: state.attempt })}</p>` : null}
        ${error ? html`<p class="error" role="alert" data-testid="mm-error">${error}</p>` : null}
        <div class="actions">
          ${awaiting ? html`<button data-testid="mm-cancel" disabled=${busy} onClick=${cancel}>${t('mm.cancel')}</button>` : null}
          ${over ? html`<button data-testid="mm-back" disabled=${busy} onClick=${onBack}>${t('mm.back')}</button>` : null}
          <button data-testid="mm-cash" disabled=${busy} onClick=${cash}>${t('mm.cash')}</button>
          ${over ? html`<button class="primary" data-testid="mm-retry" disabled=${busy} onClick=${retry}>${t('mm.retry')}</button>` : null}
        </div>
      </div>
    </div>
  `;
}
