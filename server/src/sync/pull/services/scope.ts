import { localDate } from '../../../lib/time.js';
import type { FileAddress } from '../../../modules/uploads/uploads.exports.js';
import { type Scope, TRANSACTION_WINDOW_MS } from './entities.js';

/** The set a till holds as of `now`: transactions of the last 30 days, tabs overdue by the local date. */
export function scopeAt(
  till: { orgId: string; storeId: string; files: FileAddress },
  now: number,
  timezone: string,
  since = now - TRANSACTION_WINDOW_MS,
): Scope {
  return { ...till, since, today: localDate(now, timezone) };
}
