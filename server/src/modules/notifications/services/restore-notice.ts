/**
 * After a restore from backup the server has gone back in time: tills still hold, and will send
 * again, the sales made since the backup (design: "Server restored from a backup"). Every store is
 * told, so the owner knows why sales reappear and where to look if a till's resend meets a conflict.
 */
import { crossOrg } from '../../../db/tenant-scope-check.js';
import type { Deps, ServiceContext } from '../../../lib/context.js';
import { createNotification } from './create-notification.js';

const EAT = new Intl.DateTimeFormat('en-GB', { timeZone: 'Africa/Dar_es_Salaam', dateStyle: 'medium', timeStyle: 'short' });

/** One notification per active store; answers how many were written. */
export async function notifyRestored(deps: Deps, backupTakenAt: number): Promise<number> {
  const ctx: ServiceContext = { ...deps, actor: null, requestId: 'restore-notice' };
  const stores = await ctx.db
    .selectFrom('stores')
    .select(['id', 'org_id'])
    .where('is_active', '=', 1)
    .modifyEnd(crossOrg('job scan'))
    .execute();
  for (const s of stores) {
    await createNotification(ctx, {
      orgId: s.org_id,
      storeId: s.id,
      category: 'system',
      title: 'The server was restored from a backup',
      body: `The records were put back as they were at ${EAT.format(backupTakenAt)} (EAT). Tills are sending again the sales they made since then, each once; anything they cannot book shows under sync conflicts.`,
    });
  }
  return stores.length;
}
