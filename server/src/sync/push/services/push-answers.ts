/**
 * What a push's mutations already became: their recorded answers (a re-send, a seq or id used
 * before) and a mutation repeated within the push.
 */
import type { Mutation, MutationResult } from '@duka/shared';
import { requireOrg } from '../../../lib/auth/authorize.js';
import type { AuthedContext } from '../../../lib/context.js';
import { recordedMutations } from '../push.queries.js';

export interface SeenRow {
  id: string;
  seq: number;
  device_id: string;
  status: string;
  error_code: string | null;
  error_message: string | null;
  result: string | null;
}

function recorded(m: Mutation, row?: SeenRow): MutationResult {
  const out: MutationResult = { id: m.id, seq: m.seq, status: 'duplicate' };
  if (!row) return out;
  if (row.error_code) out.error = { code: row.error_code, message: row.error_message ?? '' };
  if (row.result) Object.assign(out, JSON.parse(row.result) as Pick<MutationResult, 'result' | 'conflicts'>);
  return out;
}

/** What this push's mutations already became, by id and by this device's seq, in one read. */
export async function readSeen(ctx: AuthedContext, deviceId: string, mutations: Mutation[]): Promise<Map<string, SeenRow>> {
  const seen = new Map<string, SeenRow>();
  for (const row of await recordedMutations(ctx.db, { orgId: requireOrg(ctx), deviceId }, mutations)) {
    seen.set(`id:${row.id}`, row);
    if (row.device_id === deviceId) seen.set(`seq:${row.seq}`, row);
  }
  return seen;
}

/** The answer of a mutation the device already sent (or whose seq it already used), or null for a new one. */
export function answerSeen(m: Mutation, seen: Map<string, SeenRow>, deviceId: string, last: number): MutationResult | null {
  const byId = seen.get(`id:${m.id}`);
  if (byId && byId.device_id !== deviceId)
    return {
      id: m.id,
      seq: m.seq,
      status: 'rejected',
      error: { code: 'CONFLICT', message: `mutation id ${m.id} was used by another device of this shop; give this mutation a new id` },
    };
  const bySeq = seen.get(`seq:${m.seq}`);
  // The seq is taken by another mutation: not a replay (a till restored from an old copy of its own
  // database reuses seqs). Say so rather than answer someone else's result.
  if (!byId && bySeq)
    return {
      id: m.id,
      seq: m.seq,
      status: 'rejected',
      error: { code: 'CONFLICT', message: `seq ${m.seq} was already used by mutation ${bySeq.id}; give this mutation a new seq` },
    };
  const prior = byId ?? bySeq;
  return prior || m.seq <= last ? recorded(m, prior) : null;
}

/**
 * A second mutation with the id of one earlier in the same push: the same mutation queued twice is
 * answered as a duplicate with the first's result; another mutation under a reused id is rejected
 * (it was not applied, and the id cannot name two things).
 */
export function repeatOf(m: Mutation, first: Mutation, firstResult: MutationResult): MutationResult {
  if (sameMutation(m, first)) return { ...firstResult, seq: m.seq, status: 'duplicate' };
  return {
    id: m.id,
    seq: m.seq,
    status: 'rejected',
    error: {
      code: 'IDEMPOTENCY_MISMATCH',
      message: `mutation id ${m.id} was already used in this push by seq ${first.seq} for a different mutation; give this mutation a new id`,
    },
  };
}

function sameMutation(a: Mutation, b: Mutation): boolean {
  return a.type === b.type && a.created_at === b.created_at && canonical(a.payload) === canonical(b.payload);
}

/** JSON with object keys sorted, so one payload serialised in two key orders compares equal. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
