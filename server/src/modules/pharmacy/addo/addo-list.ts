/**
 * The ADDO-permitted medicines list. The platform admin adds, corrects and removes entries; every
 * change is one new list version, one history row and one audit entry, in one transaction. Any
 * signed-in member of a shop reads the current list (an ADDO's staff see what they may sell).
 *
 * The list is platform data, not an organisation's: its audit entries carry no organisation, and
 * it does not go through the per-organisation change log (tills compare list versions instead).
 */
import { addoMatchKey } from '@duka/shared';
import type {
  AddoChangeKind,
  AddoListChange,
  AddoListMeta,
  AddoMedicine,
  AddoMedicineFields,
  CreateAddoMedicineInput,
  ListAddoHistoryQuery,
  ListAddoMedicinesQuery,
  PageMeta,
  UpdateAddoMedicineInput,
} from '@duka/shared';
import { forUpdate, uniqueViolationField } from '../../../db/dialect.js';
import { withTransaction } from '../../../db/transaction.js';
import { recordAudit } from '../../../lib/audit.js';
import { requireAdmin } from '../../../lib/auth/authorize.js';
import type { AuthedContext, TxContext } from '../../../lib/context.js';
import { DuplicateError, NotFoundError } from '../../../lib/errors.js';
import {
  ADDO_STATE_ID,
  addoFields,
  findAddoByKey,
  findCurrentAddoMedicine,
  insertAddoChange,
  insertAddoMedicine,
  pageAddoHistory,
  pageAddoMedicines,
  toAddoMedicine,
} from './addo.queries.js';

type Tx = TxContext<AuthedContext>;

/** Audit actions name the admin's verb (`admin.addo_list.add`), as the other admin entries do. */
const AUDIT_VERB: Record<AddoChangeKind, string> = { added: 'add', corrected: 'correct', removed: 'remove' };

const duplicate = () =>
  new DuplicateError('generic_name', 'this medicine (generic name, strength and dosage form) is already on the ADDO list');
const notFound = () => new NotFoundError('ADDO list entry');
const label = (m: AddoMedicineFields) => `${m.generic_name} ${m.strength} ${m.dosage_form}`;
const changedFields = (before: AddoMedicineFields, after: AddoMedicineFields) =>
  (Object.keys(after) as Array<keyof AddoMedicineFields>).filter((k) => after[k] !== before[k]);

/** Any signed-in member: a page of the current list with its version. */
export async function listAddoMedicines(
  ctx: AuthedContext,
  q: ListAddoMedicinesQuery,
): Promise<{ items: AddoMedicine[]; meta: AddoListMeta }> {
  return pageAddoMedicines(ctx.db, ctx.dialect, q);
}

/** The admin's view of the same list (its own verb, so each audience keeps one rule). */
export async function listAddoMedicinesForAdmin(
  ctx: AuthedContext,
  q: ListAddoMedicinesQuery,
): Promise<{ items: AddoMedicine[]; meta: AddoListMeta }> {
  requireAdmin(ctx);
  return pageAddoMedicines(ctx.db, ctx.dialect, q);
}

export async function listAddoHistory(ctx: AuthedContext, q: ListAddoHistoryQuery): Promise<{ items: AddoListChange[]; meta: PageMeta }> {
  requireAdmin(ctx);
  return pageAddoHistory(ctx.db, q);
}

/**
 * Locks the list (its one state row, on Postgres; SQLite has one writer anyway) until commit and
 * answers the version a change would make. List writers so run one after another: the checks
 * after the lock see every committed entry and no two changes share a version.
 */
async function lockList(tx: Tx): Promise<number> {
  const row = await forUpdate(
    tx.dialect,
    tx.db.selectFrom('addo_list_state').select('version').where('id', '=', ADDO_STATE_ID),
  ).executeTakeFirstOrThrow();
  return Number(row.version) + 1;
}

async function recordChange(
  tx: Tx,
  c: { version: number; kind: AddoChangeKind; entryId: string; entry: AddoMedicineFields; previous?: AddoMedicineFields },
) {
  await tx.db
    .updateTable('addo_list_state')
    .set({ version: c.version, updated_at: tx.clock.now() })
    .where('id', '=', ADDO_STATE_ID)
    .execute();
  await insertAddoChange(tx.db, { ...c, userId: tx.actor.userId, now: tx.clock.now() });
  const what = {
    added: `${label(c.entry)} to the ADDO list`,
    removed: `${label(c.entry)} from the ADDO list`,
    corrected: `${label(c.previous ?? c.entry)} on the ADDO list: ${changedFields(c.previous ?? c.entry, c.entry).join(', ')}`,
  }[c.kind];
  await recordAudit(tx, {
    action: `admin.addo_list.${AUDIT_VERB[c.kind]}`,
    description: `Platform admin ${c.kind} ${what} (version ${c.version})`,
    orgId: null,
    storeId: null,
    entity: 'addo_medicine',
    entityId: c.entryId,
  });
}

/** A second admin racing past the check still meets the partial unique index: the same 409. */
function rethrowDuplicate(err: unknown): never {
  if (uniqueViolationField(err) === 'match_key') throw duplicate();
  throw err;
}

export async function addAddoMedicine(ctx: AuthedContext, input: CreateAddoMedicineInput): Promise<AddoMedicine> {
  requireAdmin(ctx);
  const entry: AddoMedicineFields = {
    generic_name: input.generic_name,
    strength: input.strength,
    dosage_form: input.dosage_form,
    notes: input.notes ?? null,
  };
  const matchKey = addoMatchKey(entry);
  return withTransaction(ctx, async (tx) => {
    const version = await lockList(tx);
    if (await findAddoByKey(tx.db, matchKey)) throw duplicate();
    const now = tx.clock.now();
    const row = await insertAddoMedicine(tx.db, entry, matchKey, version, now).catch(rethrowDuplicate);
    await recordChange(tx, { version, kind: 'added', entryId: row.id, entry });
    return toAddoMedicine(row);
  });
}

/** A correction of an entry still on the list; one that changes nothing makes no new version. */
export async function correctAddoMedicine(ctx: AuthedContext, id: string, input: UpdateAddoMedicineInput): Promise<AddoMedicine> {
  requireAdmin(ctx);
  return withTransaction(ctx, async (tx) => {
    const version = await lockList(tx);
    const current = await findCurrentAddoMedicine(tx.db, id);
    if (!current) throw notFound();
    const previous = addoFields(current);
    const entry: AddoMedicineFields = {
      generic_name: input.generic_name ?? previous.generic_name,
      strength: input.strength ?? previous.strength,
      dosage_form: input.dosage_form ?? previous.dosage_form,
      notes: input.notes !== undefined ? input.notes : previous.notes,
    };
    if (changedFields(previous, entry).length === 0) return toAddoMedicine(current);
    const matchKey = addoMatchKey(entry);
    if (await findAddoByKey(tx.db, matchKey, id)) throw duplicate();
    const row = await tx.db
      .updateTable('addo_medicines')
      .set({ ...entry, match_key: matchKey, version_updated: version, updated_at: tx.clock.now() })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow()
      .catch(rethrowDuplicate);
    await recordChange(tx, { version, kind: 'corrected', entryId: id, entry, previous });
    return toAddoMedicine(row);
  });
}

/** Off the list from the next version on; the row and its history stay. */
export async function removeAddoMedicine(ctx: AuthedContext, id: string): Promise<void> {
  requireAdmin(ctx);
  await withTransaction(ctx, async (tx) => {
    const version = await lockList(tx);
    const current = await findCurrentAddoMedicine(tx.db, id);
    if (!current) throw notFound();
    const now = tx.clock.now();
    await tx.db
      .updateTable('addo_medicines')
      .set({ version_removed: version, removed_at: now, updated_at: now })
      .where('id', '=', id)
      .execute();
    await recordChange(tx, { version, kind: 'removed', entryId: id, entry: addoFields(current) });
  });
}
