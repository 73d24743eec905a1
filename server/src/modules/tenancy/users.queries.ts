/**
 * Users as the whole server sees them: the row-to-API mapping, the lookups sign-in and every area
 * use, and the one insert of a new user row.
 */
import { newId, type Permission, PERMISSION_FLAG, type PermissionFlag, permissionsOf, type User } from '@duka/shared';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.js';
import type { NewUser, UserRow } from '../../db/tables/accounts.table.js';
import { iso } from '../../lib/clock.js';
import { toE164 } from '../../lib/phone.js';

export function toUser(row: UserRow): User {
  return {
    id: row.id,
    first_name: row.first_name,
    last_name: row.last_name,
    phone: row.phone,
    email: row.email,
    role: row.role as User['role'],
    store_id: row.store_id,
    shift: row.shift as User['shift'],
    employment_status: row.employment_status as User['employment_status'],
    avatar_hue: row.avatar_hue,
    occupation: row.occupation,
    can_refund: row.can_refund === 1,
    can_discount: row.can_discount === 1,
    can_view_reports: row.can_view_reports === 1,
    can_manage_pharmacy: row.can_manage_pharmacy === 1,
    can_manage_credit: row.can_manage_credit === 1,
    can_manage_stock: row.can_manage_stock === 1,
    can_manage_suppliers: row.can_manage_suppliers === 1,
    is_active: row.is_active === 1,
    email_verified: row.email_verified_at != null,
    mfa_enabled: row.totp_enabled === 1,
    password_change_required: row.must_change_password === 1,
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
  };
}

/** The user columns that hold the permission flags. */
export const PERMISSION_COLUMNS = Object.values(PERMISSION_FLAG);

/** A new user's permission columns, 1 where `holds` says so: the one place a new row lists them. */
export const permissionColumns = (holds: (flag: PermissionFlag) => boolean): Record<PermissionFlag, number> =>
  Object.fromEntries(PERMISSION_COLUMNS.map((c) => [c, holds(c) ? 1 : 0])) as Record<PermissionFlag, number>;

/** Owners may do everything; other roles carry their flags. */
export const permsOf = (row: Pick<UserRow, 'role' | PermissionFlag>): Permission[] => permissionsOf(row.role, row);

export function findUserById(db: Kysely<Database>, id: string) {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

/** A user of `orgId` only: another organisation's id is simply not found. */
export function findOrgUser(db: Kysely<Database>, orgId: string, id: string) {
  return db.selectFrom('users').selectAll().where('org_id', '=', orgId).where('id', '=', id).executeTakeFirst();
}

/** Email (any case) or phone in either `+255…` or `0…` form. */
export function findUserByIdentifier(db: Kysely<Database>, identifier: string) {
  const id = identifier.trim();
  if (id.includes('@')) return db.selectFrom('users').selectAll().where('email', '=', id.toLowerCase()).executeTakeFirst();
  const phone = toE164(id);
  if (!phone) return Promise.resolve(undefined);
  return db.selectFrom('users').selectAll().where('phone', '=', phone).executeTakeFirst();
}

export type NewUserFields = Pick<NewUser, 'org_id' | 'store_id' | 'first_name' | 'phone' | 'email' | 'password_hash' | 'role'> &
  Partial<NewUser>;

/** Insert a user; every column not given takes its default (null, 0 or the schema default). */
export function insertUser(db: Kysely<Database>, fields: NewUserFields, now: number) {
  return db
    .insertInto('users')
    .values({
      id: newId(),
      pin_hash: null,
      shift: null,
      avatar_hue: null,
      occupation: null,
      email_verified_at: null,
      locked_until: null,
      totp_secret_enc: null,
      totp_pending_enc: null,
      totp_last_step: null,
      last_login_at: null,
      created_at: now,
      updated_at: now,
      ...fields,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}
