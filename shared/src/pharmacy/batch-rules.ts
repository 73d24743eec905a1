/**
 * A batch's life (issue 14), the rules the server and the till both apply.
 *
 * Expiry: a batch is past its expiry from its expiry date itself. Packs print a month ("EXP
 * 2026-11") that pharmacies read as "usable to the end of that month", but a batch stores a full
 * date, and the safe reading of a full date is "not on or after this day": the midnight job marks a
 * batch `expired` as its expiry date begins, and no sale takes from it that day. Enter the last day
 * of the printed month when that is what the pack means. Dates are `YYYY-MM-DD` in the
 * organisation's time zone; `today` is the caller's to give (the day of the sale, for a sale).
 *
 * Status moves (`checkBatchTransition`):
 *   release  quarantined → sellable (after inspection; not once the batch is past expiry)
 *   dispose  quarantined | expired | recalled → disposed
 *   recall   sellable | quarantined → recalled
 *   expire   sellable → expired (the midnight job)
 * A recall by lot skips the batches it cannot move (already expired, recalled or disposed): those
 * units are out of sale already.
 */
import type { ErrorCode } from '../errors.js';
import type { BatchAction, BatchStatus } from './pharmacy-rules.schemas.js';

export const BATCH_TRANSITIONS: Record<BatchAction, { from: readonly BatchStatus[]; to: BatchStatus }> = {
  release: { from: ['quarantined'], to: 'sellable' },
  dispose: { from: ['quarantined', 'expired', 'recalled'], to: 'disposed' },
  recall: { from: ['sellable', 'quarantined'], to: 'recalled' },
  expire: { from: ['sellable'], to: 'expired' },
};

export interface BatchBreach {
  code: Extract<ErrorCode, 'INVALID_STATE'>;
  field?: string;
  message: string;
}

export type BatchTransition = { to: BatchStatus; breach?: undefined } | { to?: undefined; breach: BatchBreach };

const DONE: Record<BatchAction, string> = { release: 'released', dispose: 'disposed of', recall: 'recalled', expire: 'expired' };

/** Days from `today` to the expiry date: 0 on the expiry date itself, negative after it. */
export function daysToExpiry(expiryDate: string, today: string): number {
  return Math.round((dayNumber(expiryDate) - dayNumber(today)) / 86_400_000);
}

/** Whether a batch is past its expiry on `today`; the expiry date itself counts as past. */
export function batchExpired(expiryDate: string, today: string): boolean {
  return daysToExpiry(expiryDate, today) <= 0;
}

/** Whether a batch is in its alert window: not yet expired and at most `alert_days` from expiry. */
export function expiryAlertDue(input: { expiry_date: string; alert_days: number; today: string }): boolean {
  const days = daysToExpiry(input.expiry_date, input.today);
  return days > 0 && days <= input.alert_days;
}

/**
 * Whether `action` may move a batch in status `from`, and to what. Given the batch's `expiry_date`
 * and `today`, a release of a batch past its expiry is refused: it is to be disposed of instead.
 */
export function checkBatchTransition(
  from: BatchStatus,
  action: BatchAction,
  dates?: { expiry_date: string; today: string },
): BatchTransition {
  const { from: allowed, to } = BATCH_TRANSITIONS[action];
  if (from === to) return { breach: { code: 'INVALID_STATE', message: `this batch is already ${from}` } };
  if (!allowed.includes(from))
    return { breach: { code: 'INVALID_STATE', message: `${from === 'expired' ? 'an' : 'a'} ${from} batch cannot be ${DONE[action]}` } };
  if (action === 'release' && dates && batchExpired(dates.expiry_date, dates.today)) {
    return {
      breach: {
        code: 'INVALID_STATE',
        field: 'expiry_date',
        message: `this batch expired on ${dates.expiry_date}: dispose of it instead of releasing it`,
      },
    };
  }
  return { to };
}

/** A `YYYY-MM-DD` date as epoch ms at UTC midnight, so that day differences are exact. */
function dayNumber(date: string): number {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!m) throw new RangeError(`not a YYYY-MM-DD date: ${date}`);
  return Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
}
