import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.js';
import { createRouter } from '../../lib/create-router.js';
import { authedCtx, ok } from '../../lib/route.js';
import * as routes from './admin.routes.js';

const started = Date.now();

async function count(db: Kysely<Database>, table: 'organisations' | 'stores' | 'users', since?: number) {
  let q = db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n'));
  if (since !== undefined) q = q.where('created_at', '>=', since);
  return Number((await q.executeTakeFirstOrThrow()).n);
}

export function adminRouter(ping: () => Promise<void>) {
  return createRouter()
    .openapi(routes.dashboard, async (c) => {
      const { db, clock } = authedCtx(c);
      const [organisations, stores, users, signups] = await Promise.all([
        count(db, 'organisations'),
        count(db, 'stores'),
        count(db, 'users'),
        count(db, 'organisations', clock.now() - 30 * 86_400_000),
      ]);
      return ok(c, { organisations, stores, users, signups_last_30_days: signups });
    })
    .openapi(routes.monitoringHealth, async (c) => {
      const { db, dialect } = authedCtx(c);
      const database = await ping().then(
        () => 'ok' as const,
        () => 'unreachable' as const,
      );
      const failed = await db
        .selectFrom('outbox')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('status', '=', 'failed')
        .executeTakeFirstOrThrow();
      return ok(c, { database, dialect, uptime_seconds: Math.floor((Date.now() - started) / 1000), outbox_failed: Number(failed.n) });
    });
}
