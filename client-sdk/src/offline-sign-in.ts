/**
 * Signing in again without the network (issue 37). When a cashier signs in online with a password,
 * the till keeps a salted PBKDF2 verifier of it (never the password), so that on this device they
 * can sign in again while the server is out of reach: the password is checked here and sent
 * nowhere. Such a sign-in has no tokens: the till sells and queues, and syncing waits for an online
 * sign-in (`authRequired`). WebCrypto is needed (a browser's secure context, or Node); without it
 * nothing is kept and an offline sign-in is simply refused.
 */
import { fromBase64, toBase64 } from './base64.js';
import type { LocalExec } from './local/db.js';
import { getMeta, type MetaValues, setMeta } from './local/meta.js';

/** A cheap phone derives this in well under a second; the verifier never leaves the device. */
const ITERATIONS = 120_000;
/** At most this many people's verifiers per till, the most recent kept. */
const KEEP = 20;

export type OfflineKeys = NonNullable<MetaValues['offline_keys']>;

/** The part of WebCrypto used here (the SDK's types carry no DOM library). */
interface Subtle {
  importKey(format: 'raw', key: Uint8Array, alg: 'PBKDF2', extractable: false, usages: ['deriveBits']): Promise<unknown>;
  deriveBits(
    alg: { name: 'PBKDF2'; hash: 'SHA-256'; salt: Uint8Array; iterations: number },
    key: unknown,
    length: number,
  ): Promise<ArrayBuffer>;
}
type WebCrypto = { subtle?: Subtle; getRandomValues<T extends Uint8Array>(a: T): T };
const webCrypto = (): WebCrypto | undefined => (globalThis as { crypto?: WebCrypto }).crypto;
const subtle = (): Subtle | undefined => webCrypto()?.subtle;

/** The identifier as people type it: an email in any case, a phone with or without spaces. */
export const identifierKey = (identifier: string): string => identifier.trim().toLowerCase().replace(/[\s-]/g, '');

async function derive(password: string, salt: Uint8Array, iterations: number): Promise<Uint8Array> {
  const s = subtle()!;
  const key = await s.importKey('raw', new TextEncoder().encode(password), 'PBKDF2', false, ['deriveBits']);
  const bits = await s.deriveBits({ name: 'PBKDF2', hash: 'SHA-256', salt, iterations }, key, 256);
  return new Uint8Array(bits);
}

/** Compares every byte whatever the first difference, so the time taken says nothing about the verifier. */
function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  let diff = a.length ^ b.length;
  for (let i = 0; i < Math.max(a.length, b.length); i++) diff |= (a[i] ?? 0) ^ (b[i] ?? 0);
  return diff === 0;
}

export type Verifier = Omit<OfflineKeys[string], 'user' | 'at'>;

/** A verifier of `password` (the slow part, done before the sign-in's first sync starts); null without WebCrypto. */
export async function makeVerifier(password: string): Promise<Verifier | null> {
  if (!subtle()) return null;
  const salt = webCrypto()!.getRandomValues(new Uint8Array(16));
  const hash = await derive(password, salt, ITERATIONS);
  return { salt: toBase64(salt), hash: toBase64(hash), iterations: ITERATIONS };
}

/** Keep `verifier` for `user` under the `identifier` they signed in with, the most recent accounts first. */
export async function keepVerifier(db: LocalExec, identifier: string, user: MetaValues['user'], verifier: Verifier): Promise<void> {
  const keys = { ...((await getMeta(db, 'offline_keys')) ?? {}) };
  keys[identifierKey(identifier)] = { user, ...verifier, at: Date.now() };
  const kept = Object.entries(keys)
    .sort(([, a], [, b]) => b.at - a.at)
    .slice(0, KEEP);
  await setMeta(db, 'offline_keys', Object.fromEntries(kept));
}

/** The user whose password this is on this till, or null (unknown here, a wrong password, or no WebCrypto). */
export async function checkPassword(db: LocalExec, identifier: string, password: string): Promise<MetaValues['user'] | null> {
  const key = (await getMeta(db, 'offline_keys'))?.[identifierKey(identifier)];
  if (!key || !subtle()) return null;
  const hash = await derive(password, fromBase64(key.salt), key.iterations);
  return sameBytes(hash, fromBase64(key.hash)) ? key.user : null;
}
