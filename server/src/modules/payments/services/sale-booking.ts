/**
 * What a payment request needs of the sale, which the pos area owns and which ranks above payments
 * (docs/architecture.md): a port, implemented by pos (`posSaleBooking`) and wired by app.ts into
 * every context as `ctx.saleBooking`, the way billing's provider reaches services. So the sale's
 * rules (prices, stock, prescriptions, discounts) exist once, in pos, and pos may still import
 * payments.
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
