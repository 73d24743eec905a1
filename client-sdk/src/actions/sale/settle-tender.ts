/**
 * `settleTender`: how the sale is paid, by the server's rules from `@duka/shared`: one method with
 * the cash handed over against the total (`checkTender`), or several parts (`payments`, issue 51)
 * judged by `splitTender`, the server's one rule. Refused here, never by the push: a sale the till
 * queued is one the server books. The credit limit is the server's to judge (it knows what the
 * customer owes), and a mobile-money part is verified there.
 */
import {
  changeFor,
  checkTender,
  PaymentMethod,
  CreateSaleBody,
  type PricedSale,
  paymentMethodOrParts,
  SalePayments,
  saleMethodOf,
  splitTender,
  toCents,
} from '@duka/shared';
import { TillError } from '../../errors.js';
import type { SellInput } from '../../types.js';
import { invalid } from '../context.js';
import type { ResolvedSale, TillTender } from './draft.js';

/** How a sale says it is paid, as the server's body says it: `payment_method`, or `payments`, not both unless they agree. */
const PaymentInput = CreateSaleBody.pick({ payment_method: true, payments: true, cash_tendered: true }).superRefine(paymentMethodOrParts);

/** How the sale says it is paid, checked before anything is read (with its lines, `checkInput`). */
export function checkPaymentInput(input: SellInput): void {
  if (input.payments === undefined) {
    if (!PaymentMethod.safeParse(input.payment_method).success)
      throw new TillError('VALIDATION_ERROR', 'payment_method is not a payment method', 'payment_method');
    return;
  }
  const parsed = PaymentInput.safeParse(input);
  if (!parsed.success) throw invalid(parsed.error.issues[0]);
}

export function settleTender(sale: ResolvedSale, priced: PricedSale): TillTender {
  const { input } = sale;
  if (input.payments) {
    const split = splitTender(
      priced.total,
      // As the schema reads them (checked by `checkPaymentInput`): a phone in +255 form, a reference trimmed.
      SalePayments.parse(input.payments).map((p) => ({ ...p, amount: toCents(p.amount) })),
    );
    if ('field' in split) throw new TillError(split.code, `${split.field} ${split.message}`, split.field);
    return {
      method: saleMethodOf(split.parts),
      parts: split.parts,
      tendered: split.tendered ?? undefined,
      change: split.change ?? undefined,
    };
  }
  const method = input.payment_method!;
  const tendered = input.cash_tendered === undefined ? undefined : toCents(input.cash_tendered);
  const short = checkTender({ payment_method: method, total: priced.total, cash_tendered: tendered });
  if (short) throw new TillError(short.code, `${short.field} ${short.message}`, short.field);
  const part = { method, amount: priced.total, reference: input.payment_reference ?? null, phone: input.payment_phone ?? null };
  return { method, parts: [part], tendered, change: tendered === undefined ? undefined : changeFor(priced.total, tendered) };
}
