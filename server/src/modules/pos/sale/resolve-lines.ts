/**
 * Stage `resolveLines`: the sale's lines in counts of their products' units (issue 51: a piece
 * product's qty whole, a measured one's up to 3 decimals, packs whole, else a 400 naming the line),
 * merged per product (and pack; a line sold by the pack takes packs × the pack's units); its price
 * mode and discount; and its customer: found by id or phone, or, for a phone met for the first
 * time, a new customer written with the sale. The products and packs themselves are the set's
 * (read once for a whole batch).
 */
import { mergeSaleLines, newId, type PriceMode, quantityFault, toBasisPoints, toCount } from '@duka/shared';
import type { CustomerRow } from '../../../db/tables/customers.table.js';
import { normalisePhone } from '../../../lib/phone.js';
import { ServiceError, ValidationError } from '../../../lib/errors.js';
import type { SaleDraft, SaleLine } from './sale-plan.js';
import { type LabelledLine, readLine } from './scale-labels.js';

/** Counts a line may take: what an integer column holds with room to spare. */
const MAX_LINE_COUNTS = 1_000_000_000;

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
  // A label is read into its product and quantity first, then every line is counted in its unit.
  const read = input.lines.map((l, i) => countedLine(sale, readLine(l, i, sale.set.labels), i));
  const lines = mergeSaleLines(read).map((l) => ({ ...packLine(sale, l), ...labelOf(read, l) }));
  const { customer, newCustomer } = findCustomer(sale);
  return { lines, customer, newCustomer, priceMode: input.price_mode ?? 'retail', discountBp: toBasisPoints(input.discount_pct ?? 0) };
}

/**
 * A line's qty as counts of its product's unit, so lines merge and stock moves in integers; a line
 * by the pack counts whole packs. A product the shop lacks is left as sent, for `checkRules` to refuse.
 */
function countedLine(sale: SaleDraft, line: LabelledLine, index: number): LabelledLine {
  const unit = line.pack_id ? 'piece' : sale.set.products.get(line.product_id)?.unit;
  if (unit === undefined) return line;
  const fault = quantityFault(line.qty, unit);
  if (fault) throw new ValidationError(`lines.${index}.qty`, line.pack_id ? 'packs are sold whole' : fault);
  const label = line.label && { qty: toCount(line.label.qty, unit), amount: line.label.amount };
  return { ...line, qty: toCount(line.qty, unit), ...(label && { label }) };
}

/** A line as the stages see it: by the pack, its counts are packs × the pack's units (a pack of another product or organisation is not found). */
function packLine(sale: SaleDraft, l: SaleLine & { pack_id?: string }): SaleLine {
  if (!l.pack_id) return { index: l.index, product_id: l.product_id, qty: l.qty };
  const row = sale.set.packs.get(l.pack_id);
  if (!row || row.product_id !== l.product_id) {
    const field = `lines.${l.index}.pack_id`;
    throw new ServiceError('NOT_FOUND', 'pack not found', {
      errors: [{ code: 'NOT_FOUND', field, message: 'is not a pack of this product' }],
    });
  }
  const qty = l.qty * row.units;
  if (qty > MAX_LINE_COUNTS) throw new ValidationError(`lines.${l.index}.qty`, `is more than one line can take (${qty} units)`);
  return { index: l.index, product_id: l.product_id, qty, pack: { row, packs: l.qty } };
}

/** The price labels of one product in the sale, added up (they are charged their printed prices). */
function labelOf(read: LabelledLine[], line: { product_id: string; pack_id?: string }): Pick<SaleLine, 'label'> {
  if (line.pack_id) return {};
  const labels = read.flatMap((l) => (l.product_id === line.product_id && !l.pack_id && l.label ? [l.label] : []));
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
