/**
 * Every free text of an organisation's records that may mention a customer by name, phone, email
 * or TIN, and their rewriting without them. A record linked to the customer (their sale, tab,
 * payment) is anonymised by its own fields (erase.ts); these are the texts around it: the audit
 * trail, notifications, the event outbox, sync replies kept for replays, the assistant's
 * conversations, stored replays of answers. Not here, on purpose (docs/security.md, "Personal
 * data"): the fiscal receipt as signed and sent to TRA and the prescription register, records the
 * law asks to be kept as they are; the notebook, whose text is the owner's own (its shared yjs
 * state cannot be rewritten behind the tills' backs).
 */
import type { SyncEntity } from '@duka/shared';
import type { Kysely } from 'kysely';
import { noteChange } from '../../../db/change-log.js';
import type { Database } from '../../../db/database.js';
import { containsText } from '../../../db/dialect.js';
import type { AuthedContext } from '../../../lib/context.js';
import { rewriteStoredAnswers } from '../../../lib/idempotency.js';
import { type Needle, scrub } from './identity.js';

interface TextSpec {
  table: keyof Database;
  /** The row's key within the organisation. */
  key: string[];
  columns: string[];
  /** The till entity a rewritten row is, so the tills' copies follow. */
  entity?: SyncEntity;
}

const TEXTS: TextSpec[] = [
  { table: 'audit_log', key: ['id'], columns: ['description'] },
  { table: 'notifications', key: ['id'], columns: ['title', 'body'], entity: 'notification' },
  { table: 'events', key: ['id'], columns: ['payload'] },
  { table: 'event_deliveries', key: ['event_id', 'subscriber'], columns: ['last_error'] },
  { table: 'sync_mutations', key: ['device_id', 'seq'], columns: ['result', 'error_message'] },
  { table: 'sync_conflicts', key: ['id'], columns: ['message', 'detail'] },
  { table: 'transactions', key: ['id'], columns: ['notes', 'payment_reference', 'refund_reason', 'void_reason'], entity: 'transaction' },
  { table: 'refunds', key: ['id'], columns: ['reason'] },
  { table: 'credit_tabs', key: ['id'], columns: ['write_off_reason'], entity: 'credit_tab' },
  { table: 'credit_payments', key: ['id'], columns: ['reference', 'note'] },
  { table: 'credit_messages', key: ['id'], columns: ['body'] },
  { table: 'credit_notes', key: ['id'], columns: ['body'] },
  { table: 'outbox', key: ['id'], columns: ['recipient', 'subject', 'body'] },
  { table: 'received_payments', key: ['id'], columns: ['raw', 'reference', 'payer_phone'] },
  { table: 'payment_requests', key: ['id'], columns: ['sale_input', 'detail', 'phone'] },
  { table: 'customers', key: ['id'], columns: ['notes'] },
  { table: 'expenses', key: ['id'], columns: ['title', 'notes'] },
  { table: 'ai_conversations', key: ['id'], columns: ['title'] },
  { table: 'ai_messages', key: ['id'], columns: ['content'] },
  { table: 'agent_turns', key: ['conversation_id', 'seq'], columns: ['question', 'answer', 'subject'] },
  { table: 'agent_actions', key: ['id'], columns: ['arguments', 'summary', 'outcome'] },
];

type Row = Record<string, unknown>;

/** The organisation's rows of `spec` whose texts contain a needle (any case). */
function mentioning(db: Kysely<any>, ctx: AuthedContext, orgId: string, spec: TextSpec, needles: Needle[]) {
  return db
    .selectFrom(spec.table)
    .select([...spec.key, ...spec.columns, ...(spec.entity ? ['store_id'] : [])])
    .where('org_id', '=', orgId)
    .where((eb) => eb.or(spec.columns.flatMap((column) => needles.map((n) => containsText(ctx.dialect, column, n.text)))))
    .execute() as Promise<Row[]>;
}

/** Rewrite every text of the organisation that mentions the person; the number of rows rewritten. */
export async function scrubTexts(tx: AuthedContext, orgId: string, needles: Needle[]): Promise<number> {
  if (!needles.length) return 0;
  const db = tx.db as Kysely<any>;
  let rewritten = 0;
  for (const spec of TEXTS) {
    for (const row of await mentioning(db, tx, orgId, spec, needles)) {
      const set: Row = {};
      for (const column of spec.columns) {
        const before = row[column] as string | null;
        const after = scrub(before, needles);
        if (after !== before) set[column] = after;
      }
      if (!Object.keys(set).length) continue;
      await spec.key.reduce((q, k) => q.where(k, '=', row[k]), db.updateTable(spec.table).set(set).where('org_id', '=', orgId)).execute();
      if (spec.entity) noteChange(tx, orgId, { entity: spec.entity, id: String(row.id), storeId: row.store_id as string });
      rewritten++;
    }
  }
  return rewritten + (await scrubReplays(tx, orgId, needles));
}

/** Stored replays of answers (idempotency_keys) are sealed: opened, scrubbed and sealed again in lib/idempotency. */
const scrubReplays = (tx: AuthedContext, orgId: string, needles: Needle[]): Promise<number> =>
  rewriteStoredAnswers(tx, orgId, (json) => scrub(json, needles));
