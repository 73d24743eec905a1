/** What every analytics verb resolves first: the organisation, the store filter, the local dates and their instants. */
import type { AnalyticsQuery } from '@duka/shared';
import type { AuthedContext } from '../../../lib/context.js';
import { requireOrg } from '../../../lib/auth/authorize.js';
import { NotFoundError, ValidationError } from '../../../lib/errors.js';
import { addDays, localDate, startOfLocalDay } from '../../../lib/time.js';
import { orgTimezone } from '../../tenancy/tenancy.exports.js';
import { type DayBuckets, findOrgStore, type Scope } from '../analytics.queries.js';

export const DEFAULT_DAYS = 30;
export const MAX_DAYS = 731;

export interface Range extends Scope {
  tz: string;
  dateFrom: string;
  dateTo: string;
  /** Every local day of the range, oldest first. */
  dates: string[];
  buckets: DayBuckets;
}

/** The days `dateFrom`..`dateTo` of `tz`, their instants and how SQL buckets them. */
export function daysOf(dateFrom: string, dateTo: string, tz: string) {
  const dates: string[] = [];
  for (let d = dateFrom; d <= dateTo; d = addDays(d, 1)) dates.push(d);
  const bounds = [...dates, addDays(dateTo, 1)].map((d) => startOfLocalDay(d, tz));
  const uniform = bounds.every((b, i) => i === 0 || b - bounds[i - 1]! === 86_400_000);
  return { dates, bounds, buckets: { from: bounds[0]!, bounds, uniform } };
}

/**
 * The range of a query: local dates in the organisation's time zone, both included; default the
 * last 30 local days, today included; `date_from` alone runs to today, `date_to` alone is the 30 days
 * ending that day. `store_id` must be a store
 * of the organisation (404 otherwise); without it the whole organisation is analysed.
 */
export async function resolveRange(ctx: AuthedContext, q: AnalyticsQuery): Promise<Range> {
  const orgId = requireOrg(ctx);
  const [tz, store] = await Promise.all([
    orgTimezone(ctx.db, orgId),
    q.store_id ? findOrgStore(ctx.db, orgId, q.store_id) : Promise.resolve(null),
  ]);
  if (q.store_id && !store) throw new NotFoundError('store');
  const today = localDate(ctx.clock.now(), tz);
  const dateTo = q.date_to ?? today;
  const dateFrom = q.date_from ?? addDays(dateTo, -(DEFAULT_DAYS - 1));
  if (dateTo < dateFrom) throw new ValidationError('date_to', 'must not be before date_from');
  if (addDays(dateFrom, MAX_DAYS - 1) < dateTo) throw new ValidationError('date_to', `the range may cover at most ${MAX_DAYS} days`);
  const { dates, bounds, buckets } = daysOf(dateFrom, dateTo, tz);
  return { orgId, storeId: q.store_id ?? null, tz, dateFrom, dateTo, dates, buckets, from: bounds[0]!, to: bounds[bounds.length - 1]! };
}

export const scopeFields = (r: Range) => ({ date_from: r.dateFrom, date_to: r.dateTo, store_id: r.storeId });
