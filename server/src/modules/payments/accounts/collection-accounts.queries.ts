/** Collection accounts, every statement scoped by organisation but the callback's lookup. */
import type { CollectionAccount } from '@duka/shared';
import { expressionBuilder, type Insertable, type Kysely, type SelectQueryBuilder, sql, type Updateable } from 'kysely';
import type { Database } from '../../../db/database.js';
import type { CollectionAccountRow, CollectionAccountTable } from '../../../db/tables/collection.table.js';
import { crossOrg } from '../../../db/tenant-scope-check.js';
import { iso } from '../../../lib/clock.js';

export function toCollectionAccount(row: CollectionAccountRow, callbackUrl: string): CollectionAccount {
  return {
    id: row.id,
    store_id: row.store_id,
    provider: row.provider,
    label: row.label,
    credentials_set: true,
    credentials_hint: row.credentials_hint,
    callback_url: callbackUrl,
    test_mode: row.test_mode === 1,
    active: row.active === 1,
    created_at: iso(Number(row.created_at)),
    updated_at: iso(Number(row.updated_at)),
  };
}

export const orgAccounts = (db: Kysely<Database>, orgId: string) =>
  db.selectFrom('collection_accounts').selectAll().where('org_id', '=', orgId).orderBy('created_at').orderBy('id').execute();

export const findAccount = (db: Kysely<Database>, orgId: string, id: string) =>
  db.selectFrom('collection_accounts').selectAll().where('org_id', '=', orgId).where('id', '=', id).executeTakeFirst();

/** The active account for a store (null: the organisation-wide one), if any. */
export function activeAccountFor(db: Kysely<Database>, orgId: string, storeId: string | null, exceptId?: string) {
  return db
    .selectFrom('collection_accounts')
    .select(['id', 'label'])
    .where('org_id', '=', orgId)
    .where('active', '=', 1)
    .where((eb) => (storeId === null ? eb('store_id', 'is', null) : eb('store_id', '=', storeId)))
    .$if(!!exceptId, (qb) => qb.where('id', '!=', exceptId!))
    .executeTakeFirst();
}

/**
 * Whether the store takes mobile money through an active collection account (its own or the
 * organisation-wide one), as a subquery of a caller's read: the sale adds it to a read it already
 * makes, so checking costs no statement.
 */
export function collectsFor(orgId: string, storeId: string) {
  const eb = expressionBuilder<Database>();
  return eb.exists(collecting(eb.selectFrom('collection_accounts').select('id'), orgId, storeId));
}

/** The accounts a store collects into: its own active one and the organisation-wide active one. */
const collecting = <Q extends SelectQueryBuilder<Database, 'collection_accounts', object>>(q: Q, orgId: string, storeId: string): Q =>
  q
    .where('org_id', '=', orgId)
    .where('active', '=', 1)
    .where((w) => w.or([w('store_id', '=', storeId), w('store_id', 'is', null)])) as Q;

/** The account a store's pushes go to: its own when it has one, else the organisation-wide one. */
export const collectingAccount = (db: Kysely<Database>, orgId: string, storeId: string) =>
  collecting(db.selectFrom('collection_accounts').selectAll(), orgId, storeId)
    .orderBy(sql`case when store_id is null then 1 else 0 end`)
    .limit(1)
    .executeTakeFirst();

export const insertAccount = (db: Kysely<Database>, row: Insertable<CollectionAccountTable>) =>
  db.insertInto('collection_accounts').values(row).returningAll().executeTakeFirstOrThrow();

export const updateAccount = (db: Kysely<Database>, orgId: string, id: string, changes: Updateable<CollectionAccountTable>) =>
  db
    .updateTable('collection_accounts')
    .set(changes)
    .where('org_id', '=', orgId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();

/** A callback names only the account: the organisation is learnt from it. */
export const accountForCallback = (db: Kysely<Database>, id: string) =>
  db.selectFrom('collection_accounts').selectAll().where('id', '=', id).modifyEnd(crossOrg('provider callback')).executeTakeFirst();
