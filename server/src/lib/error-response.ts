/**
 * Every error rendered once, in the envelope: `handleError` for what a handler throws,
 * `handleZodError` for a failed request validation (400 VALIDATION_ERROR, one entry per bad field).
 * Both answer in the request's language (`Accept-Language`, language.ts): in Swahili the envelope's
 * `message` is the code's Swahili sentence, the server's own words staying in `errors[].message`.
 */
import type { ErrorCode, ErrorItem } from '@duka/shared';
import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { ZodError } from 'zod';
import { isBusyDatabaseError, isUnreachableDatabaseError } from '../db/dialect.js';
import type { AppEnv } from './context.js';
import { refusalError, ServiceError } from './errors.js';
import { issueMessage, type Language, requestLanguage, SWAHILI_ERROR_MESSAGE } from './language.js';
import { StorageError } from './storage.js';

/** How long a client waits before sending a request again that found the object store unreachable. */
const STORAGE_RETRY_AFTER_SEC = 30;

/** `message` in English; in Swahili it becomes the code's sentence unless `localised` (already in the request's language). */
function body(
  c: Context<AppEnv>,
  code: ErrorCode,
  message: string,
  errors?: ErrorItem[],
  meta?: Record<string, unknown>,
  localised = false,
) {
  const language = requestLanguage(c);
  c.header('Content-Language', language);
  c.header('Vary', 'Accept-Language', { append: true });
  return {
    success: false as const,
    message: language === 'sw' && !localised ? SWAHILI_ERROR_MESSAGE[code] : message,
    data: null,
    errors: errors ?? [{ code, message }],
    meta: { request_id: c.get('requestId'), ...meta },
  };
}

const HTTP_CODES: Partial<Record<number, ErrorCode>> = {
  400: 'VALIDATION_ERROR',
  401: 'UNAUTHENTICATED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
};

const HTTP_MESSAGES: Partial<Record<ErrorCode, string>> = {
  PAYLOAD_TOO_LARGE: 'request body is too large',
  UNSUPPORTED_MEDIA_TYPE: 'send the body as application/json',
};

export function handleError(err: Error, c: Context<AppEnv>): Response {
  if (err instanceof ServiceError) {
    for (const [k, v] of Object.entries(err.extra.headers ?? {})) c.header(k, v);
    const swahili = requestLanguage(c) === 'sw' ? err.extra.swahili : undefined;
    const answer = swahili
      ? body(c, err.code, swahili.message, swahili.errors, err.extra.meta, true)
      : body(c, err.code, err.message, err.extra.errors, err.extra.meta);
    return c.json(answer, err.status as ContentfulStatusCode);
  }
  if (err instanceof HTTPException && HTTP_CODES[err.status]) {
    const code = HTTP_CODES[err.status]!;
    const message = /malformed json/i.test(err.message) ? 'request body is not valid JSON' : (HTTP_MESSAGES[code] ?? err.message);
    return c.json(body(c, code, message), err.status as ContentfulStatusCode);
  }
  const refused = refusalError(err);
  if (refused) {
    // A rule missing in the code, caught by the database: the client's input, not a fault.
    c.get('log')?.warn({ err, req_id: c.get('requestId') }, 'the database refused a request');
    return c.json(body(c, refused.code, refused.message), refused.status as ContentfulStatusCode);
  }
  if (isBusyDatabaseError(err)) {
    c.get('log')?.warn({ err, req_id: c.get('requestId') }, 'the database was busy');
    c.header('Retry-After', '1');
    return c.json(body(c, 'SERVICE_UNAVAILABLE', 'the database is busy; send it again after Retry-After'), 503);
  }
  if (isUnreachableDatabaseError(err)) {
    // Logged once per request at warn: an outage is the readiness probe's to alert on, not each request's.
    c.get('log')?.warn({ err, req_id: c.get('requestId') }, 'the database was unreachable');
    c.header('Retry-After', '2');
    return c.json(body(c, 'SERVICE_UNAVAILABLE', 'the database is unreachable; send it again after Retry-After'), 503);
  }
  if (err instanceof StorageError) {
    c.get('log')?.warn({ err, req_id: c.get('requestId') }, 'the object store failed');
    c.header('Retry-After', String(STORAGE_RETRY_AFTER_SEC));
    return c.json(body(c, 'SERVICE_UNAVAILABLE', 'file storage is unreachable; send it again after Retry-After'), 503);
  }
  c.get('log')?.error({ err, req_id: c.get('requestId') }, 'unhandled error');
  return c.json(body(c, 'INTERNAL', 'internal error; quote the request id when reporting it'), 500);
}

/** One entry per issue, its message in `language` (zod's own words translated, a schema's own kept). */
export function zodErrorItems(error: ZodError, language: Language = 'en'): ErrorItem[] {
  return error.issues.map((issue) => ({
    code: 'VALIDATION_ERROR' as const,
    field: issue.path.length ? issue.path.join('.') : undefined,
    message: issueMessage(issue, language),
  }));
}

const INVALID_REQUEST: Record<Language, string> = { en: 'invalid request', sw: SWAHILI_ERROR_MESSAGE.VALIDATION_ERROR };

/** `defaultHook` of every router: a failed validation never reaches the handler. */
export function handleZodError(result: { success: boolean; error?: unknown; target?: string }, c: Context<AppEnv>) {
  if (result.success) return undefined;
  const language = requestLanguage(c);
  const errors = zodErrorItems(result.error as ZodError, language);
  const first = errors[0];
  const message = first ? `${first.field ? `${first.field} ` : ''}${first.message}` : INVALID_REQUEST[language];
  return c.json(body(c, 'VALIDATION_ERROR', message, errors, undefined, true), 400);
}
