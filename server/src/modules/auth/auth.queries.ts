/** Sign-in's reads and writes: one-time codes, the sign-in counters, refresh tokens, and the organisation a registration opens. */
import { newId, type OtpPurpose } from '@duka/shared';
import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../../db/database.js';
import type { OrganisationTable } from '../../db/tables/accounts.table.js';

/** When the user's newest code for `purpose` was made, used or not (a new one waits a minute after it). */
export function lastOtpSent(db: Kysely<Database>, userId: string, purpose: OtpPurpose) {
  return db
    .selectFrom('otps')
    .select('created_at')
    .where('user_id', '=', userId)
    .where('purpose', '=', purpose)
    .orderBy('created_at', 'desc')
    .limit(1)
    .executeTakeFirst();
}

export async function insertOtp(
  db: Kysely<Database>,
  otp: { userId: string; purpose: OtpPurpose; codeHash: string; expiresAt: number },
  now: number,
): Promise<void> {
  await db
    .insertInto('otps')
    .values({
      id: newId(),
      user_id: otp.userId,
      purpose: otp.purpose,
      code_hash: otp.codeHash,
      expires_at: otp.expiresAt,
      consumed_at: null,
      created_at: now,
    })
    .execute();
}

/** The user's newest code for `purpose` not yet used, expired or not. */
export function findNewestUnusedOtp(db: Kysely<Database>, userId: string, purpose: OtpPurpose) {
  return db
    .selectFrom('otps')
    .selectAll()
    .where('user_id', '=', userId)
    .where('purpose', '=', purpose)
    .where('consumed_at', 'is', null)
    .orderBy('created_at', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/**
 * Count one at `key`, in a window ending at `end` that starts afresh once passed (at `now`);
 * `sliding` pushes its end back to `end` on every count.
 */
export function bumpAuthCounter(db: Kysely<Database>, key: string, now: number, end: number, sliding: boolean) {
  return db
    .insertInto('auth_counters')
    .values({ key, count: 1, window_end: end, locked_until: null })
    .onConflict((oc) =>
      oc.column('key').doUpdateSet((eb) => {
        const passed = eb('auth_counters.window_end', '<=', now);
        return {
          count: eb
            .case()
            .when(passed)
            .then(1)
            .else(eb('auth_counters.count', '+', 1))
            .end(),
          window_end: sliding ? end : eb.case().when(passed).then(end).else(eb.ref('auth_counters.window_end')).end(),
        };
      }),
    )
    .returning(['count', 'window_end', 'locked_until'])
    .executeTakeFirstOrThrow();
}

export async function deleteAuthCounters(db: Kysely<Database>, keys: string[]): Promise<void> {
  await db.deleteFrom('auth_counters').where('key', 'in', keys).execute();
}

/** The ids of the organisation's active stores, oldest first. */
export function activeStoreIds(db: Kysely<Database>, orgId: string) {
  return db
    .selectFrom('stores')
    .select('id')
    .where('org_id', '=', orgId)
    .where('is_active', '=', 1)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

export async function insertRefreshToken(
  db: Kysely<Database>,
  token: {
    familyId: string;
    userId: string;
    storeId: string | null;
    amr: string;
    tokenHash: string;
    expiresAt: number;
    replaces: string | null;
  },
  now: number,
): Promise<void> {
  await db
    .insertInto('refresh_tokens')
    .values({
      id: newId(),
      family_id: token.familyId,
      user_id: token.userId,
      store_id: token.storeId,
      amr: token.amr,
      token_hash: token.tokenHash,
      expires_at: token.expiresAt,
      used_at: null,
      revoked_at: null,
      created_at: now,
      replaces: token.replaces,
    })
    .execute();
}

/** What a registration knows of the shop. */
export type NewOrganisationFields = Pick<
  Selectable<OrganisationTable>,
  'id' | 'name' | 'business_type' | 'region' | 'district' | 'ward' | 'street' | 'address' | 'latitude' | 'longitude' | 'phone' | 'email'
>;

/** A registering owner's organisation: no legal details, logo, own SMS or AI gateway key, nor AI credit allocation yet. */
export async function insertOrganisation(db: Kysely<Database>, org: NewOrganisationFields, now: number): Promise<void> {
  await db
    .insertInto('organisations')
    .values({
      id: org.id,
      name: org.name,
      legal_name: null,
      tin: null,
      business_type: org.business_type,
      region: org.region,
      district: org.district,
      ward: org.ward,
      street: org.street,
      address: org.address,
      latitude: org.latitude,
      longitude: org.longitude,
      phone: org.phone,
      email: org.email,
      logo: null,
      sms_api_key_enc: null,
      sms_sender_id: null,
      aigateway_api_key_enc: null,
      ai_credits_monthly: null,
      created_at: now,
      updated_at: now,
    })
    .execute();
}
