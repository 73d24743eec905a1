/** The signed-in user's own account: profile, password and authenticator columns of `users`. */
import type { UpdateMeInput } from '@duka/shared';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.js';
import type { UserRow } from '../../db/tables/accounts.table.js';

/**
 * The user's own fields from `input`: a changed email must be confirmed again; a new password
 * (`passwordHash`) is no longer a temporary one. The row as updated.
 */
export function updateOwnProfile(
  db: Kysely<Database>,
  userId: string,
  input: UpdateMeInput,
  change: { emailChanged: boolean; passwordHash: string | undefined },
  now: number,
): Promise<UserRow> {
  return db
    .updateTable('users')
    .set({
      first_name: input.first_name,
      last_name: input.last_name,
      occupation: input.occupation,
      ...(change.emailChanged ? { email: input.email, email_verified_at: null } : {}),
      ...(change.passwordHash ? { password_hash: change.passwordHash, must_change_password: 0 } : {}),
      updated_at: now,
    })
    .where('id', '=', userId)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** The pending authenticator secret, confirmed by a code at `step`, becomes the one sign-in checks. */
export async function enableTotp(db: Kysely<Database>, userId: string, secretEnc: string, step: number, now: number): Promise<void> {
  await db
    .updateTable('users')
    .set({
      totp_secret_enc: secretEnc,
      totp_pending_enc: null,
      totp_enabled: 1,
      totp_last_step: step,
      updated_at: now,
    })
    .where('id', '=', userId)
    .execute();
}

/** A temporary password (hashed), which the next sign-in must replace; a lock from failed sign-ins is lifted. */
export async function setTemporaryPassword(db: Kysely<Database>, userId: string, passwordHash: string, now: number): Promise<void> {
  await db
    .updateTable('users')
    .set({
      password_hash: passwordHash,
      must_change_password: 1,
      failed_logins: 0,
      locked_until: null,
      updated_at: now,
    })
    .where('id', '=', userId)
    .execute();
}
