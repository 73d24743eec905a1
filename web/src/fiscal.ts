/**
 * A fiscal receipt's date and time as it was sent to TRA: in EAT whatever zone the tablet is set
 * to, because TRA's DATE, TIME and Z number (the day, YYYYMMDD) are East Africa Time's.
 */
import { EAT, localDate, localTime } from '@duka/shared';

export function fiscalStamp(iso: string): { date: string; time: string; znum: string } {
  const ms = Date.parse(iso);
  const date = localDate(ms, EAT);
  return { date, time: localTime(ms, EAT), znum: date.replaceAll('-', '') };
}
