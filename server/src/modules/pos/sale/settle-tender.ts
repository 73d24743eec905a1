/**
 * Stage `settleTender`: how the sale is paid. Cash tendered and the change (a pushed sale keeps the
 * change the till gave, its tender judged by the push), a credit sale within the customer's limit,
 * and whether a mobile-money payment is to be checked against the provider's reports.
 */
import {
  changeFor,
  checkCreditLimit,
  checkTender,
  hasCreditLimit,
  isMobileMoney,
  type PricedSale,
  toCents,
  saleStatusOf,
} from '@duka/shared';
import type { TransactionRow } from '../../../db/tables/pos.table.js';
import { ValidationError } from '../../../lib/errors.js';
import type { ResolvedSale } from './resolve-lines.js';
import { enforce, type SaleDraft } from './sale-plan.js';

export interface Tender {
  /** Cents, or null when the till did not say. */
  tendered: number | null;
  change: number | null;
  status: 'paid' | 'credit';
  verification: TransactionRow['payment_verification'];
}

export function settleTender(sale: SaleDraft, resolved: ResolvedSale, priced: PricedSale): Tender {
  const { input, opts } = sale.request;
  const tendered = input.cash_tendered === undefined ? null : toCents(input.cash_tendered);
  if (opts.changeGiven === undefined) {
    const breach = checkTender({ payment_method: input.payment_method, total: priced.total, cash_tendered: tendered ?? undefined });
    if (breach) throw new ValidationError(breach.field, breach.message);
  }
  const change = tendered === null ? null : (opts.changeGiven ?? changeFor(priced.total, tendered));
  checkCredit(sale, resolved, priced.total);
  return {
    tendered,
    change,
    status: saleStatusOf(input.payment_method),
    // Checked only where a provider reports payments; never counted as verified on the till's word.
    verification: opts.paymentConfirmed ? 'verified' : sale.set.collects && isMobileMoney(input.payment_method) ? 'unverified' : null,
  };
}

/** A credit sale within the customer's limit, counting what they owe already (and this set's earlier sales). */
function checkCredit(sale: SaleDraft, { customer }: ResolvedSale, total: number) {
  const owed = customer && sale.set.owed.get(customer.id);
  if (sale.request.input.payment_method !== 'Credit' || !customer || owed === undefined || !hasCreditLimit(customer.credit_limit)) return;
  const breach = checkCreditLimit({ customer_name: customer.name, limit: customer.credit_limit, owed, total });
  if (breach) enforce(sale, [breach]);
}
