/**
 * Stage `checkRules`: the rules every shop applies to a sale (the shared `checkSale`: products known
 * and active, price mode, discount permission, a customer for credit), then the shop type's own
 * through its policy (a pharmacy's ADDO list and prescriptions), judged on the day the sale was made.
 */
import { checkSale, customerLookup, methodsOf } from '@duka/shared';
import { hasPermission } from '../../../lib/auth/authorize.js';
import type { ResolvedSale } from './resolve-lines.js';
import { enforce, type SaleDraft } from './sale-plan.js';

export function checkRules(sale: SaleDraft, resolved: ResolvedSale): void {
  const { set, request } = sale;
  const { input } = request;
  const { customer } = resolved;
  enforce(
    sale,
    checkSale({
      lines: resolved.lines.map((l) => {
        const p = set.products.get(l.product_id);
        return { index: l.index, product_id: l.product_id, product: p && { name: p.name, active: p.is_active === 1 } };
      }),
      business_type: set.org.business_type,
      price_mode: resolved.priceMode,
      discount_bp: resolved.discountBp,
      may_discount: hasPermission(sale.actor, 'discount'),
      // A credit part needs a customer as a credit sale does.
      payment_method: methodsOf(input).includes('Credit') ? 'Credit' : 'Cash',
      customer: customerLookup(input.customer_id, customer),
    }),
  );
  enforce(
    sale,
    sale.policy.checkRules({
      outletType: set.store.outlet_type,
      today: sale.today,
      lines: resolved.lines,
      products: set.products,
      prescription: input.prescription,
      permitted: set.permitted,
    }),
  );
}
