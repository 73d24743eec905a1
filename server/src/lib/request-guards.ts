/** Checks on a request before its route runs: the body's size, NUL in the URL, and the methods a path takes (405). */
import type { MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { ValidationError } from './errors.js';

/**
 * hono's bodyLimit, told the declared length from the headers first: the middleware itself starts by
 * asking for the body stream, which makes @hono/node-server build a whole fetch Request (headers,
 * stream, abort signal) for every request, GETs included, where the route would have read the body
 * straight from Node's request. A body without a length (chunked) is still counted as it streams.
 */
export function limitBody(maxSize: number, onError: () => never): MiddlewareHandler {
  const counted = bodyLimit({ maxSize, onError });
  return (c, next) => {
    if (c.req.method === 'GET' || c.req.method === 'HEAD') return next();
    const headers = c.req.raw.headers;
    const length = headers.get('content-length');
    if (length !== null && !headers.has('transfer-encoding')) return parseInt(length || '0', 10) > maxSize ? onError() : next();
    return counted(c, next);
  };
}

/**
 * The methods the app's routes take on a path, so that a known path asked with another method
 * answers 405 with `Allow` rather than 404 (RFC 9110 §15.5.6). Middleware (method ALL) is not a route.
 */
export function methodsByPath(routes: ReadonlyArray<{ method: string; path: string }>): (path: string) => string[] {
  const patterns = routes
    .filter((r) => r.method !== 'ALL')
    .map((r) => ({
      method: r.method,
      pattern: new RegExp(
        `^${r.path
          .split('/')
          .map((part) => (part.startsWith(':') ? '[^/]+' : part === '*' ? '.*' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
          .join('/')}/?$`,
      ),
    }));
  return (path) => {
    const methods = new Set(patterns.filter((p) => p.pattern.test(path)).map((p) => p.method));
    if (methods.has('GET')) methods.add('HEAD');
    return [...methods].sort();
  };
}

/**
 * A NUL character (`%00`) in the path or query string is refused with a 400. Postgres cannot hold
 * or compare text with one (SQLite can), and a CSV export streams its rows after its answer has
 * begun, so the database's refusal would cut the download instead of answering 400.
 */
export const refuseNulInUrl: MiddlewareHandler = (c, next) => {
  if (c.req.url.includes('%00')) throw new ValidationError('url', 'must not contain a NUL character (%00)');
  return next();
};
