/**
 * Stores as the whole server sees them: the row-to-API mapping, the lookups, the shop code and the
 * one insert and update of a store row (each noted for the change log).
 */
import { newId, type Store } from '@duka/shared';
import type { Insertable, Kysely, Updateable } from 'kysely';
import { noteChange } from '../../db/change-log.js';
import type { Database } from '../../db/database.js';
import type { StoreRow, StoreTable } from '../../db/tables/stores.table.js';
import { iso } from '../../lib/clock.js';
import type { ServiceContext } from '../../lib/context.js';

export function toStore(row: StoreRow): Store {
  return {
    id: row.id,
    name: row.name,
    code: row.code,
    phone: row.phone,
    email: row.email,
    area: row.area,
    address: row.address,
    latitude: row.latitude,
    longitude: row.longitude,
    open_hours: row.open_hours,
    color: row.color,
    status: row.status as Store['status'],
    vat_enabled: row.vat_enabled === 1,
    outlet_type: row.outlet_type,
    fiscal: row.fiscal === 1,
    is_active: row.is_active === 1,
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
  };
}

export function findStore(db: Kysely<Database>, orgId: string, id: string) {
  return db.selectFrom('stores').selectAll().where('org_id', '=', orgId).where('id', '=', id).executeTakeFirst();
}

export function listActiveStores(db: Kysely<Database>, orgId: string) {
  return db
    .selectFrom('stores')
    .selectAll()
    .where('org_id', '=', orgId)
    .where('is_active', '=', 1)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/** Initials of the name (`Mama Ashura Shop` → `MAS`), numbered when the organisation already has it. */
export async function uniqueStoreCode(db: Kysely<Database>, orgId: string, name: string): Promise<string> {
  const words = name
    .toUpperCase()
    .normalize('NFKD')
    .replace(/[^A-Z0-9 ]/g, ' ')
    .split(/\s+/)
    .filter(Boolean);
  let base =
    words.length > 1
      ? words
          .map((w) => w[0])
          .join('')
          .slice(0, 4)
      : (words[0] ?? 'ST').slice(0, 3);
  if (base.length < 2) base = `${base}ST`.slice(0, 2);
  const taken = new Set(
    (await db.selectFrom('stores').select('code').where('org_id', '=', orgId).where('code', 'like', `${base}%`).execute()).map(
      (r) => r.code,
    ),
  );
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) if (!taken.has(`${base}${n}`)) return `${base}${n}`;
}

export type NewStoreFields = Omit<Insertable<StoreTable>, 'id' | 'org_id' | 'code' | 'created_at' | 'updated_at' | 'last_number'> & {
  id?: string;
  code?: string;
};

/** Insert a store and note it for the change log; call inside withTransaction. */
export async function insertStore(ctx: ServiceContext, orgId: string, fields: NewStoreFields): Promise<StoreRow> {
  const now = ctx.clock.now();
  const row = {
    org_id: orgId,
    phone: null,
    email: null,
    area: null,
    address: null,
    latitude: null,
    longitude: null,
    open_hours: null,
    color: null,
    outlet_type: null,
    ...fields,
    id: fields.id ?? newId(),
    code: fields.code ?? (await uniqueStoreCode(ctx.db, orgId, fields.name)),
    created_at: now,
    updated_at: now,
  };
  const inserted = await ctx.db.insertInto('stores').values(row).returningAll().executeTakeFirstOrThrow();
  noteChange(ctx, orgId, { entity: 'store', id: inserted.id, storeId: inserted.id });
  return inserted;
}

export type StoreChanges = Omit<Updateable<StoreTable>, 'id' | 'org_id' | 'created_at' | 'updated_at' | 'last_number'>;

/** Update a store and note it for the change log; call inside withTransaction. */
export async function updateStoreRow(ctx: ServiceContext, orgId: string, id: string, changes: StoreChanges): Promise<StoreRow> {
  const now = ctx.clock.now();
  const row = await ctx.db
    .updateTable('stores')
    .set({ ...changes, updated_at: now })
    .where('org_id', '=', orgId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
  noteChange(ctx, orgId, { entity: 'store', id, storeId: id });
  return row;
}

export function findStoreByCode(db: Kysely<Database>, orgId: string, code: string) {
  return db.selectFrom('stores').select('id').where('org_id', '=', orgId).where('code', '=', code).executeTakeFirst();
}
