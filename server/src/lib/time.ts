/** Calendar arithmetic in an organisation's time zone (default Africa/Dar_es_Salaam, UTC+3). */
const formatters = new Map<string, Intl.DateTimeFormat>();

function parts(ms: number, tz: string) {
  let f = formatters.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat('en-CA', { timeZone: tz, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' });
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

/** The UTC instant at which local day `date` (`YYYY-MM-DD`) starts in `tz`. */
export function startOfLocalDay(date: string, tz: string): number {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const guess = Date.UTC(y, m - 1, d);
  const first = guess - tzOffsetMs(guess, tz);
  return guess - tzOffsetMs(first, tz);
}
