/**
 * Access tokens are JWTs, valid until they expire (15 minutes); a session signed out before that
 * (logout, a password change, a deactivated user or a suspended shop, a copied refresh token)
 * must stop working at once, on every server instance, and so must a permission taken away or a
 * role changed. Each request's session (the token's refresh family, `sid`) is therefore checked
 * against the database together with its user's current role, permission flags, activity and
 * temporary-password state, in one query, and what it found is trusted for a few seconds.
 * Revocations and changes to a user clear that trust at once: in this process directly, in the
 * others through the realtime fan-out (Postgres LISTEN/NOTIFY).
 */
import type { Kysely } from 'kysely';
import { PERMISSION_FLAG, permissionsOf, type Role } from '@duka/shared';
import type { Database } from '../../db/database.js';
import type { Actor, RevokedTarget, SessionCheck } from '../context.js';
import { UnauthenticatedError } from '../errors.js';

/** Whether the session `sid` is still signed in: some refresh token of its family is not revoked. */
export async function sessionActive(db: Kysely<Database>, sid: string): Promise<boolean> {
  const row = await db
    .selectFrom('refresh_tokens')
    .select('id')
    .where('family_id', '=', sid)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return row !== undefined;
}

/** The session's user as it stands, and whether the session is still signed in; undefined: no such user. */
async function readSession(db: Kysely<Database>, actor: Actor) {
  const row = await db
    .selectFrom('users')
    .select(['role', 'is_active', 'must_change_password', ...Object.values(PERMISSION_FLAG)])
    .select((eb) =>
      eb.exists(eb.selectFrom('refresh_tokens').select('id').where('family_id', '=', actor.sid).where('revoked_at', 'is', null)).as('live'),
    )
    .where('id', '=', actor.userId)
    .executeTakeFirst();
  if (!row) return undefined;
  // SQLite answers EXISTS with 1 or 0, Postgres with true or false.
  return {
    live: Number(row.live) === 1,
    active: row.is_active === 1,
    role: row.role as Role,
    perms: permissionsOf(row.role, row),
    passwordTemporary: row.must_change_password === 1,
  };
}

type Seen = { at: number; userId: string; role: Role; perms: Actor['perms']; passwordTemporary: boolean };

/** How long what was read for a session is trusted without asking the database again. */
const TRUST_MS = 5_000;
const MAX_ENTRIES = 50_000;

export class SessionGate implements SessionCheck {
  /** sid → when it was read (monotonic ms) and what its user was then. */
  private readonly seen = new Map<string, Seen>();

  constructor(private readonly db: Kysely<Database>) {}

  async current(actor: Actor): Promise<Actor> {
    const now = performance.now();
    let hit = this.seen.get(actor.sid);
    if (!hit || now - hit.at >= TRUST_MS) {
      const found = await readSession(this.db, actor);
      if (!found?.live) {
        this.seen.delete(actor.sid);
        throw new UnauthenticatedError('this session has been signed out; sign in again');
      }
      if (!found.active) {
        this.seen.delete(actor.sid);
        throw new UnauthenticatedError('this account has been deactivated; ask the shop owner');
      }
      hit = { at: now, userId: actor.userId, role: found.role, perms: found.perms, passwordTemporary: found.passwordTemporary };
      if (this.seen.size >= MAX_ENTRIES && !this.seen.has(actor.sid)) this.seen.delete(this.seen.keys().next().value!);
      this.seen.set(actor.sid, hit);
    }
    // Limited only if signed in with the temporary password (the token says so) and it is still not replaced.
    return {
      ...actor,
      role: hit.role,
      perms: hit.perms,
      passwordChangeRequired: actor.passwordChangeRequired === true && hit.passwordTemporary,
    };
  }

  /** A revocation or a change to a user committed (here or on another instance): read it afresh next time. */
  forget(target: RevokedTarget): void {
    if ('sid' in target) {
      this.seen.delete(target.sid);
      return;
    }
    for (const [sid, s] of this.seen) if (s.userId === target.userId && sid !== target.exceptSid) this.seen.delete(sid);
  }
}
