/**
 * `assignShift`: the sale belongs to the signed-in cashier's open shift (its money is in this
 * till's drawer or wallet); its movement is written with the sale. No shift open: none.
 */
import type { LocalTrx } from '../../local/db.js';
import { cashierShift } from '../../local/shift-movements.js';

export function assignShift(trx: LocalTrx): Promise<string | undefined> {
  return cashierShift(trx);
}
