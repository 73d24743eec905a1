import { z } from 'zod';
import { SmsProviderName } from '../integrations.js';
import { Money } from '../common.js';

export const SmsUsage = z
  .object({
    messages: z.int(),
    segments: z
      .int()
      .meta({ description: 'What the gateways bill: 160 plain characters (70 with a character outside GSM-7) per single message' }),
    cost: Money.nullable().meta({ description: 'What the gateways reported it cost, when they do' }),
  })
  .meta({ id: 'SmsUsage' });
export type SmsUsage = z.infer<typeof SmsUsage>;

export const SmsAccount = z
  .object({
    own_account: z.boolean().meta({ description: "Customer messages go out on the organisation's own gateway account" }),
    provider: SmsProviderName.nullable().meta({
      description: 'The gateway of the account customer messages use; null when the platform only logs messages',
    }),
    sender_id: z.string().nullable(),
    delivery_report_url: z
      .string()
      .nullable()
      .meta({ description: "Paste into the gateway's dashboard as the delivery-report (DLR) callback, for an own account" }),
    month: z.string().meta({ description: 'YYYY-MM, in the organisation time zone' }),
    usage: z
      .object({ own_account: SmsUsage, platform: SmsUsage })
      .meta({ description: 'SMS accepted by a gateway this month, per account' }),
  })
  .meta({ id: 'SmsAccount' });
export type SmsAccount = z.infer<typeof SmsAccount>;

export const SmsReportsAccepted = z
  .object({ applied: z.int().meta({ description: 'Messages whose delivery status changed' }) })
  .meta({ id: 'SmsReportsAccepted' });
