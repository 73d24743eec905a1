import type { AuthedContext } from '../../../lib/context.js';
import { requireAdmin } from '../../../lib/auth/authorize.js';
import { acrossOrgs } from './admin-context.js';

const started = Date.now();

async function count(ctx: AuthedContext, table: 'organisations' | 'stores' | 'users', since?: number) {
  let q = ctx.db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .modifyEnd(acrossOrgs);
  if (since !== undefined) q = q.where('created_at', '>=', since);
  return Number((await q.executeTakeFirstOrThrow()).n);
}

export async function platformDashboard(ctx: AuthedContext) {
  requireAdmin(ctx);
  const [organisations, stores, users, signups] = await Promise.all([
    count(ctx, 'organisations'),
    count(ctx, 'stores'),
    count(ctx, 'users'),
    count(ctx, 'organisations', ctx.clock.now() - 30 * 86_400_000),
  ]);
  return { organisations, stores, users, signups_last_30_days: signups };
}

export async function monitoringHealth(ctx: AuthedContext, ping: () => Promise<void>) {
  requireAdmin(ctx);
  const database = await ping().then(
    () => 'ok' as const,
    () => 'unreachable' as const,
  );
  const failed = await ctx.db
    .selectFrom('outbox')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('status', '=', 'failed')
    .executeTakeFirstOrThrow();
  return { database, dialect: ctx.dialect, uptime_seconds: Math.floor((Date.now() - started) / 1000), outbox_failed: Number(failed.n) };
}
