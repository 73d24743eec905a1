/**
 * What a plan change costs now, in cents of whole shillings (mobile money moves no cents).
 *
 * An upgrade within the same billing cycle keeps the running period and charges the rest of it:
 *   remaining_days = ceil((period_end - now) / day), total_days = round((period_end - period_start) / day)
 *   charge_shillings = ceil((new_price_shillings - old_price_shillings) × remaining_days / total_days)
 * (integer arithmetic: (d × r + t - 1) div t). Partial days count as whole ones, so the shop never
 * pays for less than it gets; a change on the period's last millisecond still charges one day.
 * Any other paid change (from free, a new cycle, or out of past_due/suspended) starts a new period
 * on payment at the full price of the new plan and cycle, less the unused part of the old one when
 * a paid period is running: credit_shillings = floor(old_price_shillings × remaining_days / total_days),
 * and the charge is never below 0.
 */
export const DAY_MS = 86_400_000;

export interface ProrationInput {
  /** Price of the old plan for the running period's cycle, and of the new plan for its cycle, in cents. */
  oldPriceCents: number;
  newPriceCents: number;
  periodStart: number;
  periodEnd: number;
  now: number;
  /** True: the new plan takes over the running period; false: a new period starts on payment. */
  samePeriod: boolean;
}

const toShillings = (cents: number) => Math.floor(cents / 100);

export function prorateCharge(i: ProrationInput): number {
  const total = Math.max(1, Math.round((i.periodEnd - i.periodStart) / DAY_MS));
  const remaining = Math.min(total, Math.max(0, Math.ceil((i.periodEnd - i.now) / DAY_MS)));
  const oldS = toShillings(i.oldPriceCents);
  const newS = toShillings(i.newPriceCents);
  if (i.samePeriod) {
    const diff = Math.max(0, newS - oldS);
    return Math.floor((diff * remaining + total - 1) / total) * 100;
  }
  const credit = Math.floor((oldS * remaining) / total);
  return Math.max(0, newS - credit) * 100;
}

/** The end of a period of `cycle` starting at `start`: the same day of the next month or year (clamped to month end), UTC. */
export function periodEndOf(start: number, cycle: 'monthly' | 'yearly'): number {
  const d = new Date(start);
  const months = cycle === 'monthly' ? 1 : 12;
  const target = new Date(
    Date.UTC(
      d.getUTCFullYear(),
      d.getUTCMonth() + months,
      1,
      d.getUTCHours(),
      d.getUTCMinutes(),
      d.getUTCSeconds(),
      d.getUTCMilliseconds(),
    ),
  );
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(d.getUTCDate(), lastDay));
  return target.getTime();
}

/** Monthly-equivalent price in cents: a yearly price spread over 12 months, rounded down. */
export const monthlyEquivalent = (cycle: 'monthly' | 'yearly', priceCents: number) =>
  cycle === 'monthly' ? priceCents : Math.floor(priceCents / 12);
