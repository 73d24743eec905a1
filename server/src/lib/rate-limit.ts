/**
 * Rate limits of design §3: auth routes 10 a minute per IP and per identifier, 600 a minute per
 * user elsewhere (rate-limiter-flexible). The auth counts are shared by every server instance (a
 * table on Postgres), so guessing a password on several instances gains nothing; the per-user
 * count stays in each process's memory, because it is checked on every request, sales included,
 * and a shared one would cost a database write each time.
 */
import { type RateLimiterAbstract, RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
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
  authByIp(ip: string): Promise<void>;
  authByIdentifier(identifier: string): Promise<void>;
  user(userId: string): Promise<RateLimitState>;
}

/** The headers a client paces itself by (the IETF RateLimit fields as most APIs send them). */
export const rateLimitHeaders = (s: RateLimitState): Record<string, string> => ({
  'RateLimit-Limit': String(s.limit),
  'RateLimit-Remaining': String(s.remaining),
  'RateLimit-Reset': String(s.reset),
});

async function consume(limiter: RateLimiterAbstract, key: string): Promise<RateLimitState> {
  const state = (res: RateLimiterRes) => ({ limit: limiter.points, remaining: Math.max(0, res.remainingPoints), reset: Math.max(1, Math.ceil(res.msBeforeNext / 1000)) });
  try {
    return state(await limiter.consume(key));
  } catch (res) {
    if (res instanceof RateLimiterRes) throw new RetryLaterError('RATE_LIMITED', 'too many requests; try again later', res.msBeforeNext, rateLimitHeaders(state(res)));
    throw res;
  }
}

/** One key per account name: emails in any case, and every spelling of a phone number (`0712…`, `+255 712…`). */
function identifierKey(identifier: string): string {
  const id = identifier.trim().toLowerCase();
  return /^[+\d\s().-]+$/.test(id) ? (toE164(id) ?? id) : id;
}

export function createRateLimits(config: Config, handle: Pick<DbHandle, 'sharedLimiter'>): RateLimits {
  const ip = handle.sharedLimiter({ keyPrefix: 'auth-ip', points: config.RATE_LIMIT_AUTH_PER_MIN, duration: 60 });
  const identifier = handle.sharedLimiter({ keyPrefix: 'auth-id', points: config.RATE_LIMIT_AUTH_PER_MIN, duration: 60 });
  const user = new RateLimiterMemory({ keyPrefix: 'user', points: config.RATE_LIMIT_USER_PER_MIN, duration: 60 });
  return {
    authByIp: async (key) => void (await consume(ip, key)),
    authByIdentifier: async (key) => void (await consume(identifier, identifierKey(key))),
    user: (key) => consume(user, key),
  };
}
