/**
 * Stage `assignShift`: the cashier's shift the sale's money belongs to, by tenancy's one rule (the
 * till's shift when it is this store's, else the cashier's open one). Online a shift the cashier may
 * not use refuses the sale; a till's sale is booked all the same, with a conflict.
 */
import { bookerOf, pickShift, settleShift } from '../../tenancy/tenancy.exports.js';
import type { SaleDraft } from './sale-plan.js';

export interface SaleShift {
  cashierId: string;
  shiftId: string | null;
}

export function assignShift(sale: SaleDraft): SaleShift {
  const { opts } = sale.request;
  const cashierId = opts.cashierId ?? sale.actor.userId;
  const booker = bookerOf({ userId: cashierId, role: sale.actor.role }, opts.deviceId);
  const shiftId = settleShift(pickShift(sale.set.shifts, opts.shiftId, booker), booker, sale.conflicts);
  return { cashierId, shiftId };
}
