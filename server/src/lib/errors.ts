/**
 * The one error model from domain to wire (design brief §3). Services throw ServiceError
 * subclasses; error-response.ts renders every error once, in the envelope.
 */
import { ERROR_STATUS, type ErrorCode, type ErrorItem } from '@duka/shared';
import { databaseRefusal } from '../db/dialect.js';

export class ServiceError extends Error {
  /**
   * `swahili`: the answer's `message` and `errors` in Swahili, for the few rules every client
   * meets (a phone number); without it a Swahili answer gets the code's sentence (language.ts).
   */
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly extra: {
      errors?: ErrorItem[];
      headers?: Record<string, string>;
      meta?: Record<string, unknown>;
      swahili?: { message: string; errors: ErrorItem[] };
    } = {},
  ) {
    super(message);
  }
  get status() {
    return ERROR_STATUS[this.code];
  }
}

export class ValidationError extends ServiceError {
  /** `swahili`: the same words in Swahili, read after the field name as `message` is. */
  constructor(field: string, message: string, swahili?: string) {
    super('VALIDATION_ERROR', `${field} ${message}`, {
      errors: [{ code: 'VALIDATION_ERROR', field, message }],
      ...(swahili ? { swahili: { message: `${field} ${swahili}`, errors: [{ code: 'VALIDATION_ERROR', field, message: swahili }] } } : {}),
    });
  }
}
export class NotFoundError extends ServiceError {
  constructor(entity: string) {
    super('NOT_FOUND', `${entity} not found`);
  }
}
export class ForbiddenError extends ServiceError {
  /** `meta`: e.g. the permission that is missing (`{ permission, flag }`). */
  constructor(message = 'you do not have permission to do this', meta?: Record<string, unknown>) {
    super('FORBIDDEN', message, meta ? { meta } : {});
  }
}
export class UnauthenticatedError extends ServiceError {
  constructor(
    message = 'authentication required',
    code: 'UNAUTHENTICATED' | 'INVALID_CREDENTIALS' | 'TOKEN_EXPIRED' | 'SESSION_EXPIRED' | 'LINK_EXPIRED' = 'UNAUTHENTICATED',
  ) {
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
/** 423 or 429 with `Retry-After` in whole seconds (and any other headers the refusal carries). */
export class RetryLaterError extends ServiceError {
  constructor(code: 'ACCOUNT_LOCKED' | 'RATE_LIMITED', message: string, retryAfterMs: number, headers: Record<string, string> = {}) {
    super(code, message, { headers: { ...headers, 'Retry-After': String(Math.max(1, Math.ceil(retryAfterMs / 1000))) } });
  }
}

/**
 * What the database refused about the data (a constraint, a value it cannot hold) as the 4xx it
 * is, or null for a fault. A rule in the code should have caught it first; this keeps a missing
 * rule from answering 500 (or, in a push, from failing the whole batch).
 */
export function refusalError(err: unknown): ServiceError | null {
  const kind = databaseRefusal(err);
  if (kind === 'constraint') return new ConflictError('this conflicts with data already stored');
  // Postgres 22021: text with a NUL character (\u0000), which it cannot hold.
  if (kind === 'value' && (err as { code?: string }).code === '22021')
    return new ServiceError('VALIDATION_ERROR', 'a text holds a NUL character (\\u0000), which the server cannot store');
  if (kind === 'value') return new ServiceError('VALIDATION_ERROR', 'a value is out of the range the server can store');
  return null;
}
