/**
 * Money is integer cents in storage and in the pricing function, and a number with at most 2
 * decimals (TZS) in the API; percentages (tax rates, discounts) are integer basis points.
 */
export const toCents = (amount: number): number => Math.round(amount * 100);
export const fromCents = (cents: number): number => cents / 100;
export const toBasisPoints = (percent: number): number => Math.round(percent * 100);
export const fromBasisPoints = (bp: number): number => bp / 100;

const shillings = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
const withCents = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/**
 * Cents as people read them in a text, an SMS or an e-mail: `TZS 12,500`, or `TZS 1,550.50` when
 * there are cents (never `1,550.5`).
 */
export function formatTzs(cents: number): string {
  return `TZS ${(cents % 100 === 0 ? shillings : withCents).format(fromCents(cents))}`;
}
