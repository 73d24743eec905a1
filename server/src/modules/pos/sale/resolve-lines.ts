/**
 * Stage `resolveLines`: the sale's lines merged per product, its price mode and discount, and its
 * customer: found by id or phone, or, for a phone met for the first time, a new customer written
 * with the sale. The products themselves are the set's (read once for a whole batch).
 */
import { mergeSaleLines, newId, type PriceMode, toBasisPoints } from '@duka/shared';
import type { CustomerRow } from '../../../db/tables/customers.table.js';
import { normalisePhone } from '../../../lib/phone.js';
import type { SaleDraft, SaleLine } from './sale-plan.js';
import { type LabelledLine, readLine } from './scale-labels.js';

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
  const read = input.lines.map((l, i) => readLine(l, i, sale.set.labels));
  const lines: SaleLine[] = mergeSaleLines(read).map((l) => ({ ...l, ...labelOf(read, l.product_id) }));
  const { customer, newCustomer } = findCustomer(sale);
  return { lines, customer, newCustomer, priceMode: input.price_mode ?? 'retail', discountBp: toBasisPoints(input.discount_pct ?? 0) };
}

/** The price labels of one product in the sale, added up (they are charged their printed prices). */
function labelOf(read: LabelledLine[], productId: string): Pick<SaleLine, 'label'> {
  const labels = read.flatMap((l) => (l.product_id === productId && l.label ? [l.label] : []));
  if (labels.length === 0) return {};
  return { label: { qty: labels.reduce((s, l) => s + l.qty, 0), amount: labels.reduce((s, l) => s + l.amount, 0) } };
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
