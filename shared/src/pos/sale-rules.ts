/**
 * Whether a sale may be made (design §3, §4): the one implementation behind POST /pos/sale, the
 * push of a sale a till made offline, and the till's own `sell`. The checks only report what they
 * found, in the order a cashier should hear of it; each caller decides what a breach means:
 *
 * - online, the server refuses with the first breach (the cashier can still fix the sale);
 * - pushed from a till, the sale has already happened: a breach with a `conflict` is booked and
 *   that conflict recorded, a breach without one (a product the shop never had, wholesale prices
 *   in a retail shop, credit with nobody to owe it) is refused even then;
 * - the till refuses with the first breach as a `TillError`.
 *
 * Two steps, because the credit limit is measured against the priced total: `checkSale` before
 * pricing, `checkCreditLimit` after it. Amounts are integer cents, the discount basis points.
 */
import type { z } from 'zod';
import { PERMISSION_REFUSAL } from '../common.js';
import type { ErrorCode } from '../errors.js';
import { fromCents } from '../money.js';
import { ConflictKind, type SaleConflict } from '../conflicts.js';
import type { PaymentMethod } from '../payment-methods.js';
import type { PriceMode } from './pos.schemas.js';

/** The conflicts a sale rule can raise; oversold and the price conflicts come from the stock write and the push. */
export const SaleRuleConflictKind = ConflictKind.extract(['inactive_product', 'permission', 'credit_limit']);

export interface SaleBreach {
  code: Extract<ErrorCode, 'NOT_FOUND' | 'BUSINESS_RULE' | 'FORBIDDEN' | 'CREDIT_LIMIT_EXCEEDED'>;
  /** Dot path of the input at fault: `lines.0.product_id`, `price_mode`, `discount_pct`, `customer_id`. */
  field: string;
  message: string;
  /** Present when an offline sale is booked anyway and this recorded; absent, it is refused even offline. */
  conflict?: SaleConflict & { kind: z.infer<typeof SaleRuleConflictKind> };
}

export interface SaleCheckLine {
  /** Position of the line in the sale as sent (of its first line, once merged). */
  index: number;
  product_id: string;
  /** The product as found in the organisation's catalogue; absent when it has no such product. */
  product?: { name: string; active: boolean };
}

export interface SaleCheckInput {
  /** The sale's merged lines (`mergeSaleLines`), each with its product as found. */
  lines: SaleCheckLine[];
  /** The organisation's business type (`BusinessTypeSlug`). */
  business_type: string;
  price_mode: PriceMode;
  discount_bp: number;
  /** Whether the cashier holds the `discount` permission (owners hold every permission). */
  may_discount: boolean;
  payment_method: PaymentMethod;
  /** `not_found`: the sale names a customer the shop does not have. */
  customer: 'found' | 'not_found' | 'none';
}

const WHOLESALE_SHOPS = ['wholesale', 'retail_wholesale'];

export function checkSale(input: SaleCheckInput): SaleBreach[] {
  const breaches: SaleBreach[] = [];
  for (const l of input.lines) {
    const field = `lines.${l.index}.product_id`;
    if (!l.product) {
      breaches.push({ code: 'NOT_FOUND', field, message: 'product not found' });
    } else if (!l.product.active) {
      const message = `${l.product.name} is no longer sold`;
      breaches.push({ code: 'BUSINESS_RULE', field, message, conflict: { kind: 'inactive_product', product_id: l.product_id, message } });
    }
  }
  if (input.price_mode === 'wholesale' && !WHOLESALE_SHOPS.includes(input.business_type)) {
    breaches.push({ code: 'BUSINESS_RULE', field: 'price_mode', message: 'wholesale prices are only for wholesale shops' });
  }
  if (input.discount_bp > 0 && !input.may_discount) {
    breaches.push({
      code: 'FORBIDDEN',
      field: 'discount_pct',
      message: PERMISSION_REFUSAL.discount,
      conflict: { kind: 'permission', message: 'discount given without the discount permission' },
    });
  }
  if (input.customer === 'not_found') breaches.push({ code: 'NOT_FOUND', field: 'customer_id', message: 'customer not found' });
  else if (input.payment_method === 'Credit' && input.customer === 'none') {
    breaches.push({ code: 'BUSINESS_RULE', field: 'customer_id', message: 'a credit sale needs a customer' });
  }
  return breaches;
}

export interface CreditLimitInput {
  customer_name: string;
  /** The customer's credit limit; 0 means none. */
  limit: number;
  /** What the customer owes before this sale. */
  owed: number;
  /** The priced total of this credit sale. */
  total: number;
}

/** Whether a customer's credit is limited at all (0 means no limit): callers skip reading what is owed. */
export const hasCreditLimit = (limit: number): boolean => limit > 0;

/** A credit sale may take what the customer owes up to their limit, not past it. */
export function checkCreditLimit(input: CreditLimitInput): SaleBreach | undefined {
  if (!hasCreditLimit(input.limit) || input.owed + input.total <= input.limit) return undefined;
  const message = `credit limit exceeded: ${input.customer_name} owes ${fromCents(input.owed)} of a ${fromCents(input.limit)} limit`;
  const detail = { owed: fromCents(input.owed), limit: fromCents(input.limit), sale: fromCents(input.total) };
  return { code: 'CREDIT_LIMIT_EXCEEDED', field: 'customer_id', message, conflict: { kind: 'credit_limit', message, detail } };
}
