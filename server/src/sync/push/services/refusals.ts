/**
 * What the server refused of the tills' pushes, for the owner (the back office's Today counts
 * them): each refused mutation is already recorded with its error, so a retried push is answered
 * the same; this reads those records back, newest first.
 */
import type { SyncRefusal } from '@duka/shared';
import { countedPage } from '../../../db/page.js';
import { requireOrg, requireRole } from '../../../lib/auth/authorize.js';
import { iso } from '../../../lib/clock.js';
import type { AuthedContext } from '../../../lib/context.js';
import { refusedMutations } from '../push.queries.js';

const DAY_MS = 86_400_000;

export async function listRefusals(ctx: AuthedContext, q: { days: number; page: number; page_size: number }) {
  requireRole(ctx, 'owner');
  const { filtered, ordered } = refusedMutations(ctx.db, requireOrg(ctx), ctx.clock.now() - q.days * DAY_MS);
  const { rows, meta } = await countedPage(filtered, ordered, q);
  const items: SyncRefusal[] = rows.map((r) => ({
    mutation_id: r.id,
    device_id: r.device_id,
    till_code: r.till_code,
    store_id: r.store_id,
    type: r.type,
    code: r.error_code ?? 'REJECTED',
    message: r.error_message ?? '',
    created_at: iso(Number(r.created_at)),
  }));
  return { items, meta };
}
