/**
 * The one error model from domain to wire (design brief §3). Services throw ServiceError
 * subclasses; `handleError` renders every error once, in the envelope; `handleZodError` turns a
 * failed request validation into 400 VALIDATION_ERROR with one entry per bad field.
 */
import { ERROR_STATUS, type ErrorCode, type ErrorItem } from '@duka/shared';
import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { ZodError } from 'zod';
import type { AppEnv } from './context.js';

export class ServiceError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly extra: { errors?: ErrorItem[]; headers?: Record<string, string>; meta?: Record<string, unknown> } = {},
  ) {
    super(message);
  }
  get status() {
    return ERROR_STATUS[this.code];
  }
}

export class ValidationError extends ServiceError {
  constructor(field: string, message: string) {
    super('VALIDATION_ERROR', `${field} ${message}`, { errors: [{ code: 'VALIDATION_ERROR', field, message }] });
  }
}
export class NotFoundError extends ServiceError {
  constructor(entity: string) {
    super('NOT_FOUND', `${entity} not found`);
  }
}
export class ForbiddenError extends ServiceError {
  constructor(message = 'you do not have permission to do this') {
    super('FORBIDDEN', message);
  }
}
export class UnauthenticatedError extends ServiceError {
  constructor(message = 'authentication required', code: 'UNAUTHENTICATED' | 'INVALID_CREDENTIALS' | 'TOKEN_EXPIRED' = 'UNAUTHENTICATED') {
    super(code, message);
  }
}
export class DuplicateError extends ServiceError {
  constructor(field: string, message = `${field} is already in use`) {
    super('DUPLICATE', message, { errors: [{ code: 'DUPLICATE', field, message }] });
  }
}
export class ConflictError extends ServiceError {
  constructor(message: string) {
    super('CONFLICT', message);
  }
}
export class InvalidStateError extends ServiceError {
  constructor(message: string) {
    super('INVALID_STATE', message);
  }
}
export class BusinessRuleError extends ServiceError {
  constructor(message: string, code: ErrorCode = 'BUSINESS_RULE', field?: string) {
    super(code, message, field ? { errors: [{ code, field, message }] } : {});
  }
}
export class InsufficientStockError extends ServiceError {
  constructor(productName: string, available: number, field?: string) {
    const message = `not enough stock of ${productName}: ${available} available`;
    super('INSUFFICIENT_STOCK', message, { errors: [{ code: 'INSUFFICIENT_STOCK', field, message }], meta: { available } });
  }
}
/** 423 or 429 with `Retry-After` in whole seconds. */
export class RetryLaterError extends ServiceError {
  constructor(code: 'ACCOUNT_LOCKED' | 'RATE_LIMITED', message: string, retryAfterMs: number) {
    super(code, message, { headers: { 'Retry-After': String(Math.max(1, Math.ceil(retryAfterMs / 1000))) } });
  }
}

function body(c: Context<AppEnv>, code: ErrorCode, message: string, errors?: ErrorItem[], meta?: Record<string, unknown>) {
  return {
    success: false as const,
    message,
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
    return c.json(body(c, err.code, err.message, err.extra.errors, err.extra.meta), err.status as ContentfulStatusCode);
  }
  if (err instanceof HTTPException && HTTP_CODES[err.status]) {
    const code = HTTP_CODES[err.status]!;
    const message = /malformed json/i.test(err.message) ? 'request body is not valid JSON' : (HTTP_MESSAGES[code] ?? err.message);
    return c.json(body(c, code, message), err.status as ContentfulStatusCode);
  }
  c.get('log')?.error({ err, req_id: c.get('requestId') }, 'unhandled error');
  return c.json(body(c, 'INTERNAL', 'internal error; quote the request id when reporting it'), 500);
}

export function zodErrorItems(error: ZodError): ErrorItem[] {
  return error.issues.map((issue) => ({
    code: 'VALIDATION_ERROR' as const,
    field: issue.path.length ? issue.path.join('.') : undefined,
    message: issue.message,
  }));
}

/** `defaultHook` of every router: a failed validation never reaches the handler. */
export function handleZodError(result: { success: boolean; error?: unknown; target?: string }, c: Context<AppEnv>) {
  if (result.success) return undefined;
  const errors = zodErrorItems(result.error as ZodError);
  const first = errors[0];
  const message = first ? `${first.field ? `${first.field} ` : ''}${first.message}` : 'invalid request';
  return c.json(body(c, 'VALIDATION_ERROR', message, errors), 400);
}
