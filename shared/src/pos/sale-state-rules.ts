/**
 * Refunding and voiding a sale (design §3), the rules the server and the till both apply. Both
 * moves come from `paid` or `credit` only; a refund needs the refund permission (owners hold every
 * permission). A void is a refund by another name, so without that permission (or the owner's or a
 * manager's role) a cashier may void only a sale of their own, within `VOID_WINDOW_MS` of making it:
 * the customer changed their mind at the counter. A credit sale whose tab has taken a payment cannot be voided, only refunded, so the
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

/** How long after making a sale its cashier may void it without the refund permission. */
export const VOID_WINDOW_MS = 10 * 60_000;

export const VOID_REFUSAL =
  'you may void only your own sale, within 10 minutes of making it; anything else needs the refund permission, a manager or the owner';

export interface ReversalCheckInput {
  move: Reversal;
  /** Whether the user holds the `refund` permission. */
  may_refund: boolean;
  /** The user's role: an owner or a manager may void any sale of the store. */
  role?: string;
  /** For a void without the refund permission: whether the user rang the sale up, and how long ago (ms, at the void). */
  own_sale?: boolean;
  age_ms?: number;
  /** The sale as found in the store; absent when the store has no such sale. */
  sale?: {
    status: z.infer<typeof TransactionStatus>;
    /** Whether the credit tab of this sale has taken any payment. */
    tab_paid: boolean;
    /** Whether part of it has been refunded already (issue 51): such a sale is refunded, not voided. */
    partly_refunded?: boolean;
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
  if (input.move === 'void' && sale.partly_refunded) {
    return { code: 'INVALID_STATE', message: 'part of this sale has been refunded; refund the rest instead of voiding it' };
  }
  const mayVoidAny = input.may_refund || input.role === 'owner' || input.role === 'manager';
  if (input.move === 'void' && !mayVoidAny && !(input.own_sale && (input.age_ms ?? Infinity) <= VOID_WINDOW_MS)) {
    return { code: 'FORBIDDEN', message: VOID_REFUSAL };
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
