/** A change to a row a till holds, as pull and bootstrap carry it. */
import { z } from 'zod';

/** Entities a till holds (design §4). */
export const SyncEntity = z.enum([
  'organisation',
  'store',
  'category',
  'product',
  'stock',
  'customer',
  'credit_tab',
  'transaction',
  'note',
  'notification',
  'batch',
]);
export type SyncEntity = z.infer<typeof SyncEntity>;
export const ChangeOp = z.enum(['upsert', 'delete']);
export type ChangeOp = z.infer<typeof ChangeOp>;

export const Change = z
  .object({
    entity: SyncEntity,
    op: ChangeOp,
    id: z.string(),
    version: z.int(),
    /** The row as the till stores it (absent for deletes). */
    data: z.record(z.string(), z.unknown()).nullable(),
  })
  .meta({ id: 'Change' });
export type Change = z.infer<typeof Change>;
