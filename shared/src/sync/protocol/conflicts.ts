/** The conflicts API: the conflicts pushes recorded, as owners list and resolve them (`/sync/conflicts`). */
import { z } from 'zod';
import { QueryBool } from '../../common.js';
import { ConflictKind } from '../../conflicts.js';

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

export const ListConflictsQuery = z.object({
  kind: ConflictKind.optional(),
  resolved: QueryBool.optional(),
  device_id: z.uuid().optional(),
  page: z.coerce.number().int().min(1).default(1),
  page_size: z.coerce
    .number()
    .int()
    .min(1)
    .default(20)
    .transform((n) => Math.min(n, 100)),
});
export const ResolveConflictInput = z.object({ note: z.string().trim().min(1).max(1000) }).meta({ id: 'ResolveConflictInput' });
