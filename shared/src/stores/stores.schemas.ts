import { z } from 'zod';
import { Timestamp } from '../common.js';

export const StoreStatus = z.enum(['open', 'closed', 'busy']);

export const Store = z
  .object({
    id: z.uuid(),
    name: z.string(),
    code: z.string().meta({ description: 'Short code used in receipt numbers' }),
    phone: z.string().nullable(),
    email: z.string().nullable(),
    area: z.string().nullable(),
    address: z.string().nullable(),
    latitude: z.number().nullable(),
    longitude: z.number().nullable(),
    open_hours: z.string().nullable(),
    color: z.string().nullable(),
    status: StoreStatus,
    vat_enabled: z.boolean(),
    is_active: z.boolean(),
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .meta({ id: 'Store' });
export type Store = z.infer<typeof Store>;
