/**
 * Who is asking: the API answers GET /accounts/me for the caller's token, so the agent never
 * verifies or decodes a token itself; an invalid or expired token is the API's 401. Answers are
 * kept briefly per token (a question makes one call, not one per tool) and the token itself is
 * never logged or returned.
 */
import { createHash } from 'node:crypto';
import type { DukaApi } from './api-client.js';

export interface Caller {
  token: string;
  userId: string;
  orgId: string | null;
  storeId: string | null;
  role: string;
  /** The organisation's time zone: "today" and "this week" are its local dates, as the API counts them. */
  timezone: string;
}

export class IdentityError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

const KEEP_MS = 30_000;
const MAX_ENTRIES = 1000;

export class Identities {
  private cache = new Map<string, { caller: Caller; until: number }>();

  constructor(private readonly api: DukaApi) {}

  async resolve(token: string): Promise<Caller> {
    const key = createHash('sha256').update(token).digest('hex');
    const hit = this.cache.get(key);
    if (hit && hit.until > Date.now()) return hit.caller;
    const res = await this.api.request(token, 'get', '/accounts/me');
    if (res.status === 401) throw new IdentityError(401, res.body?.message ?? 'the access token is missing, invalid or expired');
    if (res.status !== 200) throw new IdentityError(502, `the API could not say who is asking (status ${res.status})`);
    const d = res.body.data;
    const caller: Caller = {
      token,
      userId: d.user.id,
      orgId: d.organisation?.id ?? null,
      storeId: d.store?.id ?? null,
      role: d.user.role,
      timezone: d.organisation?.timezone ?? 'Africa/Dar_es_Salaam',
    };
    if (this.cache.size >= MAX_ENTRIES) this.cache.delete(this.cache.keys().next().value!);
    this.cache.set(key, { caller, until: Date.now() + KEEP_MS });
    return caller;
  }
}
