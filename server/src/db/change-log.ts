/**
 * The per-organisation change log of design §4, the feed tills pull from. Every write to an entity
 * a till holds calls `recordChange` inside its transaction: it bumps the organisation's version
 * and records which row changed (pull reads the row's current state, so the log stays small).
 *
 * The bump is an UPDATE of the organisation row, which on Postgres holds that row's lock until
 * commit: writers of one organisation commit in version order, so a pull can never miss a version
 * that commits late. Services call `noteChange`; `withTransaction` records everything noted as the
 * transaction's last step, so the lock is held briefly and always taken after any other row locks
 * (no lock-order deadlocks), and a write can never forget its log entry.
 */
import type { ChangeOp, SyncEntity } from '@duka/shared';
import type { Kysely } from 'kysely';
import type { Database } from './database.js';
import { logChanges } from './dialect.js';

export interface Change {
  entity: SyncEntity;
  id: string;
  op?: ChangeOp;
  storeId?: string | null;
}

/** A change noted in a transaction, with the organisation whose log it goes to. */
export type NotedChange = Change & { orgId: string };

/** Record `changes` and return the organisation's new version. */
export async function recordChanges(trx: Kysely<Database>, orgId: string, changes: Change[], now: number): Promise<number> {
  if (!trx.isTransaction) throw new Error('recordChanges must run inside a transaction');
  // `version` here is the row's place; logChanges numbers it after the organisation's version.
  const rows = changes.map((c, i) => ({
    org_id: orgId,
    version: i + 1,
    entity: c.entity,
    entity_id: c.id,
    op: c.op ?? 'upsert',
    store_id: c.storeId ?? null,
    created_at: now,
  }));
  // A default that touches every product notes thousands: one JSON parameter (Postgres), chunked inserts (SQLite).
  return logChanges(trx, orgId, rows);
}

/** Note that the current transaction changed a replicated row; recorded just before commit. */
export function noteChange(ctx: { pending?: { changes: NotedChange[] } }, orgId: string, change: Change): void {
  if (!ctx.pending) throw new Error('noteChange must run inside withTransaction');
  ctx.pending.changes.push({ ...change, orgId });
}

/** What one transaction changed in one organisation, told to the realtime hub once committed. */
export interface CommittedChanges {
  orgId: string;
  /** The organisation's version after the transaction. */
  version: number;
  /** Stores whose tills can see a change; `null` for organisation-wide entities. */
  storeIds: Array<string | null>;
  /** Stock levels that moved. */
  stock: Array<{ storeId: string; productId: string }>;
}

/** Told what each transaction committed, once it has (the realtime hub, wired in app.ts). */
export interface CommitListener {
  committed(list: CommittedChanges[]): void;
}

/** Record the noted changes, one version bump per organisation. Called by withTransaction. */
export async function flushChanges(trx: Kysely<Database>, changes: NotedChange[], now: number): Promise<CommittedChanges[]> {
  const byOrg = new Map<string, Change[]>();
  for (const c of changes) byOrg.set(c.orgId, [...(byOrg.get(c.orgId) ?? []), c]);
  const committed: CommittedChanges[] = [];
  for (const [orgId, list] of [...byOrg].sort(([a], [b]) => a.localeCompare(b))) {
    const version = await recordChanges(trx, orgId, list, now);
    const stock = new Map<string, { storeId: string; productId: string }>();
    for (const c of list) if (c.entity === 'stock' && c.storeId) stock.set(`${c.storeId}/${c.id}`, { storeId: c.storeId, productId: c.id });
    committed.push({ orgId, version, storeIds: [...new Set(list.map((c) => c.storeId ?? null))], stock: [...stock.values()] });
  }
  return committed;
}
