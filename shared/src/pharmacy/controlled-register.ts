/**
 * The controlled-drug register (issue 14): per store and controlled product, every line of the
 * batch ledger with the running balance after it. A line's `qty` is its change of the product's
 * stock (`stock_change`: sellable units), so the balance after the last line is the stock. The
 * balance starts from `opening` (the sum of the stock changes before the first line listed) and
 * rows keep the order given, which is the caller's (time, then id), so a reprint reads the same.
 *
 * Lines that move units outside stock (a refund into quarantine, a disposal of quarantined or
 * expired units, a dispense kept on a recalled lot, a lot correction) are listed with qty 0 and
 * the same balance, so an inspector sees them. A quantity whose sign contradicts its kind (a
 * dispense that adds units, a disposal that changes stock) is a bug in the caller, not a fact to
 * print: it throws.
 */
import type { BatchMovementKind } from './pharmacy-rules.schemas.js';

export interface RegisterMovement {
  at: string;
  kind: BatchMovementKind;
  /** Change of the product's stock: units in (positive), out (negative), or 0 (outside stock). */
  qty: number;
}

/**
 * Which way each kind may move stock: `in` (≥ 0), `out` (≤ 0), `either`, or `none` (always 0:
 * disposal takes only units already out of stock; a correction changes lot or expiry, not units).
 * Every kind but `none` may be 0 when the units it moves are not sellable.
 */
export type StockDirection = 'in' | 'out' | 'either' | 'none';

export const MOVEMENT_SIGN: Record<BatchMovementKind, StockDirection> = {
  received: 'in',
  dispensed: 'out',
  refunded: 'in',
  voided: 'in',
  adjusted: 'either',
  released: 'in',
  recalled: 'out',
  expired: 'out',
  disposed: 'none',
  corrected: 'none',
};

const fits = (direction: StockDirection, qty: number) =>
  direction === 'either' || qty === 0 || (direction === 'in' && qty > 0) || (direction === 'out' && qty < 0);

export function controlledRegister<M extends RegisterMovement>(movements: M[], opening: number): Array<M & { balance: number }> {
  let balance = opening;
  return movements.map((m) => {
    if (!Number.isInteger(m.qty) || !fits(MOVEMENT_SIGN[m.kind], m.qty)) {
      throw new RangeError(`a movement of kind ${m.kind} cannot have qty ${m.qty}`);
    }
    balance += m.qty;
    return { ...m, balance };
  });
}
