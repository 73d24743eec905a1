/**
 * Stage `resolveLines`: the sale's lines in counts of their products' units (issue 51: a piece
 * product's qty whole, a measured one's up to 3 decimals, else a 400 naming the line), merged per
 * product; its price mode and discount; and its customer: found by id or phone, or, for a phone met
 * for the first time, a new customer written with the sale. The products themselves are the set's
 * (read once for a whole batch).
 */
import { mergeSaleLines, newId, type PriceMode, quantityFault, type SaleLineInput, toBasisPoints, toCount } from '@duka/shared';
import { ValidationError } from '../../../lib/errors.js';
import type { CustomerRow } from '../../../db/tables/customers.table.js';
import { normalisePhone } from '../../../lib/phone.js';
import type { SaleDraft, SaleLine } from './sale-plan.js';

export interface ResolvedSale {
  lines: SaleLine[];
  customer?: CustomerRow;
  /** Created on first sight of its phone (written with the sale). */
  newCustomer?: CustomerRow;
  priceMode: PriceMode;
  /** The discount, basis points. */
  discountBp: number;
}

export function resolveLines(sale: SaleDraft): ResolvedSale {
  const { input } = sale.request;
  const lines = mergeSaleLines(input.lines.map((l, i) => countedLine(sale, l, i)));
  const { customer, newCustomer } = findCustomer(sale);
  return { lines, customer, newCustomer, priceMode: input.price_mode ?? 'retail', discountBp: toBasisPoints(input.discount_pct ?? 0) };
}

/**
 * A line's qty as counts of its product's unit, so lines merge and stock moves in integers. A
 * product the shop lacks is left as sent, for `checkRules` to refuse.
 */
function countedLine(sale: SaleDraft, line: SaleLineInput, index: number): SaleLineInput {
  const unit = sale.set.products.get(line.product_id)?.unit;
  if (unit === undefined) return line;
  const fault = quantityFault(line.qty, unit);
  if (fault) throw new ValidationError(`lines.${index}.qty`, fault);
  return { product_id: line.product_id, qty: toCount(line.qty, unit) };
}

function findCustomer(sale: SaleDraft): { customer?: CustomerRow; newCustomer?: CustomerRow } {
  const { input } = sale.request;
  if (input.customer_id) return { customer: sale.set.customers.get(input.customer_id) };
  if (!input.customer_phone) return {};
  const phone = normalisePhone(input.customer_phone, 'customer_phone');
  const customer = sale.set.customersByPhone.get(phone);
  if (customer) return { customer };
  const newCustomer = newCustomerRow(sale, phone, input.customer_name ?? phone);
  return { customer: newCustomer, newCustomer };
}

/** The columns the table defaults are as it defaults them. */
function newCustomerRow(sale: SaleDraft, phone: string, name: string): CustomerRow {
  return {
    id: newId(),
    org_id: sale.set.orgId,
    name,
    phone,
    email: null,
    notes: null,
    segment: 'New',
    credit_limit: 0,
    is_active: 1,
    total_spend: 0,
    visit_count: 0,
    first_purchase_at: null,
    last_purchase_at: null,
    created_at: sale.now,
    updated_at: sale.now,
  };
}
