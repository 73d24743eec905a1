/** Amounts as the till shows them: the API's TZS numbers become integer cents at once (shared money helpers). */
import { formatTzs, parseTzMobile, toCents } from '@duka/shared';

/** An API amount (TZS, at most 2 decimals) as `TZS 12,500`. */
export const tzs = (amount: number): string => formatTzs(toCents(amount));

/** A TZS amount as a cashier types it (`50,000`, `50 000`), or null when it is not one (empty, negative, not a number). */
export function typedTzs(typed: string): number | null {
  if (typed.trim() === '') return null;
  const amount = Number(typed.replace(/[,\s]/g, ''));
  return Number.isFinite(amount) && amount >= 0 ? amount : null;
}

/** A customer's mobile number as Tanzanians read it (`0754 123 456`), from any form; as given when it is not one. */
export function phoneForPeople(phone: string): string {
  const parsed = parseTzMobile(phone);
  if (!parsed.ok) return phone;
  const n = parsed.national;
  return `${n.slice(0, 4)} ${n.slice(4, 7)} ${n.slice(7)}`;
}
