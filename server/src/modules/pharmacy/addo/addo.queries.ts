/** The ADDO-permitted medicines list: its reads and writes, and its rows as the API writes them. */
import { type AddoChangeKind, newId } from '@duka/shared';
import type {
  AddoListChange,
  AddoListMeta,
  AddoMedicine,
  AddoMedicineFields,
  ListAddoHistoryQuery,
  ListAddoMedicinesQuery,
  PageMeta,
} from '@duka/shared';
import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../../../db/database.js';
import { containsText, type DialectName } from '../../../db/dialect.js';
import type { AddoMedicineTable } from '../../../db/tables/pharmacy.table.js';
import { iso } from '../../../lib/clock.js';
import { countedPage } from '../../../db/page.js';

export type AddoMedicineRow = Selectable<AddoMedicineTable>;

/** The id of the one row holding the list's version. */
export const ADDO_STATE_ID = 'addo';

export const addoFields = (row: AddoMedicineRow): AddoMedicineFields => ({
  generic_name: row.generic_name,
  strength: row.strength,
  dosage_form: row.dosage_form,
  notes: row.notes,
});

export const toAddoMedicine = (row: AddoMedicineRow): AddoMedicine => ({
  id: row.id,
  ...addoFields(row),
  version_added: Number(row.version_added),
  version_updated: Number(row.version_updated),
  created_at: iso(Number(row.created_at)),
  updated_at: iso(Number(row.updated_at)),
});

export async function addoListVersion(db: Kysely<Database>): Promise<number> {
  const row = await db.selectFrom('addo_list_state').select('version').where('id', '=', ADDO_STATE_ID).executeTakeFirstOrThrow();
  return Number(row.version);
}

/** An entry still on the list, or undefined (unknown or removed). */
export function findCurrentAddoMedicine(db: Kysely<Database>, id: string) {
  return db.selectFrom('addo_medicines').selectAll().where('id', '=', id).where('version_removed', 'is', null).executeTakeFirst();
}

/** The entry on the list with this `addoMatchKey`, other than `exceptId`. */
export function findAddoByKey(db: Kysely<Database>, matchKey: string, exceptId?: string) {
  let q = db.selectFrom('addo_medicines').select('id').where('match_key', '=', matchKey).where('version_removed', 'is', null);
  if (exceptId) q = q.where('id', '<>', exceptId);
  return q.executeTakeFirst();
}

/**
 * A page of the current list by generic name, strength, form, with the list's version in the page
 * meta. The version is read before the page: a change landing in between makes the page newer
 * than its version (the till fetches again, harmlessly), never older (the till would miss it).
 */
export async function pageAddoMedicines(
  db: Kysely<Database>,
  dialect: DialectName,
  q: ListAddoMedicinesQuery,
): Promise<{ items: AddoMedicine[]; meta: AddoListMeta }> {
  let base = db.selectFrom('addo_medicines').where('version_removed', 'is', null);
  if (q.dosage_form) base = base.where('dosage_form', '=', q.dosage_form);
  if (q.search) {
    const text = q.search;
    base = base.where((eb) => eb.or([containsText(dialect, 'generic_name', text), containsText(dialect, 'strength', text)]));
  }
  const version = await addoListVersion(db);
  const { rows, meta } = await countedPage(
    base,
    base.selectAll().orderBy('generic_name').orderBy('strength').orderBy('dosage_form').orderBy('id'),
    q,
  );
  return { items: rows.map(toAddoMedicine), meta: { ...meta, version } };
}

/** A page of the list's changes, newest version first, each with who made it. */
export async function pageAddoHistory(db: Kysely<Database>, q: ListAddoHistoryQuery): Promise<{ items: AddoListChange[]; meta: PageMeta }> {
  let base = db.selectFrom('addo_list_changes as h');
  if (q.entry_id) base = base.where('h.entry_id', '=', q.entry_id);
  if (q.since_version !== undefined) base = base.where('h.version', '>', q.since_version);
  const { rows, meta } = await countedPage(
    base,
    base.leftJoin('users as u', 'u.id', 'h.user_id').selectAll('h').select(['u.first_name', 'u.last_name']).orderBy('h.version', 'desc'),
    q,
  );
  return {
    items: rows.map((r) => ({
      version: Number(r.version),
      kind: r.kind,
      entry_id: r.entry_id,
      entry: JSON.parse(r.entry) as AddoMedicineFields,
      previous: r.previous == null ? null : (JSON.parse(r.previous) as AddoMedicineFields),
      user_id: r.user_id,
      user_name: r.first_name == null ? null : `${r.first_name} ${r.last_name ?? ''}`.trim(),
      created_at: iso(Number(r.created_at)),
    })),
    meta,
  };
}

/** A new entry on the list from `version` on; a second with its match key meets the partial unique index. */
export function insertAddoMedicine(db: Kysely<Database>, entry: AddoMedicineFields, matchKey: string, version: number, now: number) {
  return db
    .insertInto('addo_medicines')
    .values({
      id: newId(),
      ...entry,
      match_key: matchKey,
      version_added: version,
      version_updated: version,
      version_removed: null,
      created_at: now,
      updated_at: now,
      removed_at: null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** One line of the list's history: the entry after the change and, for a correction, before it. */
export async function insertAddoChange(
  db: Kysely<Database>,
  c: {
    version: number;
    kind: AddoChangeKind;
    entryId: string;
    entry: AddoMedicineFields;
    previous?: AddoMedicineFields;
    userId: string;
    now: number;
  },
): Promise<void> {
  await db
    .insertInto('addo_list_changes')
    .values({
      id: newId(),
      version: c.version,
      kind: c.kind,
      entry_id: c.entryId,
      entry: JSON.stringify(c.entry),
      previous: c.previous ? JSON.stringify(c.previous) : null,
      user_id: c.userId,
      created_at: c.now,
    })
    .execute();
}
