/**
 * Route definitions: `defineRoute(access, config)` wraps createRoute so that every route states its
 * access level once (and any permission its verb asks, `needs`), gets the matching middleware,
 * OpenAPI security and access sentence, and documents its error
 * answers and headers (lib/openapi.ts). `ok()` renders the success envelope.
 */
import { createRoute, type RouteConfig } from '@hono/zod-openapi';
import type { ErrorCode } from '@duka/shared';
import type { Context, MiddlewareHandler, TypedResponse } from 'hono';
import { honourIdempotencyKey } from './idempotent-route.js';
import { z } from 'zod';
import { type Access, requireAccess } from './auth/middleware.js';
import type { AppEnv, AuthedContext, ServiceContext } from './context.js';
import { documentResponses } from './openapi.js';
import { accessExtension, accessSentence, type Needs } from './route-access.js';

type Config = Omit<RouteConfig, 'middleware' | 'security'> & {
  /** A verbNoun name, unique in the document: client generators and the companion agent's tools are named by it. */
  operationId: string;
  /** One or two sentences a caller needs: what it changes. Who may call it is appended (route-access.ts); never say it here. */
  description: string;
  /** What the verb asks beyond the access level (a permission), which the description then says. */
  needs?: Needs;
  /** The error codes its verb sends beyond those every route of its kind can answer (lib/openapi.ts errorCodes). */
  errors?: readonly ErrorCode[];
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
  return (
    access !== 'public' &&
    config.method === 'post' &&
    !config.idempotency &&
    !ownHeader &&
    Boolean(config.request?.body?.content?.['application/json'])
  );
}

function withIdempotencyHeader(headers: unknown) {
  return headers instanceof z.ZodObject ? headers.extend(idempotencyHeader.shape) : idempotencyHeader;
}

export function defineRoute<R extends Config>(access: Access, config: R) {
  const secured = access !== 'public';
  const { errors, idempotency: _, needs, ...route } = config;
  const keyed = keyedByMiddleware(access, config);
  const request = keyed ? { ...route.request, headers: withIdempotencyHeader(route.request?.headers) } : route.request;
  return createRoute({
    ...route,
    ...(request ? { request } : {}),
    description: `${config.description} ${accessSentence(access, needs)}`,
    'x-duka-access': accessExtension(access, needs),
    ...(secured
      ? {
          middleware: (keyed ? [requireAccess(access), honourIdempotencyKey] : [requireAccess(access)]) as [MiddlewareHandler],
          security: [{ bearerAuth: [] }],
        }
      : {}),
    // A keyed route can also answer a reused key (422) and a key still in flight (409).
    responses: documentResponses(
      {
        secured,
        method: config.method,
        request,
        errors: keyed ? [...(errors ?? []), 'IDEMPOTENCY_MISMATCH', 'IDEMPOTENCY_IN_FLIGHT'] : errors,
      },
      config.responses,
    ) as R['responses'],
  });
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

/** A JSON request body that must be present, with an example a caller can send as it is (checked against the schema in the tests). */
export const jsonBody = <T extends z.ZodType>(schema: T, example: z.input<T>, description?: string) => ({
  required: true,
  description,
  content: { 'application/json': { schema, example } },
});

export const jsonResponse = <T extends z.ZodType>(schema: T, description: string, example?: z.output<T>) => ({
  description,
  content: { 'application/json': { schema, ...(example === undefined ? {} : { example }) } },
});

/** The success envelope around an example of `data`, for a response's documented example. */
export const example = <T>(data: T, message = 'OK') => ({ success: true as const, message, data, errors: null, meta: null });

export function ok<T>(
  c: Context<AppEnv>,
  data: T,
  opts: { message?: string; status?: 200 | 201 | 202; meta?: unknown } = {},
): TypedResponse<any, any, 'json'> {
  return c.json({ success: true, message: opts.message ?? 'OK', data, errors: null, meta: opts.meta ?? null }, opts.status ?? 200);
}

/** `ok` around `data` already serialised (a bootstrap page read ahead, sync/pull/services/pages-ahead.ts): the same envelope, as text. */
export function okSerialised(c: Context<AppEnv>, json: string): TypedResponse<any, any, 'json'> {
  return c.body(`${OK_AROUND_DATA[0]}"data":${json}${OK_AROUND_DATA[1]}`, 200, { 'content-type': 'application/json' }) as never;
}
/** `ok`'s envelope as text, before and after its `data`. */
const OK_AROUND_DATA = JSON.stringify({ success: true, message: 'OK', data: 0, errors: null, meta: null }).split('"data":0');

export const serviceCtx = (c: Context<AppEnv>): ServiceContext => c.get('ctx');

/** The context of a route behind requireAccess: its actor is always set. */
export const authedCtx = (c: Context<AppEnv>): AuthedContext => c.get('ctx') as AuthedContext;
