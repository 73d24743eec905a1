/**
 * Route definitions: `defineRoute(access, config)` wraps createRoute so that every route states its
 * access level once, gets the matching middleware and OpenAPI security, and documents the error
 * envelope. `ok()` renders the success envelope.
 */
import { createRoute, type RouteConfig } from '@hono/zod-openapi';
import { ErrorBody } from '@duka/shared';
import type { Context, TypedResponse } from 'hono';
import { z } from 'zod';
import { type Access, requireAccess } from './auth/middleware.js';
import type { AppEnv, AuthedContext, ServiceContext } from './context.js';

const err = (description: string) => ({ description, content: { 'application/json': { schema: ErrorBody } } });

const ERROR_RESPONSES = {
  400: err('Invalid input: `errors` names each bad field as a dot path'),
  404: err('Not found, or belongs to another organisation'),
  409: err('Conflicts with the current state'),
  422: err('Breaks a business rule'),
  429: err('Rate limited; see Retry-After'),
  500: err('Internal error; `meta.request_id` identifies it in the logs'),
};
const AUTH_RESPONSES = { 401: err('Missing, invalid or expired access token'), 403: err('Not allowed for this role or permission') };

type Config = Omit<RouteConfig, 'middleware' | 'security'>;

export function defineRoute<R extends Config>(access: Access, config: R) {
  const secured = access !== 'public';
  return createRoute({
    ...config,
    ...(secured ? { middleware: [requireAccess(access)] as const, security: [{ bearerAuth: [] }] } : {}),
    responses: { ...ERROR_RESPONSES, ...(secured ? AUTH_RESPONSES : {}), ...config.responses },
  });
}

/** The optional `Idempotency-Key` header of POSTs that create money records (design §3). */
export const idempotencyHeader = z.object({
  'idempotency-key': z
    .string()
    .min(1)
    .max(255)
    .optional()
    .meta({ description: 'Same key and body replays the first answer (header Idempotent-Replayed: true)' }),
});

/** A JSON request body that must be present. */
export const jsonBody = <T extends z.ZodType>(schema: T, description?: string) => ({
  required: true,
  description,
  content: { 'application/json': { schema } },
});

export const jsonResponse = <T extends z.ZodType>(schema: T, description: string) => ({
  description,
  content: { 'application/json': { schema } },
});

export function ok<T>(
  c: Context<AppEnv>,
  data: T,
  opts: { message?: string; status?: 200 | 201 | 202; meta?: unknown } = {},
): TypedResponse<any, any, 'json'> {
  return c.json({ success: true, message: opts.message ?? 'OK', data, errors: null, meta: opts.meta ?? null }, opts.status ?? 200);
}

export const serviceCtx = (c: Context<AppEnv>): ServiceContext => c.get('ctx');

/** The context of a route behind requireAccess: its actor is always set. */
export const authedCtx = (c: Context<AppEnv>): AuthedContext => c.get('ctx') as AuthedContext;
