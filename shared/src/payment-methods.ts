/**
 * Every way money changes hands, written out once; the API schemas, the table types and the till
 * derive theirs from these (test/project/architecture.test.ts fails on a second copy).
 */
import { z } from 'zod';

/**
 * How a customer pays for a sale; `Credit` puts it on the customer's tab. `Airtel Money` goes beyond
 * the contract's five (Tanzania's third mobile-money network; docs/api-conventions.md).
 */
// Named in the OpenAPI document, so every route refers to one schema (the others are named where used: CreditPaymentMethod, …).
export const PaymentMethod = z
  .enum(['Cash', 'M-Pesa', 'Tigo Pesa', 'Airtel Money', 'Bank', 'Credit'])
  .meta({ id: 'PaymentMethod', description: 'How a customer pays for a sale; Credit puts it on their tab' });
export type PaymentMethod = z.infer<typeof PaymentMethod>;

/**
 * The method a sale answers (issue 51): its one method, or `Mixed` when it was paid several ways
 * (its `payments` say how). Never an input: a sale names its methods in `payments`.
 */
export const SaleMethod = z
  .enum([...PaymentMethod.options, 'Mixed'])
  .meta({ id: 'SaleMethod', description: 'How the sale was paid: its one method, or Mixed when paid several ways (see payments)' });
export type SaleMethod = z.infer<typeof SaleMethod>;

/** Money a customer hands over now: a sale's methods without `Credit` (paying off a tab). */
export const SettlementMethod = PaymentMethod.exclude(['Credit']);
export type SettlementMethod = z.infer<typeof SettlementMethod>;

/** How the shop pays out, for an expense or a supplier. */
export const PayoutMethod = z.enum(['Cash', 'M-Pesa', 'Tigo Pesa', 'Airtel Money', 'Bank', 'Cheque']);
export type PayoutMethod = z.infer<typeof PayoutMethod>;

/** The mobile-money wallets a sale can be paid from (issue 38): what a collection account checks. */
export const MobileMoneyMethod = PaymentMethod.extract(['M-Pesa', 'Tigo Pesa', 'Airtel Money']).meta({ id: 'MobileMoneyMethod' });
export type MobileMoneyMethod = z.infer<typeof MobileMoneyMethod>;
export const isMobileMoney = (method: string): method is MobileMoneyMethod =>
  (MobileMoneyMethod.options as readonly string[]).includes(method);

/**
 * Whether a mobile-money sale's money was seen arriving: `verified` once a payment the provider
 * reported is matched to it, `unverified` until then, `unmatched` when the owner's window passed
 * without one. Null on a sale nobody checks (not mobile money, or no collection account).
 */
export const PaymentVerification = z.enum(['verified', 'unverified', 'unmatched']).meta({ id: 'PaymentVerification' });
export type PaymentVerification = z.infer<typeof PaymentVerification>;
