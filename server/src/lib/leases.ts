/**
 * Leases: which server instance runs a background job, or one unit of a job's work, when several
 * share one database (issue 34). A lease is a `job_leases` row taken with one conditional upsert
 * (free when never held, released or lapsed), judged by the database's clock (db/dialect.ts
 * `databaseNow`), so an instance whose clock is minutes off neither steals a live lease nor keeps
 * a lapsed one.
 *
 * Every take adds one to the row's token. A holder that stalls past the lease's end (a long GC, a
 * frozen VM) and wakes after another instance took over still believes it holds it; so the work's
 * final writes call `lease.fence(trx)` in their transaction, which fails the transaction unless the
 * row still carries this holder's token and has not lapsed. On Postgres the fence also locks the
 * row until commit, so a takeover waits for the commit and then finds the lease still live.
 */
import { newId } from '@duka/shared';
import { type Kysely, sql, type UpdateQueryBuilder, type UpdateResult } from 'kysely';
import type { Database } from '../db/database.js';
import { databaseNow, type DialectName } from '../db/dialect.js';
import type { Clock } from './clock.js';

/** How long a lease lasts unless renewed: a dead holder's work is taken over after this. */
export const LEASE_TTL_MS = 60_000;
/** Unit leases lapsed this long are deleted (job rows are few and kept). */
const PRUNE_AFTER_MS = 86_400_000;

/** The fence found the lease gone to another holder, or lapsed: the transaction is rolled back. */
export class LeaseLost extends Error {
  constructor(readonly lease: string) {
    super(`lease ${lease} was lost before the work committed`);
  }
}

export class Leases {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: DialectName,
    private readonly clock: Clock,
    /** This instance, as the `holder` of what it takes. */
    readonly holder: string = newId(),
  ) {}

  /** Now by the clock leases are judged by. */
  now() {
    return databaseNow(this.dialect, this.clock.now());
  }

  /** Take `name` for `ttlMs`, or null while another holds it (or this instance already does). */
  async take(name: string, ttlMs = LEASE_TTL_MS): Promise<Lease | null> {
    const now = this.now();
    const row = await this.db
      .insertInto('job_leases')
      .values({ name, holder: this.holder, token: 1, taken_at: now, expires_at: sql<number>`${now} + ${ttlMs}` })
      .onConflict((oc) =>
        oc
          .column('name')
          .doUpdateSet((eb) => ({
            holder: eb.ref('excluded.holder'),
            token: sql<number>`job_leases.token + 1`,
            taken_at: eb.ref('excluded.taken_at'),
            expires_at: eb.ref('excluded.expires_at'),
          }))
          .where('job_leases.expires_at', '<=', now),
      )
      .returning(['token', 'taken_at'])
      .executeTakeFirst();
    return row ? new Lease(this.db, this, name, Number(row.token)) : null;
  }

  /**
   * Run `fn` under lease `name`, or not at all (null) while another instance holds it. The lease
   * is renewed every third of its time while `fn` runs (wall clock: a slow gateway must not lose
   * it) and released when `fn` ends, to lapse `keepMs` after it was taken: a job's period, so that
   * of several instances ticking at different moments one runs it per period.
   */
  async run<T>(name: string, opts: { ttlMs?: number; keepMs?: number }, fn: (lease: Lease) => Promise<T>): Promise<{ value: T } | null> {
    const ttlMs = opts.ttlMs ?? LEASE_TTL_MS;
    const lease = await this.take(name, ttlMs);
    if (!lease) return null;
    let beat = Promise.resolve();
    const renewing = setInterval(
      () => {
        beat = beat.then(() =>
          lease.renew(ttlMs).then(
            () => undefined,
            () => undefined,
          ),
        );
      },
      Math.max(10, Math.floor(ttlMs / 3)),
    );
    renewing.unref();
    try {
      return { value: await fn(lease) };
    } finally {
      clearInterval(renewing);
      await beat;
      await lease.release(opts.keepMs ?? 0);
    }
  }

  /** Delete unit leases lapsed for a day; returns how many. */
  async prune(): Promise<number> {
    const res = await this.db
      .deleteFrom('job_leases')
      .where('name', 'not like', 'job:%')
      .where('expires_at', '<', sql<number>`${this.now()} - ${PRUNE_AFTER_MS}`)
      .executeTakeFirst();
    return Number(res.numDeletedRows);
  }
}

/** One take of a lease: what renews, releases and fences it. */
export class Lease {
  /** False once a renewal found the lease gone: the work should stop early (its fence would fail). */
  held = true;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly leases: Leases,
    readonly name: string,
    readonly token: number,
  ) {}

  private mine<O>(qb: UpdateQueryBuilder<Database, 'job_leases', 'job_leases', O>) {
    return qb.where('name', '=', this.name).where('token', '=', this.token).where('holder', '=', this.leases.holder);
  }

  /** Extend to `ttlMs` from now while it is still live and this take's; false when lost. */
  async renew(ttlMs = LEASE_TTL_MS): Promise<boolean> {
    const now = this.leases.now();
    const res = await this.mine(this.db.updateTable('job_leases').set({ expires_at: sql<number>`${now} + ${ttlMs}` }))
      .where('expires_at', '>', now)
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) !== 1) this.held = false;
    return this.held;
  }

  /** Let it lapse `keepMs` after it was taken (0: free at once). A take that was lost frees nothing. */
  async release(keepMs = 0): Promise<void> {
    await this.mine(this.db.updateTable('job_leases').set({ expires_at: sql<number>`taken_at + ${keepMs}` })).execute();
  }

  /**
   * In the transaction `trx` of the work's final writes: fail it (LeaseLost) unless this take still
   * holds the lease, live. The no-op update locks the row on Postgres until the commit.
   */
  async fence(trx: Kysely<Database>): Promise<void> {
    const res: UpdateResult = await this.mine(trx.updateTable('job_leases').set({ token: this.token }))
      .where('expires_at', '>', this.leases.now())
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) !== 1) {
      this.held = false;
      throw new LeaseLost(this.name);
    }
  }
}
