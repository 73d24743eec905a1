/** The websocket's messages from server to till: `hello`, the `poke` that says "pull now", and the news it carries. */
import { z } from 'zod';
import { PaymentRequestState } from '../../payments/push.schemas.js';

export const ServerMessage = z.discriminatedUnion('type', [
  z.object({ type: z.literal('hello'), version: z.int(), protocol: z.int() }),
  z.object({ type: z.literal('poke'), version: z.int() }),
  z.object({ type: z.literal('notification'), notification: z.record(z.string(), z.unknown()) }),
  z.object({ type: z.literal('stock'), product_id: z.string(), stock: z.int() }),
  z.object({ type: z.literal('payment'), payment: PaymentRequestState }),
]);
export type ServerMessage = z.infer<typeof ServerMessage>;
