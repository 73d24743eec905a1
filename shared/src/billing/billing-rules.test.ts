import { describe, expect, it } from 'vitest';
import { checkPlanLimit, type LimitPlan } from './plan-limits.js';
import { DAY_MS, monthlyEquivalent, periodEndOf, prorateCharge } from './proration.js';

const start = Date.parse('2027-04-01T06:00:00Z');
const end = periodEndOf(start, 'monthly');

describe('prorateCharge', () => {
  it('a 30-day period: the end is 2027-05-01 at the same time', () => {
    expect(new Date(end).toISOString()).toBe('2027-05-01T06:00:00.000Z');
    expect(new Date(periodEndOf(Date.parse('2027-01-31T00:00:00Z'), 'monthly')).toISOString()).toBe('2027-02-28T00:00:00.000Z');
    expect(new Date(periodEndOf(start, 'yearly')).toISOString()).toBe('2028-04-01T06:00:00.000Z');
  });

  it('upgrade 15,000 → 40,000 with 19 days and 23 hours left charges ceil(25,000 × 20 / 30) = 16,667', () => {
    const now = start + 10 * DAY_MS + 3_600_000;
    expect(
      prorateCharge({ oldPriceCents: 1_500_000, newPriceCents: 4_000_000, periodStart: start, periodEnd: end, now, samePeriod: true }),
    ).toBe(1_666_700);
  });

  it('on the first day the whole difference, on the last millisecond one day of it', () => {
    expect(
      prorateCharge({
        oldPriceCents: 1_500_000,
        newPriceCents: 4_000_000,
        periodStart: start,
        periodEnd: end,
        now: start,
        samePeriod: true,
      }),
    ).toBe(2_500_000);
    expect(
      prorateCharge({
        oldPriceCents: 1_500_000,
        newPriceCents: 4_000_000,
        periodStart: start,
        periodEnd: end,
        now: end - 1,
        samePeriod: true,
      }),
    ).toBe(83_400);
  });

  it('a new period (monthly → yearly) is the new price less the unused old part, floor(15,000 × 15 / 30) = 7,500', () => {
    const now = start + 15 * DAY_MS;
    expect(
      prorateCharge({ oldPriceCents: 1_500_000, newPriceCents: 15_000_000, periodStart: start, periodEnd: end, now, samePeriod: false }),
    ).toBe(14_250_000);
  });

  it('monthly equivalent of a yearly price rounds down', () => {
    expect(monthlyEquivalent('yearly', 15_000_000)).toBe(1_250_000);
    expect(monthlyEquivalent('yearly', 100)).toBe(8);
    expect(monthlyEquivalent('monthly', 1_500_000)).toBe(1_500_000);
  });
});

describe('checkPlanLimit', () => {
  const plan = (code: string, price: number, max_products: number | null, status: 'active' | 'retired' = 'active'): LimitPlan => ({
    code,
    name_en: code.toUpperCase(),
    price_monthly_cents: price,
    status,
    max_stores: 1,
    max_staff: 2,
    max_products,
    ai_credits_monthly: 100,
    sms_monthly: null,
  });
  const plans = [
    plan('free', 0, 500),
    plan('old', 500_000, 100_000, 'retired'),
    plan('biashara', 1_500_000, 5_000),
    plan('pro', 4_000_000, null),
  ];

  it('allows up to the limit, refuses past it naming the cheapest active plan that lifts it', () => {
    expect(checkPlanLimit(plans[0]!, 'products', 499, 1, plans)).toEqual({ allowed: true });
    expect(checkPlanLimit(plans[0]!, 'products', 500, 1, plans)).toEqual({
      allowed: false,
      limit: 'products',
      max: 500,
      used: 500,
      liftedBy: { code: 'biashara', name_en: 'BIASHARA' },
      message: 'your plan allows 500 products and 500 are used; the BIASHARA plan (biashara) lifts this limit',
    });
    expect(checkPlanLimit(plans[2]!, 'products', 5_000, 10, plans)).toMatchObject({ allowed: false, liftedBy: { code: 'pro' } });
  });

  it('null is unlimited, and a limit no plan lifts says so', () => {
    expect(checkPlanLimit(plans[3]!, 'products', 10_000_000, 1, plans)).toEqual({ allowed: true });
    expect(checkPlanLimit(plans[0]!, 'stores', 1, 1, plans)).toMatchObject({
      allowed: false,
      liftedBy: null,
      message: 'your plan allows 1 stores and 1 are used; no plan lifts this limit; contact support',
    });
  });
});
