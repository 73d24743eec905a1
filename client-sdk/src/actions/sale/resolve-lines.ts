/**
 * `resolveLines`, the sale's first stage: the lines merged per product, their products and the
 * customer from the replica. `checkInput` runs before it, outside the transaction: a sale's fields
 * are refused before anything is read, as the server validates the body before any rule.
 */
import { mergeSaleLines, Prescription, toBasisPoints } from '@duka/shared';
import { TillError } from '../../errors.js';
import type { LocalTrx } from '../../local/db.js';
import * as reads from '../../reads.js';
import type { SellInput } from '../../types.js';
import { invalid, shopOf } from '../context.js';
import type { ResolvedSale } from './draft.js';
import { checkPaymentInput } from './settle-tender.js';

export function checkInput(input: SellInput): void {
  if (!Array.isArray(input.lines) || input.lines.length === 0)
    throw new TillError('VALIDATION_ERROR', 'lines must have at least one line', 'lines');
  input.lines.forEach((l, i) => {
    if (!Number.isInteger(l.qty) || l.qty < 1)
      throw new TillError('VALIDATION_ERROR', `lines.${i}.qty must be a whole number of at least 1`, `lines.${i}.qty`);
    // The server sells by the pack (issue 51); this till does not yet, and must not sell one pack as one piece.
    if (l.pack_id !== undefined)
      throw new TillError('VALIDATION_ERROR', `lines.${i}.pack_id: this till does not sell by the pack yet`, `lines.${i}.pack_id`);
  });
  checkPaymentInput(input);
  if (input.prescription !== undefined) {
    // Its fields first, as the server validates the body before any rule.
    const rx = Prescription.safeParse(input.prescription);
    if (!rx.success) throw invalid({ ...rx.error.issues[0]!, path: ['prescription', ...rx.error.issues[0]!.path] });
  }
}

export async function resolveLines(trx: LocalTrx, input: SellInput, at: number): Promise<ResolvedSale> {
  const shop = await shopOf(trx);
  const lines = mergeSaleLines(input.lines);
  const products = await reads.productsByIds(
    trx,
    lines.map((l) => l.product_id),
  );
  const customer = input.customer_id ? await reads.customerById(trx, input.customer_id) : null;
  const mode = input.price_mode ?? 'retail';
  return { input, shop, lines, products, customer, mode, discountBp: toBasisPoints(input.discount_pct ?? 0), at };
}
