/** What users did, for the staff activity feed and the owner's trail. Written in the action's transaction. */
import { newId } from '@duka/shared';
import type { ServiceContext } from './context.js';

export interface AuditEntry {
  action: string;
  description: string;
  entity?: string;
  entityId?: string;
  /** Defaults to the actor's. */
  userId?: string;
  orgId?: string | null;
  storeId?: string | null;
}

export async function recordAudit(ctx: ServiceContext, entry: AuditEntry): Promise<void> {
  await recordAudits(ctx, [entry]);
}

/** Several entries in one write (a pushed batch of sales). */
export async function recordAudits(ctx: ServiceContext, entries: AuditEntry[]): Promise<void> {
  if (entries.length === 0) return;
  await ctx.db.insertInto('audit_log').values(auditRows(ctx, entries)).execute();
}

/** The entries' rows, for a caller that writes them with its other rows (a pushed batch of sales). */
export function auditRows(ctx: ServiceContext, entries: AuditEntry[]) {
  const now = ctx.clock.now();
  return entries.map((entry) => ({
    id: newId(),
    org_id: entry.orgId !== undefined ? entry.orgId : (ctx.actor?.orgId ?? null),
    store_id: entry.storeId !== undefined ? entry.storeId : (ctx.actor?.storeId ?? null),
    user_id: entry.userId ?? ctx.actor?.userId ?? null,
    action: entry.action,
    entity: entry.entity ?? null,
    entity_id: entry.entityId ?? null,
    description: entry.description,
    created_at: now,
  }));
}
