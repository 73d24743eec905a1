/** Platform analytics (sales and growth over days) and monitoring (counts, backlogs, the audit trail). */
import { SoldStatus, fromCents } from '@duka/shared';
import type {
  ActivityEntry,
  AdminAnalyticsOverview,
  AdminAnalyticsQuery,
  ListActivityQuery,
  MonitoringOverview,
  PageMeta,
} from '@duka/shared';
import { type SelectQueryBuilder, sql } from 'kysely';
import { iso } from '../../../lib/clock.js';
import type { AuthedContext } from '../../../lib/context.js';
import { ValidationError } from '../../../lib/errors.js';
import { addDays, DEFAULT_TIMEZONE, localDate, localDayRange, todayRange } from '../../../lib/time.js';
import { acrossOrgs } from './admin-context.js';
import { countedPage } from '../../../db/page.js';
import { requireAdmin } from '../../../lib/auth/authorize.js';
import { billingFigures } from '../../billing/billing.exports.js';
import { signupsByDay } from '../admin.queries.js';

const DAY_MS = 86_400_000;
const MAX_DAYS = 366;

const num = (v: unknown) => Number(v ?? 0);

/** Days are the platform's (Africa/Dar_es_Salaam, no daylight saving: every day is 24 h, so a day is `(t - from) / 86 400 000`). */
export async function analyticsOverview(ctx: AuthedContext, q: AdminAnalyticsQuery): Promise<AdminAnalyticsOverview> {
  requireAdmin(ctx);
  const tz = DEFAULT_TIMEZONE;
  const dateTo = q.date_to ?? localDate(ctx.clock.now(), tz);
  const dateFrom = q.date_from ?? addDays(dateTo, -29);
  if (dateTo < dateFrom) throw new ValidationError('date_to', 'must not be before date_from');
  const from = localDayRange(dateFrom, tz).from;
  const to = localDayRange(dateTo, tz).to;
  const days = Math.round((to - from) / DAY_MS);
  if (days > MAX_DAYS) throw new ValidationError('date_from', `the range may hold at most ${MAX_DAYS} days`);
  const dayOf = (column: string) => sql<number>`(${sql.ref(column)} - ${sql.lit(from)}) / ${sql.lit(DAY_MS)}`;
  const sales = ctx.db
    .selectFrom('transactions as t')
    .where('t.created_at', '>=', from)
    .where('t.created_at', '<', to)
    .modifyEnd(acrossOrgs);
  const [byDay, refunds, byOrg, selling, signups, newUsers, subscriptions] = await Promise.all([
    sales
      .where('t.status', 'in', SoldStatus.options)
      .select((eb) => [dayOf('t.created_at').as('day'), eb.fn.countAll<number>().as('n'), eb.fn.sum<number>('t.total').as('amount')])
      .groupBy(dayOf('t.created_at'))
      .execute(),
    sales
      .where('t.status', '=', 'refunded')
      .select((eb) => eb.fn.sum<number>('t.total').as('amount'))
      .executeTakeFirstOrThrow(),
    sales
      .innerJoin('organisations as o', 'o.id', 't.org_id')
      .where('t.status', 'in', SoldStatus.options)
      .select(['t.org_id', 'o.name'])
      .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.sum<number>('t.total').as('amount')])
      .groupBy(['t.org_id', 'o.name'])
      .orderBy('amount', 'desc')
      .orderBy('t.org_id')
      .limit(10)
      .execute(),
    sales
      .where('t.status', 'in', SoldStatus.options)
      .select((eb) => eb.fn.count<number>('t.org_id').distinct().as('n'))
      .executeTakeFirstOrThrow(),
    signupsByDay(ctx.db, from, to, dayOf('o.created_at')),
    ctx.db
      .selectFrom('users')
      .where('created_at', '>=', from)
      .where('created_at', '<', to)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow(),
    billingFigures(ctx),
  ]);
  const total = byDay.reduce((s, r) => s + num(r.amount), 0);
  const count = byDay.reduce((s, r) => s + num(r.n), 0);
  return {
    date_from: dateFrom,
    date_to: dateTo,
    total_sales: fromCents(total),
    transaction_count: count,
    average_ticket: count ? fromCents(Math.round(total / count)) : 0,
    refund_total: fromCents(num(refunds.amount)),
    selling_organisations: num(selling.n),
    new_organisations: signups.reduce((s, r) => s + num(r.n), 0),
    new_users: num(newUsers.n),
    daily: Array.from({ length: days }, (_, i) => {
      const sold = byDay.find((r) => num(r.day) === i);
      return {
        date: addDays(dateFrom, i),
        sales: fromCents(num(sold?.amount)),
        transactions: num(sold?.n),
        new_organisations: num(signups.find((r) => num(r.day) === i)?.n),
      };
    }),
    top_organisations: byOrg.map((r) => ({
      org_id: r.org_id,
      organisation_name: r.name,
      sales: fromCents(num(r.amount)),
      transactions: num(r.n),
    })),
    subscriptions,
  };
}

/**
 * What the monitoring overview counts, each a `count(*)` of one table under its conditions; a
 * table that belongs to organisations is read across all of them (`acrossOrgs`). `today` stands
 * for the start of the platform's day.
 */
const TODAY = Symbol('today');
type Counted = {
  from: 'organisations' | 'users' | 'stores' | 'devices' | 'sync_mutations' | 'sync_conflicts' | 'outbox' | 'events' | 'event_deliveries';
  where?: [column: string, value: string | number | typeof TODAY][];
  acrossOrgs?: true;
};
const MONITORING_COUNTS = {
  orgs: { from: 'organisations', acrossOrgs: true },
  activeOrgs: { from: 'organisations', where: [['is_active', 1]], acrossOrgs: true },
  users: { from: 'users' },
  activeUsers: { from: 'users', where: [['is_active', 1]] },
  signedIn: { from: 'users', where: [['last_login_at', TODAY]] },
  stores: { from: 'stores', acrossOrgs: true },
  activeStores: { from: 'stores', where: [['is_active', 1]], acrossOrgs: true },
  devices: { from: 'devices', acrossOrgs: true },
  seen: { from: 'devices', where: [['last_seen_at', TODAY]], acrossOrgs: true },
  pushes: { from: 'sync_mutations', where: [['created_at', TODAY]], acrossOrgs: true },
  rejected: {
    from: 'sync_mutations',
    where: [
      ['created_at', TODAY],
      ['status', 'rejected'],
    ],
    acrossOrgs: true,
  },
  conflicts: { from: 'sync_conflicts', where: [['resolved', 0]], acrossOrgs: true },
  outboxPending: { from: 'outbox', where: [['status', 'pending']] },
  outboxFailed: { from: 'outbox', where: [['status', 'failed']] },
  eventsPending: { from: 'events', where: [['delivered', 0]], acrossOrgs: true },
  eventsFailed: { from: 'event_deliveries', where: [['status', 'failed']], acrossOrgs: true },
} satisfies Record<string, Counted>;
type MonitoringCount = keyof typeof MONITORING_COUNTS;

/** One count: `column = value`, or `column >= today` for `TODAY`. */
async function countOf(db: AuthedContext['db'], c: Counted, today: number): Promise<number> {
  let q = db.selectFrom(c.from).select((eb) => eb.fn.countAll<number>().as('n')) as SelectQueryBuilder<any, any, { n: number }>;
  for (const [column, value] of c.where ?? []) q = value === TODAY ? q.where(column, '>=', today) : q.where(column, '=', value);
  if (c.acrossOrgs) q = q.modifyEnd(acrossOrgs);
  return num((await q.executeTakeFirstOrThrow()).n);
}

export async function monitoringOverview(ctx: AuthedContext): Promise<MonitoringOverview> {
  requireAdmin(ctx);
  const { from } = todayRange(ctx.clock.now(), DEFAULT_TIMEZONE);
  const names = Object.keys(MONITORING_COUNTS) as MonitoringCount[];
  const [figures, sales] = await Promise.all([
    Promise.all(names.map((name) => countOf(ctx.db, MONITORING_COUNTS[name], from))),
    ctx.db
      .selectFrom('transactions')
      .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.sum<number>('total').as('amount')])
      .where('created_at', '>=', from)
      .where('status', 'in', SoldStatus.options)
      .modifyEnd(acrossOrgs)
      .executeTakeFirstOrThrow(),
  ]);
  const n = Object.fromEntries(names.map((name, i) => [name, figures[i]!])) as Record<MonitoringCount, number>;
  return {
    organisations: { total: n.orgs, active: n.activeOrgs },
    users: { total: n.users, active: n.activeUsers, signed_in_today: n.signedIn },
    stores: { total: n.stores, active: n.activeStores },
    sales_today: { count: num(sales.n), total: fromCents(num(sales.amount)) },
    sync: {
      devices: n.devices,
      devices_seen_today: n.seen,
      pushes_today: n.pushes,
      rejected_today: n.rejected,
      open_conflicts: n.conflicts,
    },
    outbox: { pending: n.outboxPending, failed: n.outboxFailed },
    events: { pending: n.eventsPending, failed_deliveries: n.eventsFailed },
  };
}

/** The audit trail of every organisation (and of platform admins), newest first. */
export async function listActivity(ctx: AuthedContext, q: ListActivityQuery): Promise<{ items: ActivityEntry[]; meta: PageMeta }> {
  requireAdmin(ctx);
  let base = ctx.db
    .selectFrom('audit_log as a')
    .leftJoin('organisations as o', 'o.id', 'a.org_id')
    .leftJoin('users as u', 'u.id', 'a.user_id');
  if (q.org_id) base = base.where('a.org_id', '=', q.org_id);
  if (q.user_id) base = base.where('a.user_id', '=', q.user_id);
  if (q.action) {
    const action = q.action;
    base = base.where((eb) =>
      eb.or([
        eb('a.action', '=', action),
        eb(sql<string>`substr(${sql.ref('a.action')}, 1, ${sql.lit(action.length + 1)})`, '=', `${action}.`),
      ]),
    );
  }
  const { rows, meta } = await countedPage(
    base,
    base
      .selectAll('a')
      .select(['o.name as organisation_name', 'u.first_name', 'u.last_name'])
      .orderBy('a.created_at', 'desc')
      .orderBy('a.id', 'desc'),
    q,
  );
  return {
    items: rows.map((r) => ({
      id: r.id,
      org_id: r.org_id,
      organisation_name: r.organisation_name ?? null,
      store_id: r.store_id,
      user_id: r.user_id,
      user_name: r.first_name == null ? null : `${r.first_name} ${r.last_name ?? ''}`.trim(),
      action: r.action,
      entity: r.entity,
      entity_id: r.entity_id,
      description: r.description,
      created_at: iso(Number(r.created_at)),
    })),
    meta,
  };
}
