/** The conflicts API: the conflicts pushes recorded, as owners list and resolve them (`/sync/conflicts`). */
import { z } from 'zod';
import { QueryBool } from '../../common.js';
import { ConflictKind } from '../../conflicts.js';
import { PageQuery } from '../../envelope.js';

export const SyncConflict = z
  .object({
    id: z.uuid(),
    kind: ConflictKind,
    message: z.string(),
    device_id: z.uuid().nullable(),
    mutation_id: z.uuid().nullable(),
    transaction_id: z.uuid().nullable(),
    product_id: z.uuid().nullable(),
    detail: z.record(z.string(), z.unknown()).nullable(),
    resolved: z.boolean(),
    resolution_note: z.string().nullable(),
    resolved_at: z.string().nullable(),
    created_at: z.string(),
  })
  .meta({ id: 'SyncConflict' });
export type SyncConflict = z.infer<typeof SyncConflict>;

export const ListConflictsQuery = PageQuery.extend({
  kind: ConflictKind.optional(),
  resolved: QueryBool.optional(),
  device_id: z.uuid().optional(),
});
export const ResolveConflictInput = z.object({ note: z.string().trim().min(1).max(1000) }).meta({ id: 'ResolveConflictInput' });

/**
 * A mutation a till pushed that the server refused (`GET /sync/refusals`): unlike a conflict, it
 * was not booked, and the till shows the cashier why; the owner reads them here.
 */
export const SyncRefusal = z
  .object({
    mutation_id: z.uuid(),
    device_id: z.uuid(),
    till_code: z.string(),
    store_id: z.uuid(),
    type: z.string().meta({ description: 'The mutation type, e.g. `sale.create`' }),
    code: z.string().meta({ description: 'The error code the till was answered with' }),
    message: z.string(),
    created_at: z.string(),
  })
  .meta({ id: 'SyncRefusal' });
export type SyncRefusal = z.infer<typeof SyncRefusal>;

export const ListRefusalsQuery = PageQuery.extend({
  days: z.coerce.number().int().min(1).max(90).default(7).meta({ description: 'How far back, in days (default 7)' }),
});
