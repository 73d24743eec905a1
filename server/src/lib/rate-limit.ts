/**
 * Request-count limits (rate-limiter-flexible): per account name on the auth routes that send or
 * check a code (SMS pumping), per address on the routes that send a message, per refresh-token
 * family on /auth/refresh, and 600 a minute per signed-in user elsewhere. The user's count is keyed
 * by the access token's subject, the user's own id: each staff account has its own, apart from the
 * owner's, and only tills signed in as the same user share one. Every count is shared by every
 * server instance (a table on Postgres, memory on SQLite's one process), so a balancer spreading a
 * user's requests over N instances does not give them N times the limit; the per-user count costs
 * one upsert a request there, outside the request's transaction, and a user over the limit is then
 * refused from memory until the window ends. Sign-in failures are counted apart, by what guessing
 * needs (modules/auth/services/sign-in-guard.ts).
 */
import { type RateLimiterAbstract, RateLimiterRes } from 'rate-limiter-flexible';
import type { DbHandle } from '../db/handle.js';
import type { Config } from '../env.js';
import { RetryLaterError } from './errors.js';
import { toE164 } from './phone.js';

/** Where a caller stands against a limit, as the `RateLimit-*` answer headers say it. */
export interface RateLimitState {
  limit: number;
  remaining: number;
  /** Seconds until the window resets. */
  reset: number;
}

export interface RateLimits {
  /** Requests naming one account (any spelling of it), RATE_LIMIT_AUTH_PER_MIN a minute. */
  authByIdentifier(identifier: string): Promise<void>;
  /** Codes and registrations asked for from one address, RATE_LIMIT_ADDRESS_CODES_PER_MIN a minute. */
  codesByAddress(address: string): Promise<void>;
  /** Exchanges of one sign-in's refresh tokens, RATE_LIMIT_AUTH_PER_MIN a minute: tills behind one address never share it. */
  refreshByFamily(familyId: string): Promise<void>;
  /** Requests of one signed-in user (their id, never their organisation's), RATE_LIMIT_USER_PER_MIN a minute. */
  user(userId: string): Promise<RateLimitState>;
}

/** The headers a client paces itself by (the IETF RateLimit fields as most APIs send them). */
export const rateLimitHeaders = (s: RateLimitState): Record<string, string> => ({
  'RateLimit-Limit': String(s.limit),
  'RateLimit-Remaining': String(s.remaining),
  'RateLimit-Reset': String(s.reset),
});

async function consume(limiter: RateLimiterAbstract, key: string): Promise<RateLimitState> {
  const state = (res: RateLimiterRes) => ({
    limit: limiter.points,
    remaining: Math.max(0, res.remainingPoints),
    reset: Math.max(1, Math.ceil(res.msBeforeNext / 1000)),
  });
  try {
    return state(await limiter.consume(key));
  } catch (res) {
    if (res instanceof RateLimiterRes)
      throw new RetryLaterError('RATE_LIMITED', 'too many requests; try again later', res.msBeforeNext, rateLimitHeaders(state(res)));
    throw res;
  }
}

/** One key per account name: emails in any case, and every spelling of a phone number (`0712…`, `+255 712…`). */
export function identifierKey(identifier: string): string {
  const id = identifier.trim().toLowerCase();
  return /^[+\d\s().-]+$/.test(id) ? (toE164(id) ?? id) : id;
}

export function createRateLimits(config: Config, handle: Pick<DbHandle, 'sharedLimiter'>): RateLimits {
  const identifier = handle.sharedLimiter({ keyPrefix: 'auth-id', points: config.RATE_LIMIT_AUTH_PER_MIN, duration: 60 });
  const codes = handle.sharedLimiter({ keyPrefix: 'auth-codes', points: config.RATE_LIMIT_ADDRESS_CODES_PER_MIN, duration: 60 });
  const family = handle.sharedLimiter({ keyPrefix: 'auth-family', points: config.RATE_LIMIT_AUTH_PER_MIN, duration: 60 });
  const user = handle.sharedLimiter({ keyPrefix: 'user', points: config.RATE_LIMIT_USER_PER_MIN, duration: 60 });
  return {
    authByIdentifier: async (key) => void (await consume(identifier, identifierKey(key))),
    codesByAddress: async (key) => void (await consume(codes, key)),
    refreshByFamily: async (key) => void (await consume(family, key)),
    user: (key) => consume(user, key),
  };
}
