/**
 * The sale being rung up: lines and quantities, the discount (only for users holding the discount
 * permission), how it is paid (the shared PaymentMethod list, its mobile-money wallets as one
 * choice; Credit names a customer), or several ways (split-tender.ts), and the charge, which hands
 * the sale to the till. Mobile money online asks the customer's phone instead (mobile-money.ts,
 * mobile-wait.ts). A `pom` or `controlled` medicine in the cart asks for its prescription first
 * (prescription.ts).
 */
import { PushUnavailableError, type Receipt, type Till, type TillUser } from '@duka/client-sdk';
import { formatTzs, holdsPermission, isMobileMoney, PaymentMethod, quantityText, type SaleMethod } from '@duka/shared';
import { useEffect, useRef, useState } from 'preact/hooks';
import {
  badTin,
  type Cart,
  type CartLine,
  cartTotals,
  cashPayment,
  lineKey,
  MOBILE,
  measured,
  type Payment,
  referenceMissing,
  saleInput,
  saleLines,
  saleMethod,
  setDiscount,
  setQty,
  shortBy,
  typedQty,
} from '../cart.js';
import { t } from '../i18n.js';
import { CustomerPicker } from './customer-picker.js';
import { enterRefusal, Tender, tenderShort } from './tender.js';
import { errorText } from './errors.js';
import { html } from './html.js';
import { useSignal, useTillStatus } from './hooks.js';
import { MobilePanel, noPushAccount, phoneFault } from './mobile-money.js';
import { MobileWait, stillWaiting, type Waiting, waitingFrom } from './mobile-wait.js';
import { type SplitPart, splitState, startSplit } from '../split.js';
import { SplitPanel, splitRefusal } from './split-tender.js';
import { emptyRx, type RxDraft, rxMedicines, toPrescription } from '../prescription.js';
import { PrescriptionForm, rxHeld } from './prescription.js';

export const methodLabel = (m: SaleMethod): string => t(`pay.method.${m}`);

interface Props {
  till: Till;
  user: TillUser;
  version: number;
  cart: Cart;
  /** The store issues TRA fiscal receipts: the buyer's TIN is asked for (optional). */
  fiscal: boolean;
  /** The charge keys (F9, Ctrl+Enter) work: false while a dialog is open over the till. */
  keys: boolean;
  onCart: (cart: Cart) => void;
  onSold: (receipt: Receipt) => void;
  /** On a phone, where the cart is a drawer: close it. */
  onHide: () => void;
}

const NEEDS_REFERENCE: readonly PaymentMethod[] = PaymentMethod.options.filter((m) => m !== 'Cash' && m !== 'Credit' && !isMobileMoney(m));
/** The checkout's choices: the wallets are one, mobile money, right after cash. */
const CHOICES: ReadonlyArray<Payment['method']> = PaymentMethod.options.flatMap((m) =>
  isMobileMoney(m) ? [] : m === 'Cash' ? [m, MOBILE] : [m],
);

export function CartPanel({ till, user, version, cart, fiscal, keys, onCart, onSold, onHide }: Props) {
  const [pay, setPay] = useState<Payment>(cashPayment);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [waiting, setWaiting] = useState<Waiting | null>(null);
  const [tenderFocus, setTenderFocus] = useState(0);
  const [tenderWhy, setTenderWhy] = useState<string | null>(null);
  // A sale paid several ways: its parts as typed; null for one way.
  const [split, setSplit] = useState<SplitPart[] | null>(null);
  const [rx, setRx] = useState<RxDraft>(emptyRx);
  useEffect(() => setTenderWhy(null), [cart]);
  const status = useTillStatus(till);
  const noAccount = useSignal(noPushAccount);
  const totals = cartTotals(cart);
  const mayDiscount = holdsPermission(user, 'discount');
  const splitNow = split && splitState(split, totals.total);
  const credit = split ? split.some((p) => p.method === 'Credit') : pay.method === 'Credit';
  const missingCustomer = credit && !pay.customerId;
  const tinWrong = fiscal && badTin(pay);
  // A prescription medicine in the cart: Charge waits for its prescription, and says for what.
  const rxNames = rxMedicines(cart);
  const rxWhy = rxHeld(rx, rxNames);

  const short = tenderShort(pay, totals.total);
  const mobileHeld = pay.method === MOBILE && (saleMethod(pay) === null || phoneFault(pay.phone) !== null || referenceMissing(pay));
  const held = (splitNow ? splitNow.payments === null : short || mobileHeld) || rxWhy !== null;
  const canCharge = !busy && cart.lines.length > 0 && !missingCustomer && !tinWrong && !held;
  const canPush = status.online && !noAccount;
  // A push this till was waiting on when the page was reloaded: its wait comes back.
  useEffect(() => void till.pendingMobilePayments().then((held) => setWaiting((w) => w ?? stillWaiting(held))), [till]);
  const oversold = cart.lines.filter((l) => shortBy(l) > 0);

  const charge = async () => {
    if (!canCharge) return;
    setBusy(true);
    setError(null);
    try {
      const one = {
        ...saleInput(cart, fiscal ? pay : { ...pay, tin: '' }),
        ...(rxNames.length ? { prescription: toPrescription(rx) } : {}),
      };
      const { payment_method: _m, payment_reference: _r, payment_phone: _p, cash_tendered: _c, ...rest } = one;
      // Split: the parts instead of the one method (a credit part keeps the customer chosen).
      const receipt = await till.sell(splitNow?.payments ? { ...rest, payments: splitNow.payments } : one);
      setPay(cashPayment());
      setSplit(null);
      setRx(emptyRx());
      onSold(receipt);
    } catch (e) {
      setError(errorText(e));
    } finally {
      setBusy(false);
    }
  };

  const ask = async () => {
    if (busy || saleMethod(pay) === null) return;
    setBusy(true);
    setError(null);
    try {
      const tin = fiscal && pay.tin.trim() ? { customer_tin: pay.tin.trim() } : {};
      const r = await till.askMobilePayment({ ...saleLines(cart), ...tin, payment_method: pay.wallet!, phone: pay.phone });
      setWaiting(waitingFrom(r));
    } catch (e) {
      // Offline or no collection account: the panel now shows the SMS path, and says why.
      if (e instanceof PushUnavailableError) {
        if (e.reason !== 'offline') noPushAccount.set(true);
      } else setError(errorText(e));
    } finally {
      setBusy(false);
    }
  };
  const paidByPhone = (receipt: Receipt) => {
    setWaiting(null);
    setPay(cashPayment());
    onSold(receipt);
  };

  // Read through a ref, so the listener added once always calls this render's charge.
  const latest = useRef(charge);
  latest.current = charge;
  const splitOn = useRef(false);
  splitOn.current = !!split;
  const keysOn = keys && !waiting;
  useEffect(() => {
    if (!keysOn) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'F9' || (e.key === 'Enter' && (e.ctrlKey || e.metaKey))) {
        e.preventDefault();
        void latest.current();
      } else if (e.key === 'F8') {
        // The tender's key: cash, and the focus in Cash received, however many tiles and lines lie
        // between; paid several ways, the cash part's amount (the one way paid is left as it is).
        e.preventDefault();
        if (!splitOn.current) setPay((p) => (p.method === 'Cash' ? p : { ...p, method: 'Cash', customerId: null }));
        setTenderFocus((n) => n + 1);
      }
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [keysOn]);

  return html`
    <section class="cart" data-testid="cart">
      <h2>${t('cart.title')} <button class="drawer-close" data-testid="cart-hide" onClick=${onHide}>${t('cart.close')}</button></h2>
      ${cart.lines.length === 0 ? html`<p class="empty">${t('cart.empty')}</p>` : null}
      <ul class="lines">
        ${cart.lines.map(
          (l, i) => html`
            <li key=${lineKey(l)} data-testid="cart-line" data-product-id=${l.product.id} data-qty=${l.qty}>
              <span class="name">${l.product.name}${l.pack ? ` · ${l.pack.name}` : ''}${l.label ? ` · ${t('units.label')}` : ''}</span>
              <${LineQty} cart=${cart} line=${l} onCart=${onCart} />
              <span class="amount">${formatTzs(totals.lines[i]?.line_total ?? 0)}</span>
              <button class="remove" aria-label=${t('cart.remove')} onClick=${() => onCart(setQty(cart, lineKey(l), 0))}>×</button>
              ${shortBy(l) > 0 ? html`<span class="warn oversold" data-testid="oversell-warning">${t('cart.oversold', { n: quantityText(Math.max(0, l.product.stock), l.product.unit), qty: quantityText(l.qty, l.product.unit) })}</span>` : null}
            </li>
          `,
        )}
      </ul>
      <dl class="totals">
        <dt>${t('cart.subtotal')}</dt><dd data-testid="cart-subtotal">${formatTzs(totals.subtotal)}</dd>
        ${
          mayDiscount
            ? html`<dt><label for="discount">${t('cart.discount')}</label></dt>
              <dd><input id="discount" type="number" min="0" max="100" step="0.5" data-testid="cart-discount" value=${cart.discountPct}
                onChange=${(e: any) => onCart(setDiscount(cart, Number(e.currentTarget.value)))} /></dd>`
            : null
        }
        ${totals.discount > 0 ? html`<dt>${t('cart.discount_amount')}</dt><dd>−${formatTzs(totals.discount)}</dd>` : null}
        <dt class="total">${t('cart.total')}</dt><dd class="total" data-testid="cart-total" data-cents=${totals.total}>${formatTzs(totals.total)}</dd>
      </dl>
      ${rxNames.length ? html`<${PrescriptionForm} draft=${rx} names=${rxNames} onDraft=${setRx} />` : null}
      <fieldset class="payment">
        <legend>${t('pay.method')}</legend>
        <div class="methods" role="radiogroup" hidden=${!!split}>
          ${CHOICES.map(
            (m) => html`
              <button key=${m} role="radio" aria-checked=${pay.method === m} class=${pay.method === m ? 'selected' : ''} data-testid="pay-method" data-method=${m}
                onClick=${() => setPay({ ...pay, method: m, customerId: m === 'Credit' ? pay.customerId : null })}>${m === MOBILE ? t('pay.mobile') : methodLabel(m)}</button>
            `,
          )}
        </div>
        <button type="button" class="split-toggle" data-testid="split-toggle" aria-pressed=${!!split}
          onClick=${() => (setTenderWhy(null), setSplit(split ? null : startSplit()))}>${t(split ? 'split.cancel' : 'split.toggle')}</button>
        ${
          split && splitNow
            ? html`<${SplitPanel} parts=${split} state=${splitNow} onParts=${(p: SplitPart[]) => (setTenderWhy(null), setSplit(p))} focus=${tenderFocus} why=${tenderWhy}
                onEnter=${() => {
                  const why = splitRefusal(splitNow, cart.lines.length) ?? rxWhy;
                  setTenderWhy(why);
                  if (!why) void charge();
                }} />`
            : null
        }
        ${
          !split && pay.method === 'Cash'
            ? html`<${Tender} pay=${pay} total=${totals.total} onPay=${(p: Payment) => (setTenderWhy(null), setPay(p))} focus=${tenderFocus} why=${tenderWhy}
                onEnter=${() => {
                  const why = enterRefusal(pay, totals.total, cart.lines.length) ?? rxWhy;
                  setTenderWhy(why);
                  if (!why) void charge();
                }} />`
            : null
        }
        ${
          !split && pay.method === MOBILE
            ? html`<${MobilePanel} pay=${pay} total=${cart.lines.length ? totals.total : 0} canPush=${canPush} asking=${busy}
                smsOnly=${noAccount ? 'no_account' : !status.online ? 'offline' : null} onPay=${setPay} onAsk=${ask} />`
            : null
        }
        ${
          !split && (NEEDS_REFERENCE as readonly string[]).includes(pay.method)
            ? html`<input data-testid="pay-reference" placeholder=${t('pay.reference')} value=${pay.reference} onInput=${(e: any) => setPay({ ...pay, reference: e.currentTarget.value })} />`
            : null
        }
        ${
          credit
            ? html`<p class="hint">${t('pay.choose_customer')}</p>
              <${CustomerPicker} till=${till} version=${version} selected=${pay.customerId} onSelect=${(id: string | null) => setPay({ ...pay, customerId: id })} />`
            : null
        }
        ${
          fiscal
            ? html`<input data-testid="pay-tin" inputmode="numeric" maxlength="9" placeholder=${t('pay.tin')} aria-label=${t('pay.tin')} value=${pay.tin}
              onInput=${(e: any) => setPay({ ...pay, tin: e.currentTarget.value })} />
              ${tinWrong ? html`<p class="hint" data-testid="pay-tin-wrong">${t('pay.tin_wrong')}</p>` : null}`
            : null
        }
      </fieldset>
      ${error ? html`<p class="error" role="alert" data-testid="sale-error">${error}</p>` : null}
      ${rxWhy ? html`<p class="hint" data-testid="rx-held">${rxWhy}</p>` : null}
      ${missingCustomer && cart.lines.length > 0 ? html`<p class="hint">${t('pay.no_customer')}</p>` : null}
      <div class="actions">
        <button data-testid="cart-clear" onClick=${() => onCart({ lines: [], discountPct: 0 })} disabled=${cart.lines.length === 0}>${t('cart.clear')}</button>
        <button class=${`primary charge ${oversold.length > 0 ? 'warn' : ''}`} data-testid="charge" disabled=${!canCharge} onClick=${charge}>
          ${t('pay.charge', { total: formatTzs(totals.total) })}
        </button>
      </div>
      <p class="hint keys">${t('keys.hint')}</p>
      ${waiting ? html`<${MobileWait} till=${till} wait=${waiting} onSold=${paidByPhone} onBack=${() => setWaiting(null)} />` : null}
    </section>
  `;
}

/**
 * A line's quantity (issue 51): a piece's or a pack's whole, with − and +; a measured product's
 * typed in its unit (0.5 kg, a decimal field); a scale label's as the label says it, fixed.
 */
function LineQty({ cart, line: l, onCart }: { cart: Cart; line: CartLine; onCart: (cart: Cart) => void }) {
  const key = lineKey(l);
  const unit = l.product.unit ?? 'piece';
  if (l.label) return html`<span class="qty fixed-qty" data-testid="cart-qty-text">${quantityText(l.qty, unit)}</span>`;
  if (!l.pack && measured(l.product))
    return html`<span class="qty">
      <input inputmode="decimal" aria-label=${t('cart.qty')} data-testid="cart-qty" value=${l.qty}
        onChange=${(e: any) => onCart(setQty(cart, key, typedQty(e.currentTarget.value, l.product) ?? l.qty))} />
      <span class="unit" data-testid="cart-qty-text">${quantityText(l.qty, unit)}</span>
    </span>`;
  return html`<span class="qty">
    <button aria-label="-" data-testid="cart-dec" onClick=${() => onCart(setQty(cart, key, l.qty - 1))}>−</button>
    <input type="number" min="1" step="1" aria-label=${t('cart.qty')} data-testid="cart-qty" value=${l.qty}
      onChange=${(e: any) => onCart(setQty(cart, key, Number(e.currentTarget.value)))} />
    <button aria-label="+" data-testid="cart-inc" onClick=${() => onCart(setQty(cart, key, l.qty + 1))}>+</button>
  </span>`;
}

/** On a phone the cart is a drawer: this bar at the bottom of the products shows what is in it and opens it. */
export function CartToggle({ cart, onOpen }: { cart: Cart; onOpen: () => void }) {
  // A weighed line is one item (0.5 kg of sugar is not half an item).
  const items = cart.lines.reduce((n, l) => n + (l.label || (!l.pack && measured(l.product)) ? 1 : l.qty), 0);
  return html`<button class="cart-toggle primary" data-testid="cart-open" onClick=${onOpen}>
    ${t('cart.open', { n: items, total: formatTzs(cartTotals(cart).total) })}
  </button>`;
}
