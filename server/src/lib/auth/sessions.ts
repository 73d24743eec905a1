/**
 * Access tokens are JWTs, valid until they expire (15 minutes); a session signed out before that
 * (logout, a password change, a deactivated user or a suspended shop, a copied refresh token)
 * must stop working at once, on every server instance. Each request's session (the token's
 * refresh family, `sid`) is therefore checked against the database, and a session found active is
 * trusted for a few seconds. Revocations clear that trust at once: in this process directly,
 * in the others through the realtime fan-out (Postgres LISTEN/NOTIFY).
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.js';
import type { Actor, RevokedTarget, SessionCheck } from '../context.js';
import { UnauthenticatedError } from '../errors.js';

/** Whether the session `sid` is still signed in: some refresh token of its family is not revoked. */
export async function sessionActive(db: Kysely<Database>, sid: string): Promise<boolean> {
  const row = await db.selectFrom('refresh_tokens').select('id').where('family_id', '=', sid).where('revoked_at', 'is', null).executeTakeFirst();
  return row !== undefined;
}

/** How long a session seen active is trusted without asking the database again. */
const TRUST_MS = 5_000;
const MAX_ENTRIES = 50_000;

export class SessionGate implements SessionCheck {
  /** sid → when it was seen active (monotonic ms) and whose it is. */
  private readonly seen = new Map<string, { at: number; userId: string }>();

  constructor(private readonly db: Kysely<Database>) {}

  async assertActive(actor: Actor): Promise<void> {
    const now = performance.now();
    const hit = this.seen.get(actor.sid);
    if (hit && now - hit.at < TRUST_MS) return;
    if (!(await sessionActive(this.db, actor.sid))) {
      this.seen.delete(actor.sid);
      throw new UnauthenticatedError('this session has been signed out; sign in again');
    }
    if (this.seen.size >= MAX_ENTRIES) this.seen.delete(this.seen.keys().next().value!);
    this.seen.set(actor.sid, { at: now, userId: actor.userId });
  }

  /** A revocation committed (here or on another instance): stop trusting what it signed out. */
  forget(target: RevokedTarget): void {
    if ('sid' in target) {
      this.seen.delete(target.sid);
      return;
    }
    for (const [sid, s] of this.seen) if (s.userId === target.userId && sid !== target.exceptSid) this.seen.delete(sid);
  }
}
