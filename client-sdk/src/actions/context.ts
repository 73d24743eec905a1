/** What the till's actions need, and the checks they share. */
import { checkPower, holdsPermission, type Organisation, type Permission, type Power, type Store } from '@duka/shared';
import { TillError } from '../errors.js';
import type { LocalDb, LocalExec } from '../local/db.js';
import { getMeta, type MetaValues } from '../local/meta.js';
import * as reads from '../reads.js';

export interface ActionCtx {
  db: LocalDb;
  now: () => number;
  /**
   * Called after an action queued a mutation (status counts, an automatic sync). `pending`: the
   * queue's pending count as the action's own transaction left it, when it read it with its writes
   * (a sale does), so the till need not count again.
   */
  queued: (pending?: number) => void;
  /** The server answered the till's last request: a sale rung up now is recorded as `online`. */
  online: () => boolean;
}

export interface Shop {
  org: Organisation;
  store: Store;
  tillCode: string;
  /** Who is (or was last) signed in on this till. */
  user: MetaValues['user'] | undefined;
}

/** The organisation, store, till code and user a receipt needs: present once the till has synced once. */
export async function shopOf(db: LocalExec): Promise<Shop> {
  return readyShop(await reads.shopRows(db));
}

/** The shop from its rows (`reads.shopFrom`), refused until the till has synced it once. */
export function readyShop({ organisation: org, store, tillCode, user }: reads.ShopRows): Shop {
  if (!org || !store || !tillCode)
    throw new TillError('NOT_READY', 'this till has not synced its shop yet: log in and sync once while online');
  return { org, store, tillCode, user };
}

/** Whether the signed-in (or last signed-in) user holds a permission; owners hold every one. */
export async function may(db: LocalExec, perm: Permission, known?: MetaValues['user']): Promise<boolean> {
  return holdsPermission(known ?? (await getMeta(db, 'user')), perm);
}

/** The server's rule for what a cashier may not do (shared `checkPower`), applied offline: refuse as the server would. */
export async function requirePower(db: LocalExec, power: Power, field?: string): Promise<void> {
  const breach = checkPower(power, await getMeta(db, 'user'));
  if (breach) throw new TillError(breach.code, breach.message, field);
}

/** A zod failure as the till's VALIDATION_ERROR on its field. */
export function invalid(issue: { path: PropertyKey[]; message: string } | undefined): TillError {
  const field = issue?.path.map(String).join('.') || undefined;
  return new TillError('VALIDATION_ERROR', `${field ?? 'input'} ${issue?.message ?? 'is invalid'}`, field);
}
