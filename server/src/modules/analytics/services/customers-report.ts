/** Who buys: new against returning customers, segments, best customers and the credit owed. */
import { fromCents } from '@duka/shared';
import type { AnalyticsQuery, CustomersReport } from '@duka/shared';
import type { AuthedContext } from '../../../lib/context.js';
import { localDate } from '../../../lib/time.js';
import {
  activeCustomersBySegment,
  customersByIds,
  outstandingCredit,
  returningCustomers,
  salesByCustomer,
} from '../analytics-reports.queries.js';
import { resolveRange, scopeFields } from './scope.js';
import { requireRole } from '../../../lib/auth/authorize.js';

export const TOP_CUSTOMERS = 10;

export async function customersReport(ctx: AuthedContext, q: AnalyticsQuery): Promise<CustomersReport> {
  requireRole(ctx, 'owner');
  const r = await resolveRange(ctx, q);
  const today = localDate(ctx.clock.now(), r.tz);
  const [perCustomer, returning, segments, owed] = await Promise.all([
    salesByCustomer(ctx.readDb, r),
    returningCustomers(ctx.readDb, r),
    activeCustomersBySegment(ctx.readDb, r.orgId),
    outstandingCredit(ctx.readDb, r, today),
  ]);
  const walkIn = perCustomer.find((c) => c.customerId === null);
  const named = perCustomer.filter((c): c is typeof c & { customerId: string } => c.customerId !== null);
  named.sort((a, b) => b.total - a.total || b.n - a.n || (a.customerId < b.customerId ? -1 : 1));
  const top = named.slice(0, TOP_CUSTOMERS);
  const people = new Map(
    (
      await customersByIds(
        ctx.readDb,
        r.orgId,
        top.map((c) => c.customerId),
      )
    ).map((c) => [c.id, c]),
  );
  const seg = { New: 0, Regular: 0, VIP: 0, Occasional: 0 };
  for (const s of segments) seg[s.segment] = s.n;
  const owing = owed.filter((o) => o.owed > 0);
  const overdue = owing.filter((o) => o.overdue > 0);
  return {
    customers_served: named.length,
    new_customers: named.length - returning,
    returning_customers: returning,
    named_revenue: fromCents(named.reduce((a, c) => a + c.total, 0)),
    walk_in_revenue: fromCents(walkIn?.total ?? 0),
    walk_in_count: walkIn?.n ?? 0,
    segments: seg,
    top_customers: top.map((c) => {
      const p = people.get(c.customerId);
      return {
        customer_id: c.customerId,
        name: p?.name ?? 'Unknown',
        phone: p?.phone ?? null,
        segment: p?.segment ?? 'Occasional',
        revenue: fromCents(c.total),
        count: c.n,
      };
    }),
    outstanding_credit: {
      total: fromCents(owing.reduce((a, o) => a + o.owed, 0)),
      customers: owing.length,
      overdue_total: fromCents(overdue.reduce((a, o) => a + o.overdue, 0)),
      overdue_customers: overdue.length,
    },
    ...scopeFields(r),
  };
}
