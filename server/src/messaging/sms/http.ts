/**
 * The one HTTP call every SMS driver makes: a deadline around fetch, and the rule that an answer
 * which never came (network error, timeout, a dropped socket) is transient, so the outbox retries
 * it. What an answer that did come means is each driver's business.
 */
import { SmsRejected } from './sms-provider.js';

/** How long a driver waits for a gateway before the outbox counts the attempt as transient. */
export const DEFAULT_SMS_TIMEOUT_MS = 10_000;

export interface DriverOptions {
  timeoutMs?: number;
}

export interface HttpAnswer {
  status: number;
  text: string;
}

export async function callGateway(
  providerLabel: string,
  url: string,
  init: RequestInit,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<HttpAnswer> {
  const deadline = AbortSignal.timeout(timeoutMs);
  try {
    const res = await fetch(url, { ...init, signal: signal ? AbortSignal.any([deadline, signal]) : deadline });
    return { status: res.status, text: await res.text() };
  } catch (err) {
    // Only the kind of failure goes into the reason: the request (and its key) never does.
    const code = (err as { cause?: { code?: unknown } }).cause?.code;
    const why = deadline.aborted
      ? `no answer within ${timeoutMs} ms`
      : signal?.aborted
        ? 'sending was cancelled'
        : `could not be reached${typeof code === 'string' ? ` (${code})` : ''}`;
    throw new SmsRejected(`${providerLabel}: ${why}`, false);
  }
}

/** 5xx, 429 and 408 say "not now"; every other refusal is about the request and will not change. */
export function isTransientStatus(status: number): boolean {
  return status >= 500 || status === 429 || status === 408;
}

export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Provider words shown to a shop owner, kept short in case a gateway answers with a page of HTML. */
export function providerWords(text: string, fallback: string): string {
  const words = text.trim().replace(/\s+/g, ' ');
  return words.length === 0 ? fallback : words.length > 200 ? `${words.slice(0, 200)}…` : words;
}

export function basicAuth(user: string, password: string): string {
  return `Basic ${Buffer.from(`${user}:${password}`, 'utf8').toString('base64')}`;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
