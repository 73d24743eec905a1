/**
 * An in-process PaymentProvider for billing tests (the real drivers have their own fake servers).
 * It checks what billing hands it (whole shillings, 255… phones, a known network, our payment id)
 * and authenticates callbacks by a shared secret header, like the real ones by signature.
 */
import { MobileNetwork } from '@duka/shared';
import { expect } from 'vitest';
import {
  CallbackRejected,
  type PaymentCallbackInput,
  type PaymentProvider,
  type PaymentResult,
  type PaymentRejected,
  type PushPaymentRequest,
} from '../../server/src/mobile-money/provider.js';

export const CALLBACK_SECRET = 'fake-callback-secret';

export class FakePayments implements PaymentProvider {
  readonly name = 'fakepay';
  pushes: PushPaymentRequest[] = [];
  /** Set to make the next pushes fail as the provider would. */
  reject: PaymentRejected | null = null;
  /** What queryStatus answers, by reference. */
  statuses = new Map<string, PaymentResult>();
  queries: string[] = [];

  async startPush(request: PushPaymentRequest) {
    expect(Number.isInteger(request.amountTzs) && request.amountTzs > 0, `amount ${request.amountTzs}`).toBe(true);
    expect(request.phone).toMatch(/^255\d{9}$/);
    expect(MobileNetwork.options).toContain(request.network);
    expect(request.reference).toMatch(/^[0-9a-f-]{36}$/);
    if (this.reject) throw this.reject;
    this.pushes.push(request);
    return { providerRef: `FP-${this.pushes.length}` };
  }

  parseCallback(input: PaymentCallbackInput): PaymentResult {
    if (input.headers['x-fake-secret'] !== CALLBACK_SECRET) throw new CallbackRejected('bad secret');
    if (!input.contentType?.startsWith('application/json')) throw new CallbackRejected('not json');
    const b = JSON.parse(input.body) as { reference: string; transid: string; status: 'paid' | 'failed'; amount: number; message?: string };
    return { reference: b.reference, providerRef: b.transid, outcome: b.status, amountTzs: b.amount, detail: b.message ?? '' };
  }

  async queryStatus(reference: string) {
    this.queries.push(reference);
    return (
      this.statuses.get(reference) ?? {
        reference,
        providerRef: null,
        outcome: 'pending' as const,
        amountTzs: null,
        detail: 'waiting for the payer',
      }
    );
  }

  last(): PushPaymentRequest {
    const p = this.pushes.at(-1);
    if (!p) throw new Error('no push was made');
    return p;
  }
}

/** The callback a provider would send for `push`. */
export function callbackBody(push: PushPaymentRequest, over: Partial<{ status: 'paid' | 'failed'; amount: number; message: string }> = {}) {
  return JSON.stringify({
    reference: push.reference,
    transid: `T-${push.reference.slice(0, 6)}`,
    status: 'paid',
    amount: push.amountTzs,
    ...over,
  });
}
