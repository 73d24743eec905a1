/**
 * Errors from a Duka server, parsed from the shared error envelope so a till can branch on
 * `code` (the same catalogue the server uses) rather than on HTTP statuses or message text.
 */
import { ERROR_STATUS, ErrorBody, type ErrorCode, type ErrorItem } from '@duka/shared';

export class DukaApiError extends Error {
  constructor(
    /** HTTP status of the answer. */
    readonly status: number,
    /** Error code from the shared catalogue (`INTERNAL` when the body was not an envelope). */
    readonly code: ErrorCode,
    message: string,
    /** One entry per problem; `field` is a dot path into the request. */
    readonly errors: ErrorItem[] = [],
    /** Server request id, to quote when reporting a problem. */
    readonly requestId?: string,
    /** Seconds to wait before retrying (429, 423), from `Retry-After`. */
    readonly retryAfter?: number,
    /** The envelope's `meta` (e.g. `expected_seq` on a push that skipped a seq). */
    readonly meta: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'DukaApiError';
  }

  /** Worth retrying later with the same request: the server or network, not the request, was at fault. */
  get transient(): boolean {
    return this.status >= 500 || this.status === 429 || this.code === 'IDEMPOTENCY_IN_FLIGHT';
  }
}

/** Build the error for a failed answer: its status, parsed body (or null) and Retry-After header. */
export function toApiError(status: number, body: unknown, retryAfter?: string | null): DukaApiError {
  const wait = retryAfter != null && /^\d+$/.test(retryAfter) ? Number(retryAfter) : undefined;
  const parsed = ErrorBody.safeParse(body);
  if (parsed.success) {
    const b = parsed.data;
    return new DukaApiError(status, b.errors[0]?.code ?? 'INTERNAL', b.message, b.errors, b.meta?.request_id, wait, b.meta ?? {});
  }
  const code = (Object.entries(ERROR_STATUS).find(([, s]) => s === status)?.[0] ?? 'INTERNAL') as ErrorCode;
  return new DukaApiError(status, code, `HTTP ${status}`, [], undefined, wait);
}
