/**
 * A till's `sale.exchange` (issue 52, protocol 4; docs/pos.md "Exchanges"): the items back refunded
 * as a pushed `sale.refund` of those lines is, the items out booked as a pushed `sale.create` is
 * (`applySales`: the till's prices and tender judged as for any offline sale), both in the mutation's
 * one savepoint, so a refusal of either writes neither. A replayed push answers the recorded result
 * (push.ts), so nothing is applied twice.
 */
import { type MoneyPart, type Mutation, type MutationResult, type SaleConflict, toCents } from '@duka/shared';
import type { DeviceRow } from '../../../db/tables/sync.table.js';
import { type PendingCommit, withSavepoint } from '../../../db/transaction.js';
import { requireStore } from '../../../lib/auth/authorize.js';
import type { AuthedContext } from '../../../lib/context.js';
import { ServiceError } from '../../../lib/errors.js';
import { payTabFromRefund, refundSale } from '../../../modules/pos/pos.exports.js';
import { recordConflicts } from './conflicts.js';
import { parsePayload } from './mutators.js';
import { applySales } from './sale-mutations.js';

/** Throws the refusal (the caller answers it as the mutation's rejection). */
export async function applyExchange(
  tx: AuthedContext & { pending: PendingCommit },
  device: DeviceRow,
  m: Mutation,
  now: number,
): Promise<MutationResult> {
  const p = parsePayload(m, 'sale.exchange');
  return withSavepoint(tx, async () => {
    const conflicts: SaleConflict[] = [];
    let mirrored: MoneyPart[] = [];
    const source = {
      shiftId: p.shift_id,
      deviceId: device.id,
      conflicts,
      lines: p.back,
      given: (g: { parts: MoneyPart[] }) => void (mirrored = g.parts),
    };
    const returned = await refundSale(tx, p.transaction_id, `exchange: ${p.reason}`, source);
    if (conflicts.length) {
      const where = { orgId: device.org_id, storeId: requireStore(tx).storeId, deviceId: device.id, mutationId: m.id };
      await recordConflicts(tx, { ...where, transactionId: returned.id, subject: 'Offline exchange' }, conflicts);
    }
    // The sale is paid first by the refund's parts, as online: only the rest is new money.
    const [sold] = await applySales(tx, device, [{ ...m, type: 'sale.create', payload: p.sale }], now, { mirrored });
    if (sold!.status === 'rejected') throw new ServiceError(sold!.error!.code as ServiceError['code'], sold!.error!.message);
    if (p.give_back === 'tab') {
      const total = toCents(Number(sold!.result!.total));
      await payTabFromRefund(tx, returned.customer_id ?? null, mirrored, total, p.shift_id ?? null);
    }
    return {
      ...sold!,
      id: m.id,
      seq: m.seq,
      result: { ...sold!.result, returned_id: returned.id, refunded_total: returned.refunded_total },
    };
  });
}
