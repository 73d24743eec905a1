/**
 * Route definitions: `defineRoute(access, config)` wraps createRoute so that every route states its
 * access level once, gets the matching middleware and OpenAPI security, and documents the error
 * envelope. `ok()` renders the success envelope.
 */
import { createRoute, type RouteConfig } from '@hono/zod-openapi';
import { ErrorBody } from '@duka/shared';
import type { Context, MiddlewareHandler, TypedResponse } from 'hono';
import { honourIdempotencyKey } from './idempotent-route.js';
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

type Config = Omit<RouteConfig, 'middleware' | 'security'> & {
  /**
   * A signed-in POST with a JSON body honours Idempotency-Key (idempotent-route.ts) unless it says
   * otherwise: `own`, it settles the key in its own transaction (and declares the header itself);
   * `none`, its answer must not be stored or replayed (new tokens or secrets, a provider's call).
   */
  idempotency?: 'own' | 'none';
};

/** Whether `honourIdempotencyKey` guards this route: a signed-in POST with a JSON body, not opted out. */
function keyedByMiddleware(access: Access, config: Config): boolean {
  const declared = config.request?.headers;
  const ownHeader = declared && 'shape' in declared && 'idempotency-key' in (declared.shape as object);
  return access !== 'public' && config.method === 'post' && !config.idempotency && !ownHeader && Boolean(config.request?.body?.content?.['application/json']);
}

export function defineRoute<R extends Config>(access: Access, config: R) {
  const secured = access !== 'public';
  const { idempotency: _, ...route } = config;
  const keyed = keyedByMiddleware(access, config);
  const request = keyed ? { ...route.request, headers: withIdempotencyHeader(route.request?.headers) } : route.request;
  return createRoute({
    ...route,
    ...(request ? { request } : {}),
    ...(secured ? { middleware: (keyed ? [requireAccess(access), honourIdempotencyKey] : [requireAccess(access)]) as [MiddlewareHandler], security: [{ bearerAuth: [] }] } : {}),
    responses: { ...ERROR_RESPONSES, ...(secured ? AUTH_RESPONSES : {}), ...config.responses },
  });
}

function withIdempotencyHeader(headers: unknown) {
  return headers instanceof z.ZodObject ? headers.extend(idempotencyHeader.shape) : idempotencyHeader;
}

/** The optional `Idempotency-Key` header of POSTs that create something (design §3, issue 18). */
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
