/** Retry delays: exponential with jitter, capped in length but never in number (a queue must not give up). */
export interface BackoffOptions {
  /** First retry after about this long (default 1 000 ms). */
  baseMs?: number;
  /** Longest wait between two attempts (default 30 000 ms; the till's connectivity probe notices a network back sooner). */
  maxMs?: number;
}

/**
 * The wait before retry number `attempt` (1, 2, …): `min(max, base × 2^(attempt-1))`, of which a
 * random half is taken off ("equal jitter"), so tills that lost the network together do not come
 * back together. A server's `Retry-After` is a floor.
 */
export function backoffDelay(attempt: number, o: BackoffOptions = {}, random: () => number = Math.random, retryAfterSec?: number): number {
  const base = o.baseMs ?? 1_000;
  const max = o.maxMs ?? 30_000;
  const ceiling = Math.min(max, base * 2 ** Math.min(Math.max(attempt - 1, 0), 40));
  const delay = Math.round(ceiling / 2 + (random() * ceiling) / 2);
  return Math.max(delay, (retryAfterSec ?? 0) * 1000);
}
