/**
 * Refunding and voiding a sale (design §3), the rules the server and the till both apply. Both
 * moves come from `paid` or `credit` only; a refund needs the refund permission (owners hold every
 * permission); a credit sale whose tab has taken a payment cannot be voided, only refunded, so the
 * money received stays on the books. Stock comes back on the shelf, except a pharmacy's refunded
 * medicine: it has been out of the shop's hands, so it is held in quarantine until inspected.
 */
import { PERMISSION_REFUSAL } from '../common.js';
import type { ErrorCode } from '../errors.js';
import type { TransactionStatus } from './pos.schemas.js';
import type { z } from 'zod';

export type Reversal = 'refund' | 'void';

export interface ReversalBreach {
  code: Extract<ErrorCode, 'FORBIDDEN' | 'NOT_FOUND' | 'INVALID_STATE'>;
  message: string;
  field?: string;
}

export interface ReversalCheckInput {
  move: Reversal;
  /** Whether the user holds the `refund` permission. */
  may_refund: boolean;
  /** The sale as found in the store; absent when the store has no such sale. */
  sale?: {
    status: z.infer<typeof TransactionStatus>;
    /** Whether the credit tab of this sale has taken any payment. */
    tab_paid: boolean;
  } | null;
}

const PAST = { refunded: 'refunded', void: 'voided' } as const;
const DONE = { refund: 'refunded', void: 'voided' } as const;

export function checkReversal(input: ReversalCheckInput): ReversalBreach | undefined {
  if (input.move === 'refund' && !input.may_refund) return { code: 'FORBIDDEN', message: PERMISSION_REFUSAL.refund };
  const sale = input.sale;
  if (!sale) return { code: 'NOT_FOUND', field: 'transaction_id', message: 'transaction not found' };
  if (sale.status === 'refunded' || sale.status === 'void') {
    return { code: 'INVALID_STATE', message: `a ${PAST[sale.status]} sale cannot be ${DONE[input.move]}` };
  }
  if (input.move === 'void' && sale.status === 'credit' && sale.tab_paid) {
    return { code: 'INVALID_STATE', message: 'this credit sale has payments; refund it instead of voiding it' };
  }
  return undefined;
}

/**
 * Where a reversed sale's goods go back to: a refund in a pharmacy (the organisation's business, or
 * the store's outlet type `pharmacy` or `addo`) is held in quarantine until inspected.
 */
export function returnedStockGoesTo(move: Reversal, businessType: string, outletType?: string | null): 'shelf' | 'quarantine' {
  const dispensing = businessType === 'pharmacy' || outletType === 'pharmacy' || outletType === 'addo';
  return move === 'refund' && dispensing ? 'quarantine' : 'shelf';
}
