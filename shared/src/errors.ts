/**
 * The error catalogue of design brief §3: every code a Duka server can answer, with its HTTP
 * status. Server and SDK both read this table, so a code means the same thing on both sides.
 */
import { z } from 'zod';

export const ERROR_STATUS = {
  VALIDATION_ERROR: 400,
  UNAUTHENTICATED: 401,
  INVALID_CREDENTIALS: 401,
  /** The access token has expired: refresh it. */
  TOKEN_EXPIRED: 401,
  /** The refresh token has expired (or its session ended): sign in again; refreshing will not help. */
  SESSION_EXPIRED: 401,
  /** A signed file link has passed its expiry: ask for a new one (GET /uploads/link). */
  LINK_EXPIRED: 401,
  /** Creating more than the organisation's plan allows (stores, staff, products, AI credits, SMS); `errors` names the limit. */
  PLAN_LIMIT: 402,
  FORBIDDEN: 403,
  /** Signed in with a temporary password: the session may only set a new password (PATCH /accounts/me with `password`). */
  PASSWORD_CHANGE_REQUIRED: 403,
  /** The till was retired by the owner (back office, devices): it may no longer push, pull or register again. */
  DEVICE_RETIRED: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  CONFLICT: 409,
  DUPLICATE: 409,
  INSUFFICIENT_STOCK: 409,
  INVALID_STATE: 409,
  IDEMPOTENCY_IN_FLIGHT: 409,
  /** Waited too long: a proposal whose time to confirm it has passed. */
  EXPIRED: 410,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  BUSINESS_RULE: 422,
  CREDIT_LIMIT_EXCEEDED: 422,
  OVERPAYMENT: 422,
  IDEMPOTENCY_MISMATCH: 422,
  AI_CREDITS_EXHAUSTED: 422,
  /** A sale line of a `pom` or `controlled` medicine, with no prescription on the sale. */
  PRESCRIPTION_REQUIRED: 422,
  /** A medicine an ADDO (accredited drug dispensing outlet) may not sell: it is not on the ADDO list. */
  NOT_PERMITTED_FOR_ADDO: 422,
  ACCOUNT_LOCKED: 423,
  /** The till speaks a sync protocol version this server no longer (or does not yet) serve. */
  UNSUPPORTED_PROTOCOL: 426,
  RATE_LIMITED: 429,
  INTERNAL: 500,
  SERVICE_UNAVAILABLE: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;
export const ErrorCode = z.enum(Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]]);

/** One problem with a request; `field` is a dot path into the body, query or path (`shop.name`, `lines.0.qty`). */
export const ErrorItem = z
  .object({
    code: ErrorCode,
    field: z.string().optional(),
    message: z.string(),
  })
  .meta({ id: 'ErrorItem' });
export type ErrorItem = z.infer<typeof ErrorItem>;

/** The envelope of every failed business response. */
export const ErrorBody = z
  .object({
    success: z.literal(false),
    message: z.string(),
    data: z.null(),
    errors: z.array(ErrorItem),
    meta: z.object({ request_id: z.string().optional() }).passthrough().nullable(),
  })
  .meta({ id: 'ErrorBody' });
export type ErrorBody = z.infer<typeof ErrorBody>;
