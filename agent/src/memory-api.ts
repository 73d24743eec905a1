/**
 * The agent's memory (conversations, pending actions) lives in the Duka API, not in this process,
 * so that any agent instance behind a load balancer can answer a follow-up or carry out a
 * confirmation. It is reached like everything else: over HTTP with the caller's own token, so it is
 * the caller's and their organisation's only. This is the one place that turns the API's answers
 * to memory calls into data or a refusal.
 */
import type { z } from 'zod';
import type { DukaApi } from './api-client.js';
import { type Caller, IdentityError } from './identity.js';

/** The API answered a memory call with a failure the user cannot fix: the agent answers 502. */
export class MemoryUnavailableError extends Error {
  constructor(readonly status: number) {
    super("the Duka API could not keep the agent's memory; nothing was changed, ask again");
  }
}

/** The statuses a caller of memoryCall handles itself (unknown, in the wrong state, expired). */
const EXPECTED = [404, 409, 410] as const;
export type MemoryRefusal = (typeof EXPECTED)[number];

export async function memoryCall<T extends z.ZodType>(
  api: DukaApi,
  caller: Caller,
  method: 'get' | 'post' | 'put',
  path: string,
  schema: T,
  body?: unknown,
): Promise<{ data: z.output<T> } | { refused: MemoryRefusal }> {
  const res = await api.request(caller.token, method, path, body === undefined ? {} : { body });
  if (res.status === 200) {
    const parsed = schema.safeParse(res.body?.data);
    if (parsed.success) return { data: parsed.data };
    throw new MemoryUnavailableError(res.status);
  }
  if ((EXPECTED as readonly number[]).includes(res.status)) return { refused: res.status as MemoryRefusal };
  if (res.status === 401 || res.status === 403)
    throw new IdentityError(res.status, String(res.body?.message ?? 'the access token is invalid or expired; sign in again'));
  throw new MemoryUnavailableError(res.status);
}
