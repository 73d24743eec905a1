/**
 * The sale-booking port: what a payment request needs of the sale. The sale's rules (prices,
 * stock, prescriptions, discounts) exist once, in pos, which ranks above payments and so cannot be
 * imported here; payments declares what it needs and pos implements it.
 *
 * - Declared here, and used only by this folder: `quoteHeld` and `requestAnswer`
 *   (payment-requests.ts) and `bookPaid` (request-outcome.ts), each through `saleBooking(ctx)` below.
 * - Implemented by pos: `posSaleBooking` in modules/pos/services/held-sale.ts (offered by
 *   pos.exports.ts), typed against this interface.
 * - Wired once, in app.ts's `createDeps` (`saleBooking: posSaleBooking`), into every service context.
 *
 * docs/architecture.md ("Ports") lists every port of the server this way.
 */
import type { CreateSaleInput, Transaction } from '@duka/shared';
import type { AuthedContext, ServiceContext, TxContext } from '../../../lib/context.js';

/** Units of one stock product a held sale keeps out of the level while it waits for its payment. */
export interface SaleHold {
  product_id: string;
  product_name: string;
  qty: number;
  /** The request field naming the line, for an INSUFFICIENT_STOCK error. */
  field: string;
}

/** A sale worked out as POST /pos/sale would, without writing it. */
export interface SaleQuote {
  /** Cents. */
  total: number;
  /** Cents per product as priced now: the sale is booked at these when paid, so it is what the customer paid. */
  unit_prices: Record<string, number>;
  /** Stock products only (services take no stock), by product id. */
  holds: SaleHold[];
}

/** A held sale as kept in `payment_requests.sale_input` (JSON). */
export interface HeldSale {
  sale: CreateSaleInput;
  unit_prices: Record<string, number>;
  holds: SaleHold[];
}

export interface SaleBooking {
  /**
   * Plan the sale inside `tx`, under the locks a sale takes (the store row, then its stock rows),
   * and refuse it with the errors POST /pos/sale answers; nothing is written. A sale already
   * recorded with its id is a conflict.
   */
  quote(tx: TxContext<AuthedContext>, input: CreateSaleInput): Promise<SaleQuote>;
  /**
   * Book a held sale now that it is paid, inside `tx`, as `tx.actor` (the cashier who asked): the
   * store row is locked first, as by every sale, then the hold is given back and the sale takes
   * its stock, so the level moves once; the receipt number is taken now and the sale is marked
   * `verified`. A rule the sale breaks now (stock sold meanwhile by an offline till) books it all
   * the same, as an offline sale is booked, since the money has been taken; the breaches are answered.
   */
  book(tx: TxContext<AuthedContext>, held: HeldSale, payment: { reference: string; phone: string }): Promise<{ conflicts: string[] }>;
  /** The sale with its lines as the API answers it; null when there is none with this id in the store. */
  sale(ctx: ServiceContext, at: { orgId: string; storeId: string }, id: string): Promise<Transaction | null>;
}

/** The context's sale-booking port: pos's `posSaleBooking` (modules/pos/services/held-sale.ts), wired by app.ts. */
export const saleBooking = (ctx: ServiceContext): SaleBooking => ctx.saleBooking;
