import { describe, expect, it } from 'vitest';
import { toApiError } from './errors.js';

describe('toApiError', () => {
  it('reads the code, field errors, request id and Retry-After from a Duka error envelope', () => {
    const err = toApiError(
      400,
      {
        success: false,
        message: 'phone is required',
        data: null,
        errors: [{ code: 'VALIDATION_ERROR', field: 'phone', message: 'is required' }],
        meta: { request_id: 'r-1' },
      },
      null,
    );
    expect(err).toMatchObject({ status: 400, code: 'VALIDATION_ERROR', message: 'phone is required', requestId: 'r-1', transient: false });
    expect(err.errors[0]!.field).toBe('phone');
  });

  it('maps a body that is not an envelope by status, and marks 429 and 5xx transient', () => {
    expect(toApiError(502, '<html>bad gateway</html>')).toMatchObject({ code: 'INTERNAL', transient: true });
    const limited = toApiError(429, null, '30');
    expect(limited).toMatchObject({ code: 'RATE_LIMITED', retryAfter: 30, transient: true });
  });
});
