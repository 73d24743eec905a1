/**
 * `settleTender`: the cash handed over against the total (the shared `checkTender`). Refused here,
 * never by the push: a cash sale the till queued is one the server books. The credit limit is the
 * server's to judge (it knows what the customer owes), and a mobile-money payment is verified there.
 */
import { checkTender, type PricedSale, toCents } from '@duka/shared';
import { TillError } from '../../errors.js';
import type { ResolvedSale } from './draft.js';

/** Answers the cash tendered in cents (undefined when the cashier did not say). */
export function settleTender(sale: ResolvedSale, priced: PricedSale): number | undefined {
  const { input } = sale;
  const tendered = input.cash_tendered === undefined ? undefined : toCents(input.cash_tendered);
  const short = checkTender({ payment_method: input.payment_method, total: priced.total, cash_tendered: tendered });
  if (short) throw new TillError(short.code, `${short.field} ${short.message}`, short.field);
  return tendered;
}
