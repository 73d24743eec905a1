/**
 * The stages a sale passes through, in order, named the same on the server
 * (`server/src/modules/pos/sale/`) and on the till (`client-sdk/src/actions/sale/`), so that a rule
 * is changed in one stage on both sides, or once here in `shared/` where it is a pure rule (issue 50).
 *
 * - `resolveLines`: merge the lines per product; find the products and the customer.
 * - `checkRules`: the sale rules every shop applies (`checkSale`) and the shop type's own (a pharmacy's
 *   prescription and ADDO checks) through its policy.
 * - `priceLines`: prices, wholesale tiers, discount and tax (`priceSale`).
 * - `settleTender`: how it is paid (its parts: `splitTender`), cash tendered and change, the credit limit, how a mobile-money payment is verified.
 * - `takeStock`: the stock each line takes, and the lots it takes them from (the shop type's lot policy).
 * - `assignShift`: the cashier's shift the sale's money belongs to.
 * - `numberSale`: the receipt number (the store's gapless number on the server, the till's own on the till).
 * - `writeSale`: the rows written (server) or the sale queued with its local effects (till).
 */
export const SALE_STAGES = [
  'resolveLines',
  'checkRules',
  'priceLines',
  'settleTender',
  'takeStock',
  'assignShift',
  'numberSale',
  'writeSale',
] as const;

export type SaleStage = (typeof SALE_STAGES)[number];
