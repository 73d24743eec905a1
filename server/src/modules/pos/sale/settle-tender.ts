/**
 * Stage `settleTender`: how the sale is paid. Its parts (one for a sale paid one way, up to four
 * split: `splitTender`), cash tendered and the change (a pushed sale keeps the change the till gave,
 * its tender judged by the push), a credit part within the customer's limit, and whether a
 * mobile-money part is to be checked against the provider's reports.
 */
import {
  changeFor,
  checkCreditLimit,
  checkTender,
  hasCreditLimit,
  isMobileMoney,
  mirroredOf,
  type PricedSale,
  rebaseParts,
  type SaleMethod,
  saleMethodOf,
  splitTender,
  type TenderPart,
  toCents,
} from '@duka/shared';
import type { TransactionRow } from '../../../db/tables/pos.table.js';
import { ValidationError } from '../../../lib/errors.js';
import type { ResolvedSale } from './resolve-lines.js';
import { enforce, type SaleDraft } from './sale-plan.js';

export interface Tender {
  /** The one method, or `Mixed`. */
  method: SaleMethod;
  /** Cents each, adding up to the total. */
  parts: TenderPart[];
  /** Cents, or null when the till did not say. */
  tendered: number | null;
  change: number | null;
  status: 'paid' | 'credit';
  verification: TransactionRow['payment_verification'];
  /** Cents of each part paid by an exchange's refund (`SaleOptions.mirrored`), in the parts' order. */
  mirrored: number[];
}

export function settleTender(sale: SaleDraft, resolved: ResolvedSale, priced: PricedSale): Tender {
  const { opts } = sale.request;
  const paid = sale.request.input.payments ? splitParts(sale, priced.total) : onePart(sale, priced.total);
  const credit = paid.parts.find((p) => p.method === 'Credit');
  if (credit) checkCredit(sale, resolved, credit.amount);
  const mirrored = mirroredOf(paid.parts, opts.mirrored ?? []);
  // Only new money is checked (an exchange's mirrored part was the old sale's, checked as that sale).
  const wallet = paid.parts.some((p, i) => isMobileMoney(p.method) && p.amount > mirrored[i]!);
  // Checked only where a provider reports payments; never counted as verified on the till's word.
  const verification = opts.paymentConfirmed ? 'verified' : sale.set.collects && wallet ? 'unverified' : null;
  return {
    ...paid,
    method: saleMethodOf(paid.parts),
    status: credit ? 'credit' : 'paid',
    verification,
    mirrored,
  };
}

/** A sale paid one way: one part of its total, and the cash tender as before. */
function onePart(sale: SaleDraft, total: number) {
  const { input, opts } = sale.request;
  const method = input.payment_method!;
  const tendered = input.cash_tendered === undefined ? null : toCents(input.cash_tendered);
  if (opts.changeGiven === undefined) {
    const breach = checkTender({ payment_method: method, total, cash_tendered: tendered ?? undefined });
    if (breach) throw new ValidationError(breach.field, breach.message);
  }
  const change = tendered === null ? null : (opts.changeGiven ?? changeFor(total, tendered));
  const part = { method, amount: total, reference: input.payment_reference ?? null, phone: input.payment_phone ?? null };
  return { parts: [part], tendered, change };
}

/** A split sale: the shared rule online; a pushed one keeps the till's parts, moved to the server's total. */
function splitParts(sale: SaleDraft, total: number) {
  const { input, opts } = sale.request;
  if (opts.tillParts) return { parts: rebaseParts(opts.tillParts, total), tendered: tenderedOf(sale), change: opts.changeGiven ?? null };
  const split = splitTender(
    total,
    input.payments!.map((p) => ({ ...p, amount: toCents(p.amount) })),
  );
  if ('field' in split) throw new ValidationError(split.field, split.message);
  return split;
}

const tenderedOf = (sale: SaleDraft) => {
  const cash = sale.request.input.payments!.find((p) => p.method === 'Cash');
  return cash ? toCents(cash.amount) : null;
};

/** A credit part within the customer's limit, counting what they owe already (and this set's earlier sales). */
function checkCredit(sale: SaleDraft, { customer }: ResolvedSale, amount: number) {
  const owed = customer && sale.set.owed.get(customer.id);
  if (!customer || owed === undefined || !hasCreditLimit(customer.credit_limit)) return;
  const breach = checkCreditLimit({ customer_name: customer.name, limit: customer.credit_limit, owed, total: amount });
  if (breach) enforce(sale, [breach]);
}
