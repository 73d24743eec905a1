/**
 * The signing secret's fingerprint, kept in the database so that every server instance on it signs
 * and seals with the same JWT_SECRET (issue 49). Instances with different secrets would each
 * report ready while tills got random 401s and refreshes landing on the odd one signed them out.
 * Only the fingerprint is kept (lib/crypto.ts `secretFingerprint`), never the secret.
 *
 * The first server to start on a database without one (a new database, or one from before this
 * check) adopts its own; the insert is `on conflict do nothing`, so of two instances starting at
 * once with different secrets the first wins and the second sees the winner's.
 */
import type { Kysely } from 'kysely';
import type { Database } from './database.js';

export const SECRET_FINGERPRINT = 'secret_fingerprint';

/** The fingerprint the database knows, after adopting `mine` when it knew none. */
export async function adoptSecretFingerprint(db: Kysely<Database>, mine: string, now: number): Promise<string> {
  await db
    .insertInto('platform_settings')
    .values({ name: SECRET_FINGERPRINT, value: mine, updated_at: now })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  const row = await db.selectFrom('platform_settings').select('value').where('name', '=', SECRET_FINGERPRINT).executeTakeFirstOrThrow();
  return row.value;
}
