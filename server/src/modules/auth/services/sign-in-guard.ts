/**
 * Sign-in limits that count what guessing needs, not honest traffic (issue 18). A shop's tills and
 * a carrier's thousands of phones share one address, so nothing here counts successes per address:
 *
 * - per address and account name: 5 wrong passwords lock that pair for 15 minutes (423 with
 *   Retry-After, the contract's figures); each further wrong one locks it again for twice as long,
 *   up to a day. A right password clears it. Someone else's lock never reaches the owner's address.
 * - per account name across every address: RATE_LIMIT_ACCOUNT_FAILURES_PER_HOUR wrong passwords,
 *   then its passwords are not even checked for the rest of the hour (423), except from an address
 *   the account proved itself from in the last 30 days. SMS codes and password reset stay open.
 * - per address: RATE_LIMIT_ADDRESS_FAILURES_PER_MIN refused sign-ins of any kind, then 429.
 *
 * Counts are keyed by the name as typed (normalised), never by whether an account has it, so an
 * unknown name is counted and locked exactly as a real one and a 423 tells nothing. They live in
 * the database (auth_counters), shared by every instance and read by the server's clock.
 */
import type { UserRow } from '../../../db/tables/accounts.table.js';
import { afterCommit, withTransaction } from '../../../db/transaction.js';
import type { ServiceContext } from '../../../lib/context.js';
import { RetryLaterError, UnauthenticatedError } from '../../../lib/errors.js';
import { identifierKey } from '../../../lib/rate-limit.js';
import { createNotification } from '../../notifications/notifications.exports.js';
import { bumpAuthCounter, deleteAuthCounters } from '../auth.queries.js';
import { activeStoreFor } from './tokens.js';

export const MAX_FAILED_LOGINS = 5;
export const LOCKOUT_MS = 15 * 60_000;
const MAX_LOCKOUT_MS = 24 * 3_600_000;
/** A pair's wrong passwords are forgotten after a quiet day. */
const PAIR_MEMORY_MS = 24 * 3_600_000;
const ACCOUNT_WINDOW_MS = 3_600_000;
const PROVEN_ADDRESS_MS = 30 * 86_400_000;
const ADDRESS_WINDOW_MS = 60_000;
/** The owner hears of an attack at most once an hour. */
const NOTICE_EVERY_MS = 3_600_000;

const keys = {
  pair: (address: string, name: string) => `pair:${address}|${name}`,
  account: (name: string) => `account:${name}`,
  proven: (address: string, name: string) => `proven:${address}|${name}`,
  address: (address: string) => `address:${address}`,
  notice: (userId: string) => `notice:${userId}`,
};

const wrong = () => new UnauthenticatedError('email/phone or password is wrong', 'INVALID_CREDENTIALS');
const locked = (ms: number) =>
  new RetryLaterError('ACCOUNT_LOCKED', 'too many wrong passwords; sign in with a code sent by SMS, or try again later', ms);

interface Counter {
  count: number;
  window_end: number;
  locked_until: number | null;
}

async function read(ctx: ServiceContext, key: string): Promise<Counter | undefined> {
  return ctx.db
    .selectFrom('auth_counters')
    .select(['count', 'window_end', 'locked_until'])
    .where('key', '=', key)
    .where('window_end', '>', ctx.clock.now())
    .executeTakeFirst();
}

/** Count one at `key`, in a window that starts afresh once passed; `sliding` pushes its end back on every count. */
async function bump(ctx: ServiceContext, key: string, windowMs: number, sliding = false): Promise<Counter> {
  const now = ctx.clock.now();
  const end = now + windowMs;
  return bumpAuthCounter(ctx.db, key, now, end, sliding);
}

/** 429 when `address` has used its minute's refused sign-ins (checked before any work is done). */
export async function assertAddressMayTry(ctx: ServiceContext, address: string): Promise<void> {
  const row = await read(ctx, keys.address(address));
  if (row && row.count >= ctx.config.RATE_LIMIT_ADDRESS_FAILURES_PER_MIN) {
    throw new RetryLaterError(
      'RATE_LIMITED',
      'too many failed sign-ins from this address; try again later',
      row.window_end - ctx.clock.now(),
    );
  }
}

/** A sign-in refused for a wrong credential, counted against its address. */
export async function addressFailed(ctx: ServiceContext, address: string): Promise<void> {
  await bump(ctx, keys.address(address), ADDRESS_WINDOW_MS);
}

/** What a password try reserved before the password was checked. */
export interface PasswordTry {
  address: string;
  name: string;
  /** The lock this try holds on its address and name, and keeps if the password is wrong (0: none). */
  lockMs: number;
  accountCount: number;
}

const lockFor = (failures: number) => Math.min(LOCKOUT_MS * 2 ** (failures - MAX_FAILED_LOGINS), MAX_LOCKOUT_MS);

/**
 * Before a password is checked: 423 when this address is locked out of this name, or the name has
 * had its hour's wrong passwords and this address never proved itself. The try is counted first
 * and the password checked after, so that tries sent all at once cannot slip under a limit
 * together: the 5th try (and after a lock, the next one) takes the lock before it is checked.
 */
export async function beginPasswordTry(ctx: ServiceContext, address: string, identifier: string): Promise<PasswordTry> {
  const name = identifierKey(identifier);
  const now = ctx.clock.now();
  const pairKey = keys.pair(address, name);
  const held = await read(ctx, pairKey);
  if (held?.locked_until != null && held.locked_until > now) throw locked(held.locked_until - now);
  const account = await bump(ctx, keys.account(name), ACCOUNT_WINDOW_MS);
  if (account.count > ctx.config.RATE_LIMIT_ACCOUNT_FAILURES_PER_HOUR && !(await read(ctx, keys.proven(address, name)))) {
    throw locked(account.window_end - now);
  }
  const pair = await bump(ctx, pairKey, PAIR_MEMORY_MS, true);
  if (pair.count < MAX_FAILED_LOGINS) return { address, name, lockMs: 0, accountCount: account.count };
  const lockMs = lockFor(pair.count);
  const took = await ctx.db
    .updateTable('auth_counters')
    .set({ locked_until: now + lockMs })
    .where('key', '=', pairKey)
    .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', now)]))
    .executeTakeFirst();
  if (Number(took.numUpdatedRows) === 0) throw locked(((await read(ctx, pairKey))?.locked_until ?? now + lockMs) - now);
  return { address, name, lockMs, accountCount: account.count };
}

/** A wrong password, or a name no account has: the try stays counted; 401, or 423 when it locked. */
export function passwordFailed(ctx: ServiceContext, attempt: PasswordTry, user: UserRow | undefined): never {
  if (user && (attempt.lockMs > 0 || attempt.accountCount >= ctx.config.RATE_LIMIT_ACCOUNT_FAILURES_PER_HOUR)) warnOwner(ctx, user);
  throw attempt.lockMs > 0 ? locked(attempt.lockMs) : wrong();
}

/** The right password: the try is not a failure after all, and the address has proved the account. */
export async function passwordRight(ctx: ServiceContext, attempt: PasswordTry, user: Pick<UserRow, 'email' | 'phone'>): Promise<void> {
  await withTransaction(ctx, async (tx) => {
    await tx.db
      .updateTable('auth_counters')
      .set((eb) => ({ count: eb('count', '-', 1) }))
      .where('key', '=', keys.account(attempt.name))
      .where('count', '>', 0)
      .execute();
    await proved(tx, attempt.address, user);
  });
}

/**
 * The account proved itself from `address` (a right password, an SMS code, a reset): its count
 * and any lock there are cleared, and the address may keep trying passwords while others have used
 * up the account's hour. Every name of the account is remembered, whichever was typed.
 */
export async function proved(ctx: ServiceContext, address: string, user: Pick<UserRow, 'email' | 'phone'>): Promise<void> {
  const until = ctx.clock.now() + PROVEN_ADDRESS_MS;
  const names = [user.email, user.phone].filter((n): n is string => !!n).map(identifierKey);
  if (names.length === 0) return;
  await deleteAuthCounters(
    ctx.db,
    names.map((n) => keys.pair(address, n)),
  );
  await ctx.db
    .insertInto('auth_counters')
    .values(names.map((n) => ({ key: keys.proven(address, n), count: 1, window_end: until, locked_until: null })))
    .onConflict((oc) => oc.column('key').doUpdateSet({ window_end: until }))
    .execute();
}

/**
 * Tell the account's owner, in the app, that its password is being guessed: once an hour at most,
 * and after the answer, so that the time of a 423 does not tell a real account from an unknown one.
 */
function warnOwner(ctx: ServiceContext, user: UserRow): void {
  const detached = { ...ctx, pending: undefined };
  afterCommit(detached, async () => {
    if (!user.org_id) return void ctx.log.warn({ user_id: user.id }, 'repeated wrong passwords for an account without a shop');
    const notice = await bump(detached, keys.notice(user.id), NOTICE_EVERY_MS);
    if (notice.count > 1) return;
    const storeId = await activeStoreFor(detached, user, user.store_id);
    if (!storeId) return;
    await createNotification(detached, {
      orgId: user.org_id,
      storeId,
      category: 'system',
      title: 'Someone is trying to sign in to your account',
      body:
        `Many wrong passwords were tried for ${user.first_name}'s account. Sign-in by password is slowed down where they came from; ` +
        'you can still sign in with a code sent by SMS. If it was not you, change your password.',
    });
  });
}

/** Rows whose window and lock have both passed (called by the hourly upkeep). */
export async function pruneAuthCounters(ctx: Pick<ServiceContext, 'db' | 'clock'>): Promise<number> {
  const now = ctx.clock.now();
  const res = await ctx.db
    .deleteFrom('auth_counters')
    .where('window_end', '<=', now)
    .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', now)]))
    .executeTakeFirst();
  return Number(res.numDeletedRows);
}
