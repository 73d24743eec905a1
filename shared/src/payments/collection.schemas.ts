/**
 * A shop's own collection account (issue 38): the mobile-money provider its customers pay into,
 * and the payments the provider reports to it. Secrets go in and never come out: an account is
 * answered with `credentials_set` and a short hint, never a key, a secret or its callback token
 * (the token is inside `callback_url`, which only the owner sees).
 */
import { z } from 'zod';
import { DateString, Money, QueryBool, Timestamp } from '../common.js';
import { PageQuery } from '../envelope.js';

/** Providers a shop can collect through; open to more (each has a driver on the server). */
export const CollectionProvider = z.enum(['azampay', 'selcom']);
export type CollectionProvider = z.infer<typeof CollectionProvider>;

const secret = (max = 500) => z.string().trim().min(1).max(max);

export const AzamPayCredentials = z
  .object({ appName: secret(200), clientId: secret(), clientSecret: secret(2000), apiKey: secret(2000) })
  .strict()
  .meta({
    id: 'AzamPayCredentials',
    description: "From the AzamPay merchant portal: the app's name, client id, client secret and API key",
  });
export type AzamPayCredentials = z.infer<typeof AzamPayCredentials>;

export const SelcomCredentials = z
  .object({ apiKey: secret(), apiSecret: secret(2000), vendor: secret(100) })
  .strict()
  .meta({ id: 'SelcomCredentials', description: "From Selcom: the API key and secret and the merchant's vendor (till) id" });
export type SelcomCredentials = z.infer<typeof SelcomCredentials>;

export type CollectionCredentials = AzamPayCredentials | SelcomCredentials;

/** The credential object each provider takes. */
export const COLLECTION_CREDENTIALS = { azampay: AzamPayCredentials, selcom: SelcomCredentials } as const;

const base = {
  store_id: z
    .uuid()
    .nullable()
    .optional()
    .meta({ description: "The store it collects for; null or absent = every store of the organisation (a store's own account wins)" }),
  label: z.string().trim().min(1).max(80).meta({ example: 'M-Pesa Lipa Kariakoo' }),
  test_mode: z.boolean().optional().meta({ description: "The provider's sandbox: payments are not real money (default false)" }),
};

export const CreateCollectionAccountInput = z
  .discriminatedUnion('provider', [
    z.object({ provider: z.literal('azampay'), credentials: AzamPayCredentials, ...base }).strict(),
    z.object({ provider: z.literal('selcom'), credentials: SelcomCredentials, ...base }).strict(),
  ])
  .meta({ id: 'CreateCollectionAccountInput' });
export type CreateCollectionAccountInput = z.infer<typeof CreateCollectionAccountInput>;

export const UpdateCollectionAccountInput = z
  .object({
    label: base.label.optional(),
    test_mode: z.boolean().optional(),
    active: z.boolean().optional().meta({ description: 'true reactivates an account (409 if another is active for the same store)' }),
    credentials: z.record(z.string(), z.string()).optional().meta({
      description: "A whole new credential object for the account's provider (replaces the old; checked against the provider's fields)",
    }),
  })
  .strict()
  .meta({ id: 'UpdateCollectionAccountInput' });
export type UpdateCollectionAccountInput = z.infer<typeof UpdateCollectionAccountInput>;

export const CollectionAccount = z
  .object({
    id: z.uuid(),
    store_id: z.uuid().nullable(),
    provider: CollectionProvider,
    label: z.string(),
    credentials_set: z.literal(true),
    credentials_hint: z
      .string()
      .meta({ description: 'The last 4 characters of the client id (AzamPay) or API key (Selcom), to tell accounts apart' }),
    callback_url: z
      .string()
      .meta({ description: "Paste into the provider's dashboard as the callback (webhook) URL; rotating it stops the old one at once" }),
    test_mode: z.boolean(),
    active: z.boolean(),
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .meta({ id: 'CollectionAccount' });
export type CollectionAccount = z.infer<typeof CollectionAccount>;

export const ReceivedPaymentStatus = z.enum(['paid', 'failed']);

export const ReceivedPayment = z
  .object({
    id: z.uuid(),
    account_id: z.uuid(),
    store_id: z.uuid().nullable().meta({ description: "The account's store; null for an organisation-wide account" }),
    provider: CollectionProvider,
    provider_ref: z.string().meta({ description: "The provider's transaction reference" }),
    reference: z
      .string()
      .nullable()
      .meta({ description: 'Our reference when the provider echoes one; null for a payment the customer started' }),
    wallet_ref: z.string().nullable().meta({
      description: "The mobile network's own transaction id, the one in the payer's SMS, when the provider passes it on (AzamPay)",
    }),
    amount: Money,
    payer_phone: z.string().nullable().meta({ example: '+255712345678' }),
    network: z.string().nullable().meta({ description: "The wallet as the provider names it (e.g. 'Mpesa', 'AIRTELMONEY')" }),
    status: ReceivedPaymentStatus,
    received_at: Timestamp,
    matched_sale_id: z.uuid().nullable(),
  })
  .meta({ id: 'ReceivedPayment' });
export type ReceivedPayment = z.infer<typeof ReceivedPayment>;

export const ListReceivedPaymentsQuery = PageQuery.extend({
  date_from: DateString.optional().meta({ description: 'Received on or after this local day' }),
  date_to: DateString.optional().meta({ description: 'Received on or before this local day' }),
  account_id: z.uuid().optional(),
  matched: QueryBool.optional().meta({ description: 'true: claimed by a sale; false: not (yet)' }),
});
export type ListReceivedPaymentsQuery = z.infer<typeof ListReceivedPaymentsQuery>;

export const ReceivedPaymentsCsvQuery = ListReceivedPaymentsQuery.omit({ page: true, page_size: true });
export type ReceivedPaymentsCsvQuery = z.infer<typeof ReceivedPaymentsCsvQuery>;

export const CallbackReceived = z
  .object({ received: z.literal(true), stored: z.boolean().meta({ description: 'false when this payment was already recorded' }) })
  .meta({ id: 'CallbackReceived' });
