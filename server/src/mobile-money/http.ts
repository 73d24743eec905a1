/**
 * The one HTTP call a payment driver makes: a deadline around fetch, an answer read as JSON, and
 * the rule that an answer which never came (network error, timeout) is transient. What an answer
 * that did come means is each driver's business.
 */
import { PaymentRejected } from './provider.js';

export interface ProviderAnswer {
  status: number;
  body: Record<string, unknown>;
}

export async function callProvider(
  label: string,
  url: string,
  init: RequestInit,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<ProviderAnswer> {
  const deadline = AbortSignal.timeout(timeoutMs);
  let res: Response;
  try {
    res = await fetch(url, { ...init, signal: signal ? AbortSignal.any([deadline, signal]) : deadline });
  } catch {
    // Only the kind of failure goes into the reason: never the request or its credentials.
    throw new PaymentRejected(deadline.aborted ? `${label}: no answer within ${timeoutMs} ms` : `${label} could not be reached`, false);
  }
  const text = await res.text();
  let body: Record<string, unknown> = {};
  try {
    const parsed = JSON.parse(text) as unknown;
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) body = parsed as Record<string, unknown>;
  } catch {
    body = { message: text.trim().slice(0, 200) };
  }
  return { status: res.status, body };
}

/** 5xx, 429 and 408 say "not now"; any other refusal is about the request and will not change. */
export const isTransient = (status: number) => status >= 500 || status === 429 || status === 408;

/** The provider's words for an answer, or a fallback. */
export const providerMessage = (body: Record<string, unknown>, fallback: string) =>
  typeof body.message === 'string' && body.message ? body.message : fallback;
