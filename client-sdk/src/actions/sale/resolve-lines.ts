/**
 * `resolveLines`, the sale's first stage: the lines merged per product (issue 51: in counts, by the
 * pack, from scale labels: sale-lines.ts), their products and the
 * customer from the replica. `checkInput` runs before it, outside the transaction: a sale's fields
 * are refused before anything is read, as the server validates the body before any rule.
 */
import { mergeSaleLines, Prescription, QuantityInput, toBasisPoints } from '@duka/shared';
import { TillError } from '../../errors.js';
import type { LocalTrx } from '../../local/db.js';
import * as reads from '../../reads.js';
import { requireServerProtocol } from '../../sync/protocol.js';
import type { SellInput } from '../../types.js';
import { invalid, readyShop } from '../context.js';
import type { ResolvedSale } from './draft.js';
import { saleRead } from './sale-read.js';
import { checkPaymentInput } from './settle-tender.js';
import { countLine, labelLines, labelOf, packLine, protocol2Feature, readLine } from './sale-lines.js';

export function checkInput(input: SellInput): void {
  if (!Array.isArray(input.lines) || input.lines.length === 0)
    throw new TillError('VALIDATION_ERROR', 'lines must have at least one line', 'lines');
  input.lines.forEach((l, i) => {
    // Positive, at most 3 decimals (issue 51); whether the product takes decimals is `resolveLines`' to say.
    const qty = QuantityInput.safeParse(l.qty);
    if (!qty.success) throw invalid({ ...qty.error.issues[0]!, path: ['lines', i, 'qty'] });
  });
  checkPaymentInput(input);
  if (input.prescription !== undefined) {
    // Its fields first, as the server validates the body before any rule.
    const rx = Prescription.safeParse(input.prescription);
    if (!rx.success) throw invalid({ ...rx.error.issues[0]!, path: ['prescription', ...rx.error.issues[0]!.path] });
  }
}

/**
 * Labels read, lines counted in their units and merged per product and pack, packs and labels
 * attached, as the server's stage. A sale by the pack, from a scale label or of a decimal quantity
 * or paid several ways is refused while the till's server speaks a sync protocol older than 2: it
 * would reject it.
 */
export async function resolveLines(trx: LocalTrx, input: SellInput, at: number): Promise<ResolvedSale> {
  // A scale label's line names its product too (`readLine` refuses another): the lines' ids are all the products.
  const { shop: rows, products, openShift, counters } = await saleRead(trx, [...new Set(input.lines.map((l) => l.product_id))]);
  const shop = readyShop(rows);
  const read = await Promise.all(input.lines.map((l, i) => readLine(trx, l, i)));
  const counted = read.map((l, i) => countLine(products, l, i));
  const feature = protocol2Feature(input.lines, input.payments);
  if (feature) await requireServerProtocol(trx, 2, feature);
  const lines = mergeSaleLines(counted).map((l) => ({ ...packLine(products, l), ...labelOf(counted, l) }));
  const customer = input.customer_id ? await reads.customerById(trx, input.customer_id) : null;
  const mode = input.price_mode ?? 'retail';
  const discountBp = toBasisPoints(input.discount_pct ?? 0);
  return { input, shop, lines, labels: labelLines(counted), products, customer, mode, discountBp, at, openShift, counters };
}
