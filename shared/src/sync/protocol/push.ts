/** Push: a batch of the till's queue in seq order, and what the server made of each mutation. */
import { z } from 'zod';
import { ConflictKind } from '../../conflicts.js';
import { Mutation } from './mutations.js';
import { ServerTime } from './answered-at.js';

export const MAX_PUSH_MUTATIONS = 500;
export const PushRequest = z
  .object({
    device_id: z.uuid(),
    mutations: z
      .array(Mutation)
      .min(1)
      .meta({ description: `At most ${MAX_PUSH_MUTATIONS} (413 beyond)` }),
  })
  .meta({ id: 'PushRequest' });
export type PushRequest = z.infer<typeof PushRequest>;

/** What the server made of a pushed mutation: `duplicate` when it had already applied that id. */
export const MutationStatus = z.enum(['applied', 'duplicate', 'rejected']);
export type MutationStatus = z.infer<typeof MutationStatus>;

export const MutationResult = z
  .object({
    id: z.uuid(),
    seq: z.int(),
    status: MutationStatus,
    error: z.object({ code: z.string(), message: z.string() }).optional(),
    /** What the server made of it, e.g. `{ transaction_id, number, receipt_number }` for a sale. */
    result: z.record(z.string(), z.unknown()).optional(),
    conflicts: z.array(z.object({ kind: ConflictKind, message: z.string(), product_id: z.string().optional() })).optional(),
  })
  .meta({ id: 'MutationResult' });
export type MutationResult = z.infer<typeof MutationResult>;

export const PushResponse = z
  .object({ results: z.array(MutationResult), last_applied_seq: z.int(), server_time: ServerTime })
  .meta({ id: 'PushResponse' });
export type PushResponse = z.infer<typeof PushResponse>;
