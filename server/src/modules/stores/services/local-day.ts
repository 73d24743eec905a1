/** Shift hours for the store KPIs, in the organisation's time zone. */
import { localDate, localTime } from '../../../lib/time.js';

/** Working hours of each shift, local minutes since midnight, [from, to); `weekend` is all of Saturday and Sunday. */
const SHIFT_HOURS = {
  morning: [6 * 60, 14 * 60],
  evening: [14 * 60, 22 * 60],
  full_day: [6 * 60, 22 * 60],
} as const;

/** The shifts working at the instant `now` in `tz`. */
export function shiftsOnDuty(now: number, tz: string): string[] {
  const [h, m] = localTime(now, tz).split(':').map(Number) as [number, number];
  const minute = h * 60 + m;
  const on: string[] = Object.entries(SHIFT_HOURS)
    .filter(([, [from, to]]) => minute >= from && minute < to)
    .map(([shift]) => shift);
  const weekday = new Date(`${localDate(now, tz)}T00:00:00Z`).getUTCDay();
  if (weekday === 0 || weekday === 6) on.push('weekend');
  return on;
}
