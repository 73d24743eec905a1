/**
 * `assignShift`: the sale belongs to the signed-in cashier's open shift (its money is in this
 * till's drawer or wallet); its movement is written with the sale. No shift open: none. The shift
 * was read with the shop in `resolveLines`' one statement, as the server picks from its sale set.
 */
import type { ResolvedSale } from './draft.js';

export function assignShift(sale: ResolvedSale): string | undefined {
  return sale.openShift;
}
