/**
 * Calendar arithmetic in an organisation's time zone (default Africa/Dar_es_Salaam, East Africa
 * Time, UTC+3 all year): the local date and time of an instant, and the instants a local day starts
 * and ends at (its bounds, epoch ms), for the server, the till and the browser alike. A zone with
 * daylight saving is honoured (such a day is 23 or 25 hours long).
 */

/** East Africa Time: the platform's days, and TRA's date, time and Z number on a fiscal receipt. */
export const EAT = 'Africa/Dar_es_Salaam';
/** An organisation's time zone until it sets its own. */
export const DEFAULT_TIMEZONE = EAT;

const formatters = new Map<string, Intl.DateTimeFormat>();

/** Throws RangeError for a zone this runtime does not know (before anything is cached). */
function parts(ms: number, tz: string) {
  let f = formatters.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat('en-CA', {
      timeZone: tz,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    });
    formatters.set(tz, f);
  }
  const out: Record<string, string> = {};
  for (const p of f.formatToParts(new Date(ms))) out[p.type] = p.value;
  return out;
}

/** `YYYY-MM-DD` of the instant in `tz`. */
export function localDate(ms: number, tz: string): string {
  const p = parts(ms, tz);
  return `${p.year}-${p.month}-${p.day}`;
}

/** `YYYY-MM` of the instant in `tz`. */
export const localMonth = (ms: number, tz: string) => localDate(ms, tz).slice(0, 7);

/** `HH:MM:SS` of the instant in `tz`. */
export function localTime(ms: number, tz: string): string {
  const p = parts(ms, tz);
  return `${p.hour}:${p.minute}:${p.second}`;
}

/** Offset of `tz` from UTC at the instant, in milliseconds (Dar es Salaam: +3 h). */
export function tzOffsetMs(ms: number, tz: string): number {
  const p = parts(ms, tz);
  const asUtc = Date.UTC(+p.year!, +p.month! - 1, +p.day!, +p.hour!, +p.minute!, +p.second!);
  return asUtc - Math.floor(ms / 1000) * 1000;
}

/** `date` (`YYYY-MM-DD`) plus `n` calendar days. */
export function addDays(date: string, n: number): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + n)).toISOString().slice(0, 10);
}

/** The UTC instant at which local day `date` (`YYYY-MM-DD`) starts in `tz`. */
export function startOfLocalDay(date: string, tz: string): number {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const guess = Date.UTC(y, m - 1, d);
  const first = guess - tzOffsetMs(guess, tz);
  return guess - tzOffsetMs(first, tz);
}

/** The bounds of local day `date` in `tz`: the instants [from, to) it holds. */
export function localDayRange(date: string, tz: string): { from: number; to: number } {
  return { from: startOfLocalDay(date, tz), to: startOfLocalDay(addDays(date, 1), tz) };
}

/** Today in `tz` as [from, to). */
export const todayRange = (now: number, tz: string) => localDayRange(localDate(now, tz), tz);

/** The local calendar month holding `ms`, as `YYYY-MM` and its bounds in epoch ms. */
export function localMonthRange(ms: number, tz: string): { month: string; from: number; to: number } {
  const month = localMonth(ms, tz);
  // The 1st of next month: day 28 of this month plus 4 days is always in the next one.
  return { month, from: startOfLocalDay(`${month}-01`, tz), to: startOfLocalDay(`${addDays(`${month}-28`, 4).slice(0, 7)}-01`, tz) };
}

/** The local days from `days - 1` days ago to today, oldest first, and the instants they start at (plus tomorrow's start). */
export function lastLocalDays(now: number, tz: string, days: number): { dates: string[]; bounds: number[] } {
  const today = localDate(now, tz);
  const dates = Array.from({ length: days }, (_, i) => addDays(today, i - days + 1));
  const bounds = [...dates, addDays(today, 1)].map((d) => startOfLocalDay(d, tz));
  return { dates, bounds };
}
