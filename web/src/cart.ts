/**
 * The sale being rung up, as plain data and pure functions: the screens keep it in state, the
 * tests call these directly. Totals come from the shared `priceSale`, the function the till SDK
 * and the server price the sale with, so what the cashier sees is what the receipt will say.
 */
import {
  CustomerTin,
  fromCents,
  isMobileMoney,
  type MobileMoneyMethod,
  parseTzMobile,
  type PaymentMethod,
  type PricedSale,
  type Product,
  pricedProduct,
  priceSale,
  toBasisPoints,
  toCents,
  walletOf,
} from '@duka/shared';
import { typedTzs } from './format.js';

export interface CartLine {
  product: Product;
  qty: number;
}

export interface Cart {
  lines: CartLine[];
  /** Percent of the subtotal (0-100); only offered to users holding the discount permission. */
  discountPct: number;
}

export const emptyCart = (): Cart => ({ lines: [], discountPct: 0 });

/** `qty` more of `product` (a scan or a tap): its line grows, or a new line comes last. */
export function addProduct(cart: Cart, product: Product, qty = 1): Cart {
  const at = cart.lines.findIndex((l) => l.product.id === product.id);
  if (at < 0) return { ...cart, lines: [...cart.lines, { product, qty }] };
  return { ...cart, lines: cart.lines.map((l, i) => (i === at ? { ...l, qty: l.qty + qty } : l)) };
}

/**
 * What the scan field received: a code, or a quantity times a code (`3*6161100000017`, `3x…`),
 * typed before the scan so three of a thing take one scan.
 */
export function parseScan(typed: string): { code: string; qty: number } {
  const times = /^(\d{1,4})\s*[*xX×]\s*(\S.*)$/.exec(typed.trim());
  const qty = times ? Number(times[1]) : 1;
  return times && qty >= 1 ? { code: times[2]!.trim(), qty } : { code: typed.trim(), qty: 1 };
}

/** Units in the cart beyond what the replica says is on the shelf (0 for a service or when enough). */
export function shortBy(line: CartLine): number {
  return line.product.is_service ? 0 : Math.max(0, line.qty - Math.max(0, line.product.stock));
}

/** A line's quantity set outright; 0 or less removes the line. */
export function setQty(cart: Cart, productId: string, qty: number): Cart {
  const whole = Math.floor(qty);
  const lines =
    whole > 0
      ? cart.lines.map((l) => (l.product.id === productId ? { ...l, qty: whole } : l))
      : cart.lines.filter((l) => l.product.id !== productId);
  return { ...cart, lines };
}

export function setDiscount(cart: Cart, pct: number): Cart {
  return { ...cart, discountPct: Number.isFinite(pct) ? Math.min(100, Math.max(0, pct)) : 0 };
}

/** The cart priced in cents (VAT does not change a VAT-inclusive total; the receipt shows the tax the till booked). */
export function cartTotals(cart: Cart): PricedSale {
  return priceSale({
    lines: cart.lines.map((l) => ({ product: pricedProduct(l.product), qty: l.qty })),
    discount_bp: toBasisPoints(cart.discountPct),
    vat_enabled: false,
  });
}

/** The checkout's mobile-money choice: the sale's method is then its wallet (`Payment.wallet`). */
export const MOBILE = 'mobile';

export interface Payment {
  /** The method, or mobile money whose wallet is `wallet`. */
  method: PaymentMethod | typeof MOBILE;
  /** Mobile money: the customer's wallet, from the number's prefix until the cashier picks one; null when unknown. */
  wallet: MobileMoneyMethod | null;
  /** The cashier picked the wallet: it no longer follows the number. */
  walletChosen: boolean;
  /** Mobile money: the customer's number as typed; empty when not given. */
  phone: string;
  reference: string;
  customerId: string | null;
  /** The buyer's TIN for the fiscal receipt: offered only in a store that fiscalises; empty when not given. */
  tin: string;
  /** Cash handed over, TZS as typed (Cash only); empty when the cashier did not say. */
  tendered: string;
}

export const cashPayment = (): Payment => ({
  method: 'Cash',
  wallet: null,
  walletChosen: false,
  phone: '',
  reference: '',
  customerId: null,
  tin: '',
  tendered: '',
});

/** The sale's payment method: the wallet for mobile money (null until it is known). */
export const saleMethod = (pay: Payment): PaymentMethod | null => (pay.method === MOBILE ? pay.wallet : pay.method);

/** The number typed; the wallet follows its prefix (numbers are portable, so only as a default) until the cashier picks one. */
export function setPhone(pay: Payment, phone: string): Payment {
  if (pay.walletChosen) return { ...pay, phone };
  const method = walletOf(phone)?.method ?? null;
  return { ...pay, phone, wallet: method && isMobileMoney(method) ? method : null };
}

/** The customer's number as the server stores it (`+255…`), or null when none or not a valid one was typed. */
export function paymentPhone(pay: Payment): string | null {
  if (pay.method !== MOBILE || pay.phone.trim() === '') return null;
  const parsed = parseTzMobile(pay.phone);
  return parsed.ok ? parsed.e164 : null;
}

/** The cash handed over in cents, or null when none was typed (or it is not a cash sale). */
export function tenderedCents(pay: Payment): number | null {
  const tzs = pay.method === 'Cash' ? typedTzs(pay.tendered) : null;
  return tzs === null ? null : toCents(tzs);
}

/**
 * Mobile money charged (not asked of the phone) with no reference from the customer's SMS: the
 * charge waits, because the reference is what the server matches the provider's payment by, and
 * without it the sale could never be confirmed.
 */
export const referenceMissing = (pay: Payment): boolean => pay.method === MOBILE && pay.reference.trim() === '';

/** A TIN typed but not 9 digits: the sale waits until it is fixed or cleared. */
export const badTin = (pay: Payment): boolean => pay.tin.trim() !== '' && !CustomerTin.safeParse(pay.tin).success;

/** The cart's lines and discount, for a sale or a mobile-money push. */
export function saleLines(cart: Cart) {
  return {
    lines: cart.lines.map((l) => ({ product_id: l.product.id, qty: l.qty })),
    ...(cart.discountPct > 0 ? { discount_pct: cart.discountPct } : {}),
  };
}

/** The `till.sell` input for the cart and its payment (whose method is known: `saleMethod` is not null). */
export function saleInput(cart: Cart, pay: Payment) {
  const phone = paymentPhone(pay);
  return {
    lines: cart.lines.map((l) => ({ product_id: l.product.id, qty: l.qty })),
    payment_method: saleMethod(pay)!,
    ...(pay.reference.trim() ? { payment_reference: pay.reference.trim() } : {}),
    ...(phone ? { payment_phone: phone } : {}),
    ...(cart.discountPct > 0 ? { discount_pct: cart.discountPct } : {}),
    ...(pay.customerId ? { customer_id: pay.customerId } : {}),
    ...(pay.tin.trim() ? { customer_tin: pay.tin.trim() } : {}),
    ...(tenderedCents(pay) !== null ? { cash_tendered: fromCents(tenderedCents(pay)!) } : {}),
  };
}
