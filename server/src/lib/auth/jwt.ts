/**
 * Access tokens and short-lived purpose tokens (MFA challenge, email confirmation): HS256 JWTs
 * signed with jose. The audience separates the purposes, so an MFA challenge is never accepted as
 * an access token. Only HS256 is accepted: `alg: none` and others are refused by jose.
 */
import type { KeyObject } from 'node:crypto';
import { errors, jwtVerify, SignJWT, type JWTPayload } from 'jose';
import { LRUCache } from 'lru-cache';
import type { Permission } from '@duka/shared';
import type { Actor } from '../context.js';
import { UnauthenticatedError } from '../errors.js';

const ISSUER = 'duka';
export type Audience = 'duka-api' | 'duka-mfa' | 'duka-email';

export async function signToken(key: KeyObject, aud: Audience, claims: JWTPayload, ttlSec: number, nowMs: number): Promise<string> {
  const iat = Math.floor(nowMs / 1000);
  return new SignJWT(claims)
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuer(ISSUER)
    .setAudience(aud)
    .setIssuedAt(iat)
    .setExpirationTime(iat + ttlSec)
    .sign(key);
}

/**
 * Tokens already verified, per signing key: a till sends the same access token with every request,
 * and checking its signature (WebCrypto) cost more CPU than some whole requests. A hit is the exact
 * token string verified before for this key and audience, used only until its `exp`; whether its
 * session is still signed in is checked on every request elsewhere.
 */
const verified = new WeakMap<KeyObject, LRUCache<string, JWTPayload>>();

export async function verifyToken(key: KeyObject, aud: Audience, token: string, nowMs: number): Promise<JWTPayload> {
  let cache = verified.get(key);
  if (!cache) verified.set(key, (cache = new LRUCache({ max: 10_000 })));
  const hit = cache.get(`${aud} ${token}`);
  if (hit && typeof hit.exp === 'number' && hit.exp * 1000 > nowMs) return hit;
  const payload = await verifySignature(key, aud, token, nowMs);
  cache.set(`${aud} ${token}`, payload);
  return payload;
}

async function verifySignature(key: KeyObject, aud: Audience, token: string, nowMs: number): Promise<JWTPayload> {
  try {
    const { payload } = await jwtVerify(token, key, {
      algorithms: ['HS256'],
      issuer: ISSUER,
      audience: aud,
      // A token without an expiry would be good for ever; one without iat has no age to judge.
      requiredClaims: ['exp', 'iat'],
      currentDate: new Date(nowMs),
    });
    return payload;
  } catch (err) {
    if (err instanceof errors.JWTExpired) throw new UnauthenticatedError('token has expired', 'TOKEN_EXPIRED');
    throw new UnauthenticatedError('token is invalid');
  }
}

export interface AccessClaims {
  sub: string;
  org: string | null;
  store: string | null;
  role: Actor['role'];
  perms: Permission[];
  amr: string[];
  sid: string;
  /** Signed in with a temporary password: the session may only set a new one. */
  pwc?: true;
}

export function actorFromClaims(p: JWTPayload): Actor {
  const c = p as unknown as Partial<AccessClaims>;
  if (typeof c.sub !== 'string' || typeof c.role !== 'string' || !Array.isArray(c.amr) || typeof c.sid !== 'string') {
    throw new UnauthenticatedError('token is invalid');
  }
  return {
    userId: c.sub,
    orgId: c.org ?? null,
    storeId: c.store ?? null,
    role: c.role,
    perms: Array.isArray(c.perms) ? c.perms : [],
    amr: c.amr,
    sid: c.sid,
    ...(c.pwc === true ? { passwordChangeRequired: true } : {}),
  };
}
