/**
 * A credit payment spread over what the customer owes (design §3), the one rule the server and the
 * till apply: oldest tab first (by when it was opened, then id), each taking as much as it still
 * owes, so that old debts settle before new ones. Paying more than is owed is refused: nothing is
 * written, the customer is not left with a credit the shop never agreed to. Amounts in cents.
 */
import type { ErrorCode } from '../errors.js';
import { fromCents } from '../money.js';

export interface OwingTab {
  id: string;
  /** When the tab was opened, epoch ms. */
  opened_at: number;
  /** What the tab still owes. */
  balance: number;
}

export interface TabAllocation {
  tab_id: string;
  amount: number;
  /** The payment clears the tab. */
  settled: boolean;
}

export interface PaymentBreach {
  code: Extract<ErrorCode, 'OVERPAYMENT'>;
  field: 'amount';
  message: string;
}

export interface PaymentAllocationInput {
  amount: number;
  customer_name: string;
  /** What the customer owes in all: the server sums its tabs; a till uses its replica's balance. */
  owed: number;
  tabs: OwingTab[];
}

export type PaymentAllocation = { breach: PaymentBreach; allocations?: undefined } | { breach?: undefined; allocations: TabAllocation[] };

export function allocatePayment(input: PaymentAllocationInput): PaymentAllocation {
  const { amount, owed, customer_name: name } = input;
  if (amount > owed) {
    const message = owed === 0 ? `${name} owes nothing` : `${name} owes TZS ${fromCents(owed)}; the payment cannot be more than that`;
    return { breach: { code: 'OVERPAYMENT', field: 'amount', message } };
  }
  const oldestFirst = [...input.tabs].sort((a, b) => a.opened_at - b.opened_at || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const allocations: TabAllocation[] = [];
  let left = amount;
  for (const tab of oldestFirst) {
    if (left === 0) break;
    const take = Math.min(left, tab.balance);
    if (take <= 0) continue;
    left -= take;
    allocations.push({ tab_id: tab.id, amount: take, settled: take === tab.balance });
  }
  return { allocations };
}
