/**
 * The owner's end of day for mobile money (issue 38): per wallet, what the store's mobile-money
 * sales of the day (or of a shift) expected against what the provider confirmed, and what needs the
 * owner: payments no sale claims, and sales whose payment was not (yet) seen.
 *
 * Expected counts the sales still standing (`paid`); a refunded or void sale is left out of every
 * figure and listed apart under `reversed_sales` (its money may well have arrived: its verification
 * is kept). Confirmed is the payments matched to the expected sales plus the payments into the
 * store's own account in the period that no sale claims; the organisation-wide account's unclaimed
 * payments cannot be told apart by store, so they are listed (flagged `organisation_wide`) in every
 * store's reconciliation and counted in none.
 */
import { z } from 'zod';
import { DateString, Money, Timestamp } from '../common.js';
import { MobileMoneyMethod, PaymentVerification } from '../payment-methods.js';
import { CollectionProvider } from './collection.schemas.js';

/** A wallet as reconciled: a mobile-money method, or `other` for a payment whose network names none of them. */
export const ReconciledWallet = z.union([MobileMoneyMethod, z.literal('other')]).meta({ id: 'ReconciledWallet' });
export type ReconciledWallet = z.infer<typeof ReconciledWallet>;

export const ReconciliationQuery = z.object({
  date: DateString.optional().meta({ description: "The organisation's local day; required unless shift_id is given" }),
  shift_id: z.uuid().optional().meta({
    description:
      "A shift of the active store: its sales, and the payments received while it was open; with date, only that day's part of it",
  }),
});
export type ReconciliationQuery = z.infer<typeof ReconciliationQuery>;

const Figure = z
  .object({ amount: Money, count: z.int() })
  .meta({ id: 'ReconciliationFigure', description: 'A sum in TZS and how many sales or payments make it' });

export const WalletReconciliation = z
  .object({
    wallet: ReconciledWallet,
    expected: Figure.meta({ description: "The period's standing sales paid with this wallet" }),
    verified: Figure.meta({ description: 'Of expected: matched to a payment the provider reported' }),
    unverified: Figure.meta({ description: "Of expected: still waiting for the provider's report, within the owner's window" }),
    unmatched: Figure.meta({ description: "Of expected: the owner's window passed without a payment" }),
    unchecked: Figure.meta({ description: 'Of expected: sold while the store had no collection account, so nothing was checked' }),
    confirmed: Figure.meta({
      description: "Payments matched to the expected sales plus the unclaimed payments into the store's own account",
    }),
    unclaimed: Figure.meta({ description: "Of confirmed: payments into the store's own account that no sale claims" }),
    difference: Money.meta({ description: 'confirmed − expected: below 0, sales whose money was not seen; above, money no sale explains' }),
  })
  .meta({ id: 'WalletReconciliation' });
export type WalletReconciliation = z.infer<typeof WalletReconciliation>;

export const SaleToCheck = z
  .object({
    id: z.uuid(),
    receipt_number: z.string(),
    created_at: Timestamp,
    amount: Money,
    wallet: MobileMoneyMethod,
    payment_verification: PaymentVerification,
    payment_phone: z.string().nullable(),
    payment_reference: z.string().nullable().meta({ description: "The reference the cashier typed from the customer's SMS" }),
    cashier_id: z.uuid().nullable(),
    cashier_name: z.string().nullable(),
  })
  .meta({ id: 'SaleToCheck' });
export type SaleToCheck = z.infer<typeof SaleToCheck>;

export const ReversedSale = SaleToCheck.omit({ payment_verification: true })
  .extend({
    status: z.enum(['refunded', 'void']),
    payment_verification: PaymentVerification.nullable().meta({
      description: 'null: sold while the store had no collection account, so nothing was checked (counted as `unchecked` in the figures)',
    }),
  })
  .meta({ id: 'ReversedMobileMoneySale' });
export type ReversedSale = z.infer<typeof ReversedSale>;

export const UnclaimedPayment = z
  .object({
    id: z.uuid(),
    account_id: z.uuid(),
    organisation_wide: z.boolean().meta({ description: 'Into the organisation-wide account: shown to every store, counted in none' }),
    provider: CollectionProvider,
    provider_ref: z.string(),
    reference: z.string().nullable(),
    wallet_ref: z.string().nullable().meta({ description: "The mobile network's own reference, the one in the payer's SMS, when known" }),
    wallet: ReconciledWallet,
    network: z.string().nullable().meta({ description: 'The wallet as the provider named it' }),
    amount: Money,
    payer_phone: z.string().nullable(),
    received_at: Timestamp,
  })
  .meta({ id: 'UnclaimedPayment' });
export type UnclaimedPayment = z.infer<typeof UnclaimedPayment>;

export const PaymentReconciliation = z
  .object({
    store_id: z.uuid(),
    date: DateString.nullable(),
    shift_id: z.uuid().nullable(),
    from: Timestamp.meta({ description: 'Start of the period (inclusive)' }),
    to: Timestamp.meta({ description: 'End of the period (exclusive); for an open shift, now' }),
    wallets: z.array(WalletReconciliation).meta({ description: 'M-Pesa, Tigo Pesa, Airtel Money, then other' }),
    totals: WalletReconciliation.omit({ wallet: true }),
    unclaimed_payments: z.array(UnclaimedPayment).meta({ description: 'Received in the period, claimed by no sale, oldest first' }),
    sales_to_check: z.array(SaleToCheck).meta({ description: 'Unverified and unmatched sales of the period, oldest first' }),
    reversed_sales: z.array(ReversedSale).meta({ description: 'Mobile-money sales of the period since refunded or voided: in no figure' }),
  })
  .meta({ id: 'PaymentReconciliation' });
export type PaymentReconciliation = z.infer<typeof PaymentReconciliation>;
