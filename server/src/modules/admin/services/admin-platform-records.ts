/** Reviews (moderation), notes, notifications and AI credit usage across organisations (plans: billing/services/admin-billing.ts). */
import { type OrganisationStatus, pageMeta } from '@duka/shared';
import type {
  AdminAiUsage,
  AdminNote,
  AdminNotification,
  AdminReview,
  ListAdminAiUsageQuery,
  ListAdminNotesQuery,
  ListAdminNotificationsQuery,
  ListAdminReviewsQuery,
  PageMeta,
  UpdateAdminReviewInput,
} from '@duka/shared';
import { containsText } from '../../../db/dialect.js';
import type { AuthedContext } from '../../../lib/context.js';
import { NotFoundError } from '../../../lib/errors.js';
import { localMonth } from '../../../lib/time.js';
import { toNote } from '../../notebook/notebook.exports.js';
import { toNotification } from '../../notifications/notifications.exports.js';
import { toStoreReview } from '../../reviews/reviews.exports.js';
import type { ReviewRow } from '../../../db/tables/reviews.table.js';
import { acrossOrgs, adminTx, auditAdmin, withOrgNames } from './admin-context.js';
import { countedPage, pageWindow } from '../../../db/page.js';
import { requireAdmin } from '../../../lib/auth/authorize.js';
import { planAiCredits } from '../../billing/billing.exports.js';
import { UNLIMITED_AI_CREDITS } from '../../accounts/accounts.exports.js';

type Page<T> = { items: T[]; meta: PageMeta };
type ReviewWithNames = ReviewRow & { store_name: string; organisation_name: string };

const toAdminReview = (r: ReviewWithNames): AdminReview => ({
  ...toStoreReview(r),
  org_id: r.org_id,
  organisation_name: r.organisation_name,
  user_id: r.user_id,
  is_published: r.is_published === 1,
});

function reviews(ctx: AuthedContext) {
  return ctx.db
    .selectFrom('reviews')
    .innerJoin('stores', (j) => j.onRef('stores.id', '=', 'reviews.store_id').onRef('stores.org_id', '=', 'reviews.org_id'))
    .innerJoin('organisations as o', 'o.id', 'reviews.org_id');
}
const selectReviews = (ctx: AuthedContext) =>
  reviews(ctx).selectAll('reviews').select(['stores.name as store_name', 'o.name as organisation_name']);

export async function listAdminReviews(ctx: AuthedContext, q: ListAdminReviewsQuery): Promise<Page<AdminReview>> {
  requireAdmin(ctx);
  let base = reviews(ctx);
  base = q.org_id ? base.where('reviews.org_id', '=', q.org_id) : base.modifyEnd(acrossOrgs);
  if (q.published !== undefined) base = base.where('reviews.is_published', '=', q.published ? 1 : 0);
  if (q.rating) base = base.where('reviews.rating', '=', q.rating);
  const { rows, meta } = await countedPage(
    base,
    base
      .selectAll('reviews')
      .select(['stores.name as store_name', 'o.name as organisation_name'])
      .orderBy('reviews.created_at', 'desc')
      .orderBy('reviews.id', 'desc'),
    q,
  );
  return { items: rows.map(toAdminReview), meta };
}

async function requireReview(ctx: AuthedContext, id: string): Promise<ReviewWithNames> {
  const row = await selectReviews(ctx).where('reviews.id', '=', id).modifyEnd(acrossOrgs).executeTakeFirst();
  if (!row) throw new NotFoundError('review');
  return row;
}

/** Publishing or hiding a review from the public list. */
export async function updateReviewByAdmin(ctx: AuthedContext, id: string, input: UpdateAdminReviewInput): Promise<AdminReview> {
  requireAdmin(ctx);
  const review = await requireReview(ctx, id);
  const flag = input.is_published ? 1 : 0;
  if (flag === review.is_published) return toAdminReview(review);
  await adminTx(ctx, async (tx) => {
    await tx.db.updateTable('reviews').set({ is_published: flag }).where('org_id', '=', review.org_id).where('id', '=', id).execute();
    await auditAdmin(tx, {
      action: 'review.update',
      description: `Platform admin ${flag ? 'published' : 'hid'} a ${review.rating}-star review of ${review.store_name}`,
      orgId: review.org_id,
      storeId: review.store_id,
      entity: 'review',
      entityId: id,
    });
  });
  return toAdminReview(await requireReview(ctx, id));
}

export async function deleteReviewByAdmin(ctx: AuthedContext, id: string): Promise<void> {
  requireAdmin(ctx);
  const review = await requireReview(ctx, id);
  await adminTx(ctx, async (tx) => {
    await tx.db.deleteFrom('reviews').where('org_id', '=', review.org_id).where('id', '=', id).execute();
    await auditAdmin(tx, {
      action: 'review.delete',
      description: `Platform admin deleted a ${review.rating}-star review of ${review.store_name}`,
      orgId: review.org_id,
      storeId: review.store_id,
      entity: 'review',
      entityId: id,
    });
  });
}

/** Live notes (deleted ones left out), newest edit first; the text as the owner sees it. */
export async function listAdminNotes(ctx: AuthedContext, q: ListAdminNotesQuery): Promise<Page<AdminNote>> {
  requireAdmin(ctx);
  let base = ctx.db.selectFrom('notes').where('deleted_at', 'is', null);
  base = q.org_id ? base.where('org_id', '=', q.org_id) : base.modifyEnd(acrossOrgs);
  if (q.store_id) base = base.where('store_id', '=', q.store_id);
  if (q.search) base = base.where(containsText(ctx.dialect, 'title', q.search));
  const { rows, meta } = await countedPage(base, base.selectAll().orderBy('updated_at', 'desc').orderBy('id', 'desc'), q);
  const items = await withOrgNames(ctx, rows, (r) => r.org_id);
  return {
    items: items.map((r) => ({ ...toNote(r), org_id: r.org_id, organisation_name: r.organisation_name, store_id: r.store_id })),
    meta,
  };
}

export async function listAdminNotifications(ctx: AuthedContext, q: ListAdminNotificationsQuery): Promise<Page<AdminNotification>> {
  requireAdmin(ctx);
  let base = ctx.db.selectFrom('notifications');
  base = q.org_id ? base.where('org_id', '=', q.org_id) : base.modifyEnd(acrossOrgs);
  if (q.store_id) base = base.where('store_id', '=', q.store_id);
  if (q.category) base = base.where('category', '=', q.category);
  if (q.unread !== undefined) base = base.where('is_read', '=', q.unread ? 0 : 1);
  const { rows, meta } = await countedPage(base, base.selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc'), q);
  const items = await withOrgNames(ctx, rows, (r) => r.org_id);
  return {
    items: items.map((r) => ({ ...toNotification(r), org_id: r.org_id, organisation_name: r.organisation_name })),
    meta,
  };
}

function organisationsPage(ctx: AuthedContext, q: { org_id?: string; search?: string; status?: OrganisationStatus }) {
  let base = ctx.db.selectFrom('organisations');
  base = q.org_id ? base.where('id', '=', q.org_id) : base.modifyEnd(acrossOrgs);
  if (q.search) base = base.where(containsText(ctx.dialect, 'name', q.search));
  if (q.status) base = base.where('is_active', '=', q.status === 'active' ? 1 : 0);
  return base;
}

/**
 * Credits used per organisation in a month (each organisation's current month by default), most
 * used first. The allocation is the organisation's own, else its plan's.
 */
export async function listAiUsage(ctx: AuthedContext, q: ListAdminAiUsageQuery): Promise<Page<AdminAiUsage>> {
  requireAdmin(ctx);
  const now = ctx.clock.now();
  const base = organisationsPage(ctx, q);
  const { limit, offset } = pageWindow(q);
  const orgs = await base.select(['id', 'name', 'timezone', 'ai_credits_monthly']).execute();
  const monthOf = (tz: string) => q.month ?? localMonth(now, tz);
  const months = [...new Set(orgs.map((o) => monthOf(o.timezone)))];
  const planCredits = await planAiCredits(
    ctx.db,
    orgs.map((o) => o.id),
  );
  const usage = months.length
    ? await ctx.db
        .selectFrom('ai_credit_usage')
        .selectAll()
        .where('month', 'in', months)
        .$call((qb) => (q.org_id ? qb.where('org_id', '=', q.org_id) : qb.modifyEnd(acrossOrgs)))
        .execute()
    : [];
  const byKey = new Map(usage.map((u) => [`${u.org_id}|${u.month}`, u]));
  const all = orgs.map((o) => {
    const month = monthOf(o.timezone);
    const u = byKey.get(`${o.id}|${month}`);
    const used = Number(u?.used ?? 0);
    const allocated = o.ai_credits_monthly ?? planCredits.get(o.id) ?? UNLIMITED_AI_CREDITS;
    return {
      org_id: o.id,
      organisation_name: o.name,
      month,
      used,
      tokens: Number(u?.tokens ?? 0),
      allocated,
      remaining: Math.max(0, allocated - used),
      percentage: allocated > 0 ? Math.round((used / allocated) * 10_000) / 100 : 0,
    };
  });
  all.sort((a, b) => b.used - a.used || a.organisation_name.localeCompare(b.organisation_name) || a.org_id.localeCompare(b.org_id));
  return { items: all.slice(offset, offset + limit), meta: pageMeta(q.page, q.page_size, all.length) };
}
