/**
 * The outside services an operator or a shop can switch on, written out once; config, the
 * organisation's settings and the drivers derive theirs from these.
 */
import { z } from 'zod';

/** SMS gateways with a real driver (server/src/messaging/sms/). */
export const SmsProviderName = z.enum(['beem', 'africastalking', 'nextsms']);
export type SmsProviderName = z.infer<typeof SmsProviderName>;

/** Tanzanian mobile-money networks a subscription can be paid from. */
export const MobileNetwork = z.enum(['mpesa', 'airtel', 'tigo', 'halopesa', 'azampesa']);
export type MobileNetwork = z.infer<typeof MobileNetwork>;
