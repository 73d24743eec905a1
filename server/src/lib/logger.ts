/** JSON-lines logging with pino. Secrets never reach it: tokens, passwords and keys are redacted by path. */
import type { Context } from 'hono';
import { routePath } from 'hono/route';
import pino, { type DestinationStream, type Logger } from 'pino';

export function createLogger(level: string, destination?: DestinationStream): Logger {
  return pino(
    {
      level,
      base: undefined,
      redact: {
        paths: ['*.password', '*.new_password', '*.token', '*.refresh_token', '*.access_token', '*.authorization', '*.code', '*.otp'],
        censor: '[redacted]',
      },
    },
    destination,
  );
}

/**
 * The request's path as the request log writes it: a path parameter named `token` (the SMS
 * gateways' delivery-report URLs carry their only credential there) is written `[redacted]`.
 * Query strings (the payment callbacks' `?token=`) are never logged.
 */
export function loggedPath(c: Context): string {
  const pattern = routePath(c).split('/');
  if (!pattern.includes(':token')) return c.req.path;
  return c.req.path
    .split('/')
    .map((segment, i) => (pattern[i] === ':token' ? '[redacted]' : segment))
    .join('/');
}
