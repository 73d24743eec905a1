/**
 * What every admin verb shares: acting inside one organisation through the areas' own services,
 * recording the admin's write in the audit log, paging, and the platform's calendar.
 */
import { Permission } from '@duka/shared';
import type { AuthedContext, TxContext } from '../../../lib/context.js';
import { crossOrg } from '../../../db/tenant-scope-check.js';
import { withTransaction } from '../../../db/transaction.js';
import { recordAudit } from '../../../lib/audit.js';
import { requireAdmin } from '../../../lib/auth/authorize.js';
import { NotFoundError, ValidationError } from '../../../lib/errors.js';
import { DEFAULT_TIMEZONE, localDate, localDayRange } from '../../../lib/time.js';
import { orgTimezone } from '../../tenancy/tenancy.exports.js';
import { defaultStoreOf } from '../admin.queries.js';

/**
 * The admin acting as the owner of `orgId` (in `storeId`, else the organisation's first store), so
 * that an area's service applies its own rules and writes its own audit entry (user = the admin).
 * Only a platform admin may become an owner this way.
 */
export async function asOrg(ctx: AuthedContext, orgId: string, storeId?: string | null): Promise<AuthedContext> {
  requireAdmin(ctx);
  const store = storeId ?? (await defaultStoreOf(ctx.db, orgId))?.id ?? null;
  return { ...ctx, actor: { ...ctx.actor, orgId, storeId: store, role: 'owner', perms: [...Permission.options] } };
}

/** The admin's own entry (`admin.<entity>.<verb>`), filed under the organisation it touched. */
export function auditAdmin(
  ctx: AuthedContext,
  e: { action: string; description: string; orgId: string; storeId?: string | null; entity: string; entityId: string },
) {
  return recordAudit(ctx, {
    action: `admin.${e.action}`,
    description: e.description,
    orgId: e.orgId,
    storeId: e.storeId ?? null,
    entity: e.entity,
    entityId: e.entityId,
  });
}

export async function requireOrgExists(ctx: AuthedContext, orgId: string): Promise<void> {
  const row = await ctx.db.selectFrom('organisations').select('id').where('id', '=', orgId).executeTakeFirst();
  if (!row) throw new NotFoundError('organisation');
}

/** The mark of a read over every organisation's rows (a list without `org_id`, a lookup by an id alone, a platform count). */
export const acrossOrgs = crossOrg('platform operators');

/**
 * [from, to) of the local dates given (each defaults to the other); the organisation's time zone
 * when one is named, else the platform's (Africa/Dar_es_Salaam). Undefined when neither date is.
 */
export async function adminDateRange(ctx: AuthedContext, q: { org_id?: string; date_from?: string; date_to?: string }) {
  if (!q.date_from && !q.date_to) return undefined;
  const tz = q.org_id ? await orgTimezone(ctx.db, q.org_id) : DEFAULT_TIMEZONE;
  const dateFrom = q.date_from ?? q.date_to!;
  const dateTo = q.date_to ?? q.date_from!;
  if (dateTo < dateFrom) throw new ValidationError('date_to', 'must not be before date_from');
  return { dateFrom, dateTo, from: localDayRange(dateFrom, tz).from, to: localDayRange(dateTo, tz).to };
}

export const platformToday = (ctx: AuthedContext) => localDate(ctx.clock.now(), DEFAULT_TIMEZONE);

/** Each item with its organisation's name (one query for the page). */
export async function withOrgNames<T>(
  ctx: AuthedContext,
  items: T[],
  orgOf: (item: T) => string,
): Promise<Array<T & { org_id: string; organisation_name: string }>> {
  const ids = [...new Set(items.map(orgOf))];
  const rows = ids.length ? await ctx.db.selectFrom('organisations').select(['id', 'name']).where('id', 'in', ids).execute() : [];
  const names = new Map(rows.map((r) => [r.id, r.name]));
  return items.map((item) => ({ ...item, org_id: orgOf(item), organisation_name: names.get(orgOf(item)) ?? '' }));
}

/** One transaction for the admin's write and the area service it runs (the actor carries over). */
export const adminTx = <T>(ctx: AuthedContext, fn: (tx: TxContext<AuthedContext>) => Promise<T>): Promise<T> => withTransaction(ctx, fn);
