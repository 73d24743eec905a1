/**
 * What a printed receipt says, built once from the till's sale and the shop it was rung up in, so
 * the thermal printer (encode-receipt.ts) and anything else that prints read the same facts.
 * Pure: the shop's clock comes in as `zone`, money leaves as integer cents (shared money helpers).
 */
import type { Receipt, TillUser } from '@duka/client-sdk';
import {
  isMobileMoney,
  localDate,
  localTime,
  type Organisation,
  type PaymentMethod,
  type SaleMethod,
  type Store,
  toCents,
  type Unit,
} from '@duka/shared';
import { fiscalStamp } from '../fiscal.js';

/**
 * The SDK's receipt, with the cash handed over and the change when the SDK gives them (a cash sale
 * rung up with an amount tendered); both stay off the paper when absent or null.
 */
/** The till's receipt; a sale kept before the till recorded tenders has none. */
export type PrintableSale = Omit<Receipt, 'cash_tendered' | 'change_given'> & {
  cash_tendered?: number | null;
  change_given?: number | null;
};

export interface ReceiptLine {
  name: string;
  /** In `unit` (0.5 kg); a line by the pack counts packs, its name says which (issue 51). */
  qty: number;
  /** A measured product's unit; none for pieces and packs. */
  unit?: Unit;
  unitPrice: number;
  total: number;
}

export interface ReceiptFiscal {
  rctvnum: string;
  /** TRA's date and time of the receipt, East Africa Time (`YYYY-MM-DD`, `HH:MM:SS`). */
  date: string;
  time: string;
  znum: string;
  dc: number;
  gc: number;
  verifyUrl: string;
  /** Not yet acknowledged by TRA. */
  pending: boolean;
}

/**
 * Where a mobile-money payment taken by SMS reference stands: the server's `payment_verification`
 * once the sale is sent (`verified`, `unverified` while it waits for the provider's report,
 * `unmatched` when the owner's window passed without one); `pending` before the sale is sent (the
 * till has only the reference typed); `unchecked` for a sent sale the server checks nothing of
 * (its shop has no collection account). Only `verified` is a confirmed payment.
 */
export type PaymentCheck = 'verified' | 'unverified' | 'unmatched' | 'pending' | 'unchecked';

export function paymentCheck(
  sale: Pick<Receipt, 'payment_method' | 'payment_verification' | 'receipt_number' | 'payments'>,
): PaymentCheck | null {
  // A sale paid several ways is checked by its mobile-money part (issue 51).
  const method = sale.payment_method === 'Mixed' ? sale.payments?.find((p) => isMobileMoney(p.method))?.method : sale.payment_method;
  if (!method || !isMobileMoney(method)) return null;
  if (sale.payment_verification) return sale.payment_verification;
  return sale.receipt_number === null ? 'pending' : 'unchecked';
}

export interface ReceiptModel {
  shop: { name: string; branch: string | null; address: string | null; phone: string | null; tin: string | null };
  /** The server's receipt number once the sale has synced, the till's temporary one (MAD-T1-5) before. */
  number: string;
  /** `number` is the till's temporary one: the server's is given when the sale syncs. */
  provisional: boolean;
  /** The till's number of a synced sale, printed too so either finds the sale. */
  tillNumber: string | null;
  /** `DD/MM/YYYY HH:MM` on the shop's clock. */
  date: string;
  cashier: string | null;
  status: Receipt['status'];
  lines: ReceiptLine[];
  subtotal: number;
  discount: number;
  discountPct: number;
  tax: number;
  total: number;
  /** `phone`: the wallet a mobile-money sale was paid from (`+255…`), when known. */
  payment: { method: SaleMethod; reference: string | null; phone: string | null; check: PaymentCheck | null };
  /** A sale paid several ways: each part (cents, a cash part net of its change); empty for a sale paid one way. */
  parts: Array<{ method: PaymentMethod; amount: number; reference: string | null }>;
  tendered: number | null;
  change: number | null;
  customer: { name: string; tin: string | null } | null;
  fiscal: ReceiptFiscal | null;
}

export interface ReceiptContext {
  shop: Organisation | null;
  store: Store | null;
  cashier: string | null;
  /** The shop's time zone (the organisation's `timezone`). */
  zone: string;
}

const centsOrNull = (amount: number | null | undefined): number | null =>
  amount === null || amount === undefined ? null : toCents(amount);

export function receiptModel(sale: PrintableSale, { shop, store, cashier, zone }: ReceiptContext): ReceiptModel {
  const tillNumber = sale.client_receipt_number;
  const number = sale.receipt_number ?? tillNumber ?? sale.id;
  const fiscal = sale.fiscal;
  return {
    shop: {
      name: shop?.name ?? store?.name ?? '',
      branch: store && shop && store.name !== shop.name ? store.name : null,
      // A store's own address and phone are where the buyer comes back to; the organisation's otherwise.
      address: store?.address ?? shop?.address ?? null,
      phone: store?.phone ?? shop?.phone ?? null,
      tin: shop?.tin ?? null,
    },
    number,
    provisional: sale.receipt_number === null,
    tillNumber: sale.receipt_number !== null && tillNumber && tillNumber !== number ? tillNumber : null,
    date: shopDate(sale.created_at, zone),
    cashier,
    status: sale.status,
    lines: sale.lines.map(receiptLine),
    subtotal: toCents(sale.subtotal),
    discount: toCents(sale.discount),
    discountPct: sale.discount_pct,
    tax: toCents(sale.tax),
    total: toCents(sale.total),
    payment: {
      method: sale.payment_method,
      // A split sale's references are its parts' (each printed under its part).
      reference: sale.payment_method === 'Mixed' ? null : sale.payment_reference,
      phone: sale.payment_phone ?? null,
      check: paymentCheck(sale),
    },
    parts:
      sale.payment_method === 'Mixed'
        ? (sale.payments ?? []).map((p) => ({ method: p.method, amount: toCents(p.amount), reference: p.reference }))
        : [],
    tendered: centsOrNull(sale.cash_tendered),
    change: centsOrNull(sale.change_given),
    customer: sale.customer_name ? { name: sale.customer_name, tin: sale.customer_tin } : null,
    fiscal: fiscal
      ? {
          rctvnum: fiscal.rctvnum,
          ...fiscalStamp(fiscal.issued_at),
          dc: fiscal.dc,
          gc: fiscal.gc,
          verifyUrl: fiscal.verify_url,
          pending: fiscal.status !== 'issued',
        }
      : null,
  };
}

/**
 * Who rang the sale up, as far as the till knows: its signed-in user when the sale is theirs. The
 * replica holds no staff list, so another cashier's sale reprinted here prints no name.
 */
export function cashierName(sale: Pick<Receipt, 'cashier_id'>, user: TillUser | null): string | null {
  if (!user || sale.cashier_id !== user.id) return null;
  return [user.first_name, user.last_name].filter(Boolean).join(' ') || null;
}

/** Numeric and the same in every language and browser, so the printed bytes are too. */
export function shopDate(iso: string, zone: string): string {
  const ms = Date.parse(iso);
  let date: string;
  let time: string;
  try {
    date = localDate(ms, zone);
    time = localTime(ms, zone);
  } catch (err) {
    // A zone this runtime does not know: UTC, said so, rather than the device's own zone.
    if (zone === 'UTC') throw err;
    return `${shopDate(iso, 'UTC')} UTC`;
  }
  const [y, m, d] = date.split('-');
  return `${d}/${m}/${y} ${time.slice(0, 5)}`;
}

/** A sale line as printed: a pack's as packs of its name, a measured one's in its unit, a piece's as before. */
function receiptLine(l: PrintableSale['lines'][number]): ReceiptLine {
  const money = { unitPrice: toCents(l.unit_price), total: toCents(l.line_total) };
  if (l.pack) return { name: `${l.product_name} (${l.pack.name})`, qty: l.pack.qty, ...money };
  return { name: l.product_name, qty: l.qty, ...(l.unit && l.unit !== 'piece' ? { unit: l.unit } : {}), ...money };
}
