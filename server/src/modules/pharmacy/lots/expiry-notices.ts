/**
 * What the daily expiry job tells a store (issue 14), in English then Swahili like the low-stock
 * notices. Category `stock`: expiring medicine is stock the shop must act on, and tills already
 * show that category. Pure functions, so the wording is pinned by tests in one place.
 */
import type { NotificationCategory } from '@duka/shared';

export interface Notice {
  category: NotificationCategory;
  title: string;
  body: string;
  link: string;
}

/** A lot the job expired, with the units it held. */
export interface ExpiredLot {
  productName: string;
  lotNumber: string;
  units: number;
}

/** A store's notice lists this many lots by name; the rest are counted, so a catch-up stays readable. */
export const LISTED_LOTS = 20;

const units = (n: number) => (n === 1 ? '1 unit' : `${n} units`);
const lots = (n: number) => (n === 1 ? '1 lot' : `${n} lots`);
const days = (n: number) => (n === 1 ? '1 day' : `${n} days`);

/** One batch has entered its alert window: `daysLeft` days before `expiryDate`, holding `qty` units. */
export function expiryAlertNotice(b: {
  batchId: string;
  productName: string;
  lotNumber: string;
  expiryDate: string;
  qty: number;
  daysLeft: number;
}): Notice {
  const sw =
    b.qty === 1
      ? `Kipande 1 cha ${b.productName}, toleo ${b.lotNumber}, kinaisha muda wake tarehe ${b.expiryDate} (baada ya siku ${b.daysLeft}): kiuze kwanza au kirudishe kwa msambazaji.`
      : `Vipande ${b.qty} vya ${b.productName}, toleo ${b.lotNumber}, vinaisha muda wake tarehe ${b.expiryDate} (baada ya siku ${b.daysLeft}): viuze kwanza au virudishe kwa msambazaji.`;
  return {
    category: 'stock',
    title: `Expiring in ${days(b.daysLeft)}: ${b.productName} lot ${b.lotNumber}`,
    body: `${units(b.qty)} of ${b.productName}, lot ${b.lotNumber}, ${b.qty === 1 ? 'expires' : 'expire'} on ${b.expiryDate} (in ${days(b.daysLeft)}): sell ${b.qty === 1 ? 'it' : 'them'} first or return ${b.qty === 1 ? 'it' : 'them'} to the supplier. ${sw}`,
    link: `/pharmacy/batches/${b.batchId}`,
  };
}

/** The lots one run of the job expired in a store (those that held units), in the order given. */
export function expiredNotice(expired: ExpiredLot[]): Notice {
  const total = expired.reduce((n, l) => n + l.units, 0);
  const listed = expired.slice(0, LISTED_LOTS).map((l) => `${l.productName} lot ${l.lotNumber}: ${units(l.units)}`);
  const rest = expired.slice(LISTED_LOTS);
  if (rest.length) listed.push(`and ${lots(rest.length)} more (${units(rest.reduce((n, l) => n + l.units, 0))})`);
  return {
    category: 'stock',
    title: `Expired: ${lots(expired.length)}, ${units(total)} taken off sale`,
    body:
      `${listed.join('; ')}. They can no longer be sold: dispose of them and record the disposal. ` +
      `Muda wa dawa hizi umekwisha na haziuzwi tena: ziteketeze na uandike kwenye rejista ya uteketezaji.`,
    link: '/pharmacy/batches?status=expired',
  };
}
