/**
 * The sale being rung up, as plain data and pure functions: the screens keep it in state, the
 * tests call these directly. Totals come from the shared `priceSale`, the function the till SDK
 * and the server price the sale with, so what the cashier sees is what the receipt will say.
 */
import {
  CustomerTin,
  fromCents,
  isMeasured,
  isMobileMoney,
  type MobileMoneyMethod,
  parseTzMobile,
  type PaymentMethod,
  type PricedSale,
  type PricingLine,
  type Product,
  type ProductPack,
  pricedProduct,
  priceSale,
  quantityFault,
  type ScannedProduct,
  toBasisPoints,
  toCents,
  toCount,
  walletOf,
} from '@duka/shared';
import { typedTzs } from './format.js';

/**
 * A line of the cart (issue 51): `qty` in the product's unit (0.5 kg; whole for a piece), or in
 * packs on a line by the pack (`pack`, a scanned pack barcode), or as read from a shop-scale label
 * (`label`: its barcode, quantity and, for a price label, the printed amount in TZS).
 */
export interface CartLine {
  product: Product;
  qty: number;
  pack?: ProductPack;
  label?: { barcode: string; amount: number | null };
}

export interface Cart {
  lines: CartLine[];
  /** Percent of the subtotal (0-100); only offered to users holding the discount permission. */
  discountPct: number;
}

export const emptyCart = (): Cart => ({ lines: [], discountPct: 0 });

/** A line's key in the cart: its product, its pack, or its label (a label is a line of its own). */
export const lineKey = (l: CartLine): string =>
  l.label ? `${l.product.id}@${l.label.barcode}` : l.pack ? `${l.product.id}/${l.pack.id}` : l.product.id;

/** `qty` more of `product` (a scan or a tap; of a pack, packs): its line grows, or a new line comes last. */
export function addProduct(cart: Cart, product: Product, qty = 1, pack?: ProductPack): Cart {
  const line: CartLine = { product, qty, ...(pack && { pack }) };
  const at = cart.lines.findIndex((l) => lineKey(l) === lineKey(line));
  if (at < 0) return { ...cart, lines: [...cart.lines, line] };
  return { ...cart, lines: cart.lines.map((l, i) => (i === at ? { ...l, qty: roundQty(l.qty + qty) } : l)) };
}

/** A scanned shop-scale label: its own line, of the label's quantity (and price, for a price label). */
export function addLabel(cart: Cart, scanned: ScannedProduct): Cart {
  const label = scanned.scale_label!;
  const line: CartLine = { product: scanned, qty: label.qty, label: { barcode: label.barcode, amount: label.amount } };
  if (cart.lines.some((l) => lineKey(l) === lineKey(line))) return cart;
  return { ...cart, lines: [...cart.lines, line] };
}

/** The product is sold by a measure (kg, l…): the till asks how much rather than adding one. */
export const measured = (p: Product): boolean => isMeasured(p.unit ?? 'piece');

/** A typed quantity (`0.5`, `0,5`, `1.25`) in the product's unit, or null when it is not one. */
export function typedQty(typed: string, product: Product): number | null {
  const qty = Number(typed.trim().replace(',', '.'));
  if (!typed.trim() || !(qty > 0) || qty > 1_000_000) return null;
  return quantityFault(qty, product.unit ?? 'piece') === null ? qty : null;
}

/** At most 3 decimals, without binary-float tails (0.1 + 0.2 is 0.3). */
const roundQty = (qty: number): number => Math.round(qty * 1000) / 1000;

/**
 * What the scan field received: a code, or a quantity times a code (`3*6161100000017`, `3x…`),
 * typed before the scan so three of a thing take one scan.
 */
export function parseScan(typed: string): { code: string; qty: number } {
  const times = /^(\d{1,4})\s*[*xX×]\s*(\S.*)$/.exec(typed.trim());
  const qty = times ? Number(times[1]) : 1;
  return times && qty >= 1 ? { code: times[2]!.trim(), qty } : { code: typed.trim(), qty: 1 };
}

/** How much of the product's unit a line takes: a pack line's packs × the pack's units. */
const unitsOf = (l: CartLine): number => (l.pack ? l.qty * l.pack.units : l.qty);

/** Units in the cart beyond what the replica says is on the shelf (0 for a service or when enough). */
export function shortBy(line: CartLine): number {
  return line.product.is_service ? 0 : Math.max(0, roundQty(unitsOf(line) - Math.max(0, line.product.stock)));
}

/** A line's quantity set outright (whole for pieces and packs, to 3 decimals measured); 0 or less removes the line. A label's is the label's. */
export function setQty(cart: Cart, key: string, qty: number): Cart {
  const line = cart.lines.find((l) => lineKey(l) === key);
  if (line?.label && qty > 0) return cart;
  const next = line && !line.pack && measured(line.product) ? roundQty(qty) : Math.floor(qty);
  const lines =
    next > 0 ? cart.lines.map((l) => (lineKey(l) === key ? { ...l, qty: next } : l)) : cart.lines.filter((l) => lineKey(l) !== key);
  return { ...cart, lines };
}

/** A line as the shared pricing reads it: counts of its unit (the SDK and the server price the same way). */
function pricingLine(l: CartLine): PricingLine {
  const unit = l.product.unit ?? 'piece';
  const base = pricedProduct(l.product);
  const product = isMeasured(unit)
    ? { ...base, unit, wholesale_min_qty: l.product.wholesale_min_qty === null ? null : toCount(l.product.wholesale_min_qty, unit) }
    : base;
  if (l.pack) {
    const { id, units, selling_price } = l.pack;
    return {
      product,
      qty: l.qty,
      pack: { id, units: toCount(units, unit), selling_price: selling_price === null ? null : toCents(selling_price), unit },
    };
  }
  const qty = toCount(l.qty, unit);
  return { product, qty, ...(l.label?.amount != null ? { label: { qty, amount: toCents(l.label.amount) } } : {}) };
}

/** The lines as `till.sell` takes them: a pack's with its `pack_id`, a label's with its `scale_barcode`. */
export const cartSaleLines = (cart: Cart) =>
  cart.lines.map((l) => ({
    product_id: l.product.id,
    qty: l.qty,
    ...(l.pack ? { pack_id: l.pack.id } : {}),
    ...(l.label ? { scale_barcode: l.label.barcode } : {}),
  }));

export function setDiscount(cart: Cart, pct: number): Cart {
  return { ...cart, discountPct: Number.isFinite(pct) ? Math.min(100, Math.max(0, pct)) : 0 };
}

/** The cart priced in cents (VAT does not change a VAT-inclusive total; the receipt shows the tax the till booked). */
export function cartTotals(cart: Cart): PricedSale {
  return priceSale({
    lines: cart.lines.map(pricingLine),
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
    lines: cartSaleLines(cart),
    ...(cart.discountPct > 0 ? { discount_pct: cart.discountPct } : {}),
  };
}

/** The `till.sell` input for the cart and its payment (whose method is known: `saleMethod` is not null). */
export function saleInput(cart: Cart, pay: Payment) {
  const phone = paymentPhone(pay);
  return {
    lines: cartSaleLines(cart),
    payment_method: saleMethod(pay)!,
    ...(pay.reference.trim() ? { payment_reference: pay.reference.trim() } : {}),
    ...(phone ? { payment_phone: phone } : {}),
    ...(cart.discountPct > 0 ? { discount_pct: cart.discountPct } : {}),
    ...(pay.customerId ? { customer_id: pay.customerId } : {}),
    ...(pay.tin.trim() ? { customer_tin: pay.tin.trim() } : {}),
    ...(tenderedCents(pay) !== null ? { cash_tendered: fromCents(tenderedCents(pay)!) } : {}),
  };
}
