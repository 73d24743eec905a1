import type { Mutation, MutationResult } from '@duka/shared';

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
