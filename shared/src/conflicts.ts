/**
 * The conflict kinds: what an offline sale may break and still be booked. The sale rules (pos,
 * pharmacy) return them, the push answers them and the conflicts API lists them, so they sit below
 * all three.
 */
import { z } from 'zod';

/**
 * What an offline sale can break and still be booked (design §4): the till charged a price the
 * catalogue no longer has (`stale_price`) or one it never had (`price_mismatch`), sold more than
 * the server's stock (`oversold`), went over the customer's credit limit, sold a product taken off
 * sale, or gave a discount without the permission; in a pharmacy, dispensed a batch that was
 * recalled, quarantined or expired by then (`dispensed_unsellable_batch`), sold a prescription
 * medicine without a complete prescription (`prescription`), or sold in an ADDO a medicine not on
 * its list (`not_permitted_for_addo`); or the till named as cashier someone other than the user whose
 * session pushed it (`cashier_mismatch`: the sale is booked to the pusher); or the till's clock was
 * wrong (`clock`: a sale dated in the future, or before a time the till had already reported; it is
 * booked at the server's receipt time, both times in the detail); or named a shift the till may not
 * book into (`shift`: another cashier's, booked to the pusher's own open shift instead, or a closed
 * one, booked to no shift, so a counted drawer's figures never move). The one list: the sale rules, the push and the conflicts API
 * all use it.
 */
export const ConflictKind = z.enum([
  'stale_price',
  'price_mismatch',
  'oversold',
  'credit_limit',
  'inactive_product',
  'permission',
  'dispensed_unsellable_batch',
  'prescription',
  'not_permitted_for_addo',
  'cashier_mismatch',
  'clock',
  'shift',
]);
export type ConflictKind = z.infer<typeof ConflictKind>;

/** A rule an offline sale broke: the sale is booked and this is recorded for the owner to review. */
export interface SaleConflict {
  kind: ConflictKind;
  message: string;
  product_id?: string;
  detail?: Record<string, unknown>;
}
