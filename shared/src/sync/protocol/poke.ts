/** The websocket's messages from server to till: `hello`, the `poke` that says "pull now", and the news it carries. */
import { z } from 'zod';
import { PaymentRequestState } from '../../payments/push.schemas.js';

export const ServerMessage = z.discriminatedUnion('type', [
  z.object({ type: z.literal('hello'), version: z.int(), protocol: z.int() }),
  z.object({ type: z.literal('poke'), version: z.int() }),
  z.object({ type: z.literal('notification'), notification: z.record(z.string(), z.unknown()) }),
  z.object({ type: z.literal('stock'), product_id: z.string(), stock: z.int() }),
  /** Every level one read of the store's stock found, in one frame: sent only to tills that dialled with `accept=stocks`. */
  z.object({ type: z.literal('stocks'), items: z.array(z.object({ product_id: z.string(), stock: z.int() })) }),
  z.object({ type: z.literal('payment'), payment: PaymentRequestState }),
]);
export type ServerMessage = z.infer<typeof ServerMessage>;

/**
 * What a till names in the websocket's `accept` query parameter (comma-separated) to get messages
 * an older till could not parse: `stocks` (one frame of levels instead of a `stock` frame each).
 * A till that names nothing gets the messages of before.
 */
export const REALTIME_ACCEPT = { stocks: 'stocks' } as const;
