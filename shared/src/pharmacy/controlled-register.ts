/**
 * The controlled-drug register (issue 14): per store and controlled product, every movement with
 * the running balance after it. The balance starts from `opening` (the balance before the first
 * movement listed) and each row adds its signed quantity; rows keep the order given, which is the
 * caller's (time, then id), so a reprint reads the same. A quantity whose sign contradicts its kind
 * (a dispense that adds units) is a bug in the caller, not a fact to print: it throws.
 */
import type { BatchMovementKind } from './pharmacy-rules.schemas.js';

export interface RegisterMovement {
  at: string;
  kind: BatchMovementKind;
  /** Units in (positive) or out (negative); never 0. */
  qty: number;
}

/** The sign each kind's quantity must have; an adjustment goes either way. */
export const MOVEMENT_SIGN: Record<BatchMovementKind, 1 | -1 | 0> = {
  received: 1,
  dispensed: -1,
  refunded: 1,
  voided: 1,
  adjusted: 0,
  released: 1,
  recalled: -1,
  expired: -1,
  disposed: -1,
  corrected: 0,
};

export function controlledRegister<M extends RegisterMovement>(movements: M[], opening: number): Array<M & { balance: number }> {
  let balance = opening;
  return movements.map((m) => {
    const sign = MOVEMENT_SIGN[m.kind];
    if (!Number.isInteger(m.qty) || m.qty === 0 || (sign !== 0 && Math.sign(m.qty) !== sign)) {
      throw new RangeError(`a movement of kind ${m.kind} cannot have qty ${m.qty}`);
    }
    balance += m.qty;
    return { ...m, balance };
  });
}
