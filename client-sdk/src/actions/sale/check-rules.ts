/**
 * `checkRules`: the sale rules every shop applies (the shared `checkSale`), then the shop type's
 * own through its policy (a pharmacy's ADDO list and prescriptions). Refused here as the server
 * refuses it online, except past the credit limit: what a customer owes is the server's to know,
 * and it books such an offline sale with a conflict.
 */
import { checkSale, customerLookup, methodsOf } from '@duka/shared';
import { TillError } from '../../errors.js';
import type { LocalTrx } from '../../local/db.js';
import { may } from '../context.js';
import type { ResolvedSale } from './draft.js';
import type { SalePolicy } from './policy.js';

export async function checkRules(trx: LocalTrx, sale: ResolvedSale, policy: SalePolicy): Promise<void> {
  const { input, products } = sale;
  const [breach] = checkSale({
    lines: sale.lines.map((l) => {
      const p = products.get(l.product_id);
      return { index: l.index, product_id: l.product_id, product: p && { name: p.name, active: p.is_active } };
    }),
    business_type: sale.shop.org.business_type,
    price_mode: sale.mode,
    discount_bp: sale.discountBp,
    may_discount: await may(trx, 'discount', sale.shop.user),
    // A split sale with a credit part needs a customer as a credit sale does (the server's rule).
    payment_method: methodsOf(input).includes('Credit') ? 'Credit' : 'Cash',
    customer: customerLookup(input.customer_id, sale.customer),
  });
  if (breach) throw new TillError(breach.code, breach.message, breach.field);
  await policy.checkRules(trx, sale);
}
