/** Local calendar days and shift hours for the store KPIs, in the organisation's time zone. */
import { localDate, localTime, startOfLocalDay } from '../../../lib/time.js';

/** `date` plus `n` calendar days (`YYYY-MM-DD`). */
export function addDays(date: string, n: number): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + n)).toISOString().slice(0, 10);
}

/** The local days from `days - 1` days ago to today, oldest first, and the instants they start at (plus tomorrow's start). */
export function lastLocalDays(now: number, tz: string, days: number): { dates: string[]; bounds: number[] } {
  const today = localDate(now, tz);
  const dates = Array.from({ length: days }, (_, i) => addDays(today, i - days + 1));
  const bounds = [...dates, addDays(today, 1)].map((d) => startOfLocalDay(d, tz));
  return { dates, bounds };
}

/** [start, end) of today in `tz`. */
export function todayRange(now: number, tz: string): { from: number; to: number } {
  const { bounds } = lastLocalDays(now, tz, 1);
  return { from: bounds[0]!, to: bounds[1]! };
}

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
