/** Amounts as the till shows them: the API's TZS numbers become integer cents at once (shared money helpers). */
import { formatTzs, toCents } from '@duka/shared';

/** An API amount (TZS, at most 2 decimals) as `TZS 12,500`. */
export const tzs = (amount: number): string => formatTzs(toCents(amount));
