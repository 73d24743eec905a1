/**
 * Which day a pushed sale is booked on (issue 37). A till that sold offline for three days with its
 * clock right keeps each sale's own time, however late it arrives; nothing but the till knows when
 * a sale happened. What the server can tell is a clock that is wrong:
 * - dated in the future (past the tolerance): the sale cannot have happened yet;
 * - dated well before a sale this device sent earlier: a till's seq is the order it made things in,
 *   so its clock went back (a flat battery, a cashier setting the date).
 * The server's receipt time of the previous push is no bound: a till back after days offline
 * pushes its queue in batches, and the second batch's sales are rightly older than the first push.
 * Such a sale is booked at the server's receipt time and a `clock` conflict carries both times.
 */
import { CLOCK_TOLERANCE_MS, type SaleConflict } from '@duka/shared';
import { iso } from '../../../lib/clock.js';

export interface SaleTime {
  /** When the sale is booked (`created_at`). */
  at: number;
  conflict?: SaleConflict;
}

/** Judges a device's sales in the order it made them, from the till time of the last sale it had booked before. */
export class SaleClock {
  constructor(
    private readonly receivedAt: number,
    /** The till's time of the device's last sale booked at its own time (`devices.last_sale_at`). */
    public lastSaleAt: number | null,
  ) {}

  judge(tillAt: number): SaleTime {
    const now = this.receivedAt;
    if (tillAt > now + CLOCK_TOLERANCE_MS) {
      return this.wrong(tillAt, `${span(tillAt - now)} ahead of the server's`, { reason: 'future' });
    }
    const last = this.lastSaleAt;
    if (last !== null && tillAt < last - CLOCK_TOLERANCE_MS) {
      return this.wrong(tillAt, `${span(last - tillAt)} before the till's previous sale (${iso(last)}): its clock went back`, {
        reason: 'backwards',
        previous_sale_at: iso(last),
      });
    }
    this.lastSaleAt = Math.max(last ?? tillAt, tillAt);
    // Within the tolerance ahead: booked now, as a sale cannot be later than its receipt.
    return { at: Math.min(tillAt, now) };
  }

  private wrong(tillAt: number, why: string, detail: Record<string, string>): SaleTime {
    const now = this.receivedAt;
    return {
      at: now,
      conflict: {
        kind: 'clock',
        message: `the till's clock read ${iso(tillAt)} for this sale, ${why}; it is booked at the server's receipt time ${iso(now)}`,
        detail: { ...detail, client_created_at: iso(tillAt), received_at: iso(now), booked_at: iso(now) },
      },
    };
  }
}

/** A duration as an owner reads it: `3 d 4 h`, `2 h 15 min`, `7 min`. */
function span(ms: number): string {
  const min = Math.round(ms / 60_000);
  const [d, h, m] = [Math.floor(min / 1440), Math.floor((min % 1440) / 60), min % 60];
  if (d) return h ? `${d} d ${h} h` : `${d} d`;
  if (h) return m ? `${h} h ${m} min` : `${h} h`;
  return `${m} min`;
}
