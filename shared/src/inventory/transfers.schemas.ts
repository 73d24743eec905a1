/**
 * Issue 54, stock transfers between an organisation's stores: stock leaves the token's store and
 * arrives in another active store of the organisation in one transaction, each side recorded as a
 * stock adjustment (`transfer_out` / `transfer_in`). docs/inventory.md "Transfers between stores".
 * Quantities are in the product's unit: whole for a piece product, up to 3 decimals for a measured one.
 */
import { z } from 'zod';
import { Timestamp } from '../common.js';
import { PageQuery } from '../envelope.js';
import { QuantityInput, Unit } from './units.js';

export const TransferLineInput = z.object({ product_id: z.uuid(), qty: QuantityInput });

export const CreateTransferInput = z
  .object({
    to_store_id: z.uuid().meta({ description: 'Another active store of the organisation' }),
    lines: z.array(TransferLineInput).min(1).max(200).meta({ description: 'One line per product' }),
    note: z.string().trim().max(500).optional(),
  })
  .meta({ id: 'CreateTransferInput' });
export type CreateTransferInput = z.infer<typeof CreateTransferInput>;

export const StockTransfer = z
  .object({
    id: z.uuid(),
    from_store_id: z.uuid(),
    from_store_name: z.string(),
    to_store_id: z.uuid(),
    to_store_name: z.string(),
    lines: z.array(z.object({ product_id: z.uuid(), name: z.string(), unit: Unit, qty: z.number() })),
    note: z.string().nullable(),
    created_by: z.uuid().nullable(),
    created_at: Timestamp,
  })
  .meta({ id: 'StockTransfer' });
export type StockTransfer = z.infer<typeof StockTransfer>;

export const ListTransfersQuery = PageQuery.extend({
  direction: z.enum(['out', 'in']).optional().meta({ description: 'Only those leaving (`out`) or arriving in (`in`) the active store' }),
});
export type ListTransfersQuery = z.infer<typeof ListTransfersQuery>;
