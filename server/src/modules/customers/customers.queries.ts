import { newId } from '@duka/shared';
import type { Insertable, Kysely } from 'kysely';
import { noteChange } from '../../db/change-log.js';
import type { Database } from '../../db/database.js';
import type { ServiceContext } from '../../lib/context.js';
import type { CustomerRow, CustomerTable } from './customers.table.js';

/** A customer of `orgId` only: another organisation's id is not found. */
export function findCustomer(db: Kysely<Database>, orgId: string, id: string): Promise<CustomerRow | undefined> {
  return db.selectFrom('customers').selectAll().where('org_id', '=', orgId).where('id', '=', id).executeTakeFirst();
}

/** By E.164 phone within the organisation. */
export function findCustomerByPhone(db: Kysely<Database>, orgId: string, phone: string): Promise<CustomerRow | undefined> {
  return db.selectFrom('customers').selectAll().where('org_id', '=', orgId).where('phone', '=', phone).executeTakeFirst();
}

export type NewCustomerFields = Omit<Insertable<CustomerTable>, 'id' | 'org_id' | 'created_at' | 'updated_at'>;

/** Insert a customer and note it for tills; inside withTransaction. */
export async function insertCustomer(ctx: ServiceContext, orgId: string, fields: NewCustomerFields): Promise<CustomerRow> {
  const now = ctx.clock.now();
  const row = await ctx.db
    .insertInto('customers')
    .values({ id: newId(), org_id: orgId, email: null, notes: null, first_purchase_at: null, last_purchase_at: null, ...fields, created_at: now, updated_at: now })
    .returningAll()
    .executeTakeFirstOrThrow();
  noteChange(ctx, orgId, { entity: 'customer', id: row.id });
  return row;
}
