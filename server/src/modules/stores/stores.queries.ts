import { randomUUID } from 'node:crypto';
import type { Store } from '@duka/shared';
import type { Insertable, Kysely } from 'kysely';
import type { Database } from '../../db/database.js';
import { recordChanges } from '../../db/change-log.js';
import { iso } from '../../lib/clock.js';
import type { ServiceContext } from '../../lib/context.js';
import type { StoreRow, StoreTable } from './stores.table.js';

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
    is_active: row.is_active === 1,
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
  };
}

export function findStore(db: Kysely<Database>, orgId: string, id: string) {
  return db.selectFrom('stores').selectAll().where('org_id', '=', orgId).where('id', '=', id).executeTakeFirst();
}

export function listActiveStores(db: Kysely<Database>, orgId: string) {
  return db.selectFrom('stores').selectAll().where('org_id', '=', orgId).where('is_active', '=', 1).orderBy('created_at').orderBy('id').execute();
}

/** Initials of the name (`Mama Ashura Shop` → `MAS`), numbered when the organisation already has it. */
export async function uniqueStoreCode(db: Kysely<Database>, orgId: string, name: string): Promise<string> {
  const words = name.toUpperCase().normalize('NFKD').replace(/[^A-Z0-9 ]/g, ' ').split(/\s+/).filter(Boolean);
  let base = words.length > 1 ? words.map((w) => w[0]).join('').slice(0, 4) : (words[0] ?? 'ST').slice(0, 3);
  if (base.length < 2) base = (base + 'ST').slice(0, 2);
  const taken = new Set(
    (await db.selectFrom('stores').select('code').where('org_id', '=', orgId).where('code', 'like', `${base}%`).execute()).map((r) => r.code),
  );
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) if (!taken.has(`${base}${n}`)) return `${base}${n}`;
}

export type NewStoreFields = Omit<Insertable<StoreTable>, 'id' | 'org_id' | 'code' | 'created_at' | 'updated_at' | 'last_number'> & { code?: string };

/** Insert a store and record it in the change log; call inside a transaction. */
export async function insertStore(ctx: ServiceContext, orgId: string, fields: NewStoreFields): Promise<StoreRow> {
  const now = ctx.clock.now();
  const row = {
    id: randomUUID(),
    org_id: orgId,
    phone: null,
    email: null,
    area: null,
    address: null,
    latitude: null,
    longitude: null,
    open_hours: null,
    color: null,
    ...fields,
    code: fields.code ?? (await uniqueStoreCode(ctx.db, orgId, fields.name)),
    created_at: now,
    updated_at: now,
  };
  const inserted = await ctx.db.insertInto('stores').values(row).returningAll().executeTakeFirstOrThrow();
  await recordChanges(ctx.db, orgId, [{ entity: 'store', id: inserted.id, storeId: inserted.id }], now);
  return inserted;
}
