/**
 * A fiscal receipt's date and time as it was sent to TRA: in EAT whatever zone the tablet is set
 * to, because TRA's DATE, TIME and Z number (the day, YYYYMMDD) are East Africa Time's.
 */
export const EAT = 'Africa/Dar_es_Salaam';

const eatParts = new Intl.DateTimeFormat('en-GB', {
  timeZone: EAT,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
});

export function fiscalStamp(iso: string): { date: string; time: string; znum: string } {
  const p = Object.fromEntries(eatParts.formatToParts(new Date(iso)).map((x) => [x.type, x.value]));
  return { date: `${p.year}-${p.month}-${p.day}`, time: `${p.hour}:${p.minute}:${p.second}`, znum: `${p.year}${p.month}${p.day}` };
}
