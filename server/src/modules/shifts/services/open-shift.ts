/**
 * Opening a shift: POST /pos/shifts and the till's `shift.open` both come here. One open shift per
 * cashier per store: a second is 409 naming the one open. The till's id makes it idempotent: the
 * same id again answers the shift it opened.
 */
import { newId, type OpenShiftInput, type TillShiftWithReport, toCents } from '@duka/shared';
import { withTransaction } from '../../../db/transaction.js';
import { recordAudit } from '../../../lib/audit.js';
import { requireStore } from '../../../lib/auth/authorize.js';
import type { AuthedContext } from '../../../lib/context.js';
import { ConflictError, ServiceError } from '../../../lib/errors.js';
import { iso } from '../../../lib/clock.js';
import { findOrgShift, insertShift, openShiftOf } from '../shifts.queries.js';
import { withReport } from './shift-report.js';

/** `openedAt`: when a till opened it offline (clamped to the server's clock); `deviceId`: that till. */
export async function openShift(
  ctx: AuthedContext,
  input: OpenShiftInput,
  opts: { openedAt?: number; deviceId?: string } = {},
): Promise<{ shift: TillShiftWithReport; replayed: boolean }> {
  const { orgId, storeId } = requireStore(ctx);
  const cashierId = ctx.actor.userId;
  return withTransaction(ctx, async (tx) => {
    if (input.id) {
      const same = await findOrgShift(tx.db, orgId, input.id);
      if (same && same.store_id === storeId && same.cashier_id === cashierId)
        return { shift: await withReport(tx.db, same), replayed: true };
      if (same) throw new ConflictError('this shift id is already in use');
    }
    const open = await openShiftOf(tx.db, { orgId, storeId }, cashierId);
    if (open) {
      const message = `you already have a shift open at this store (${open.id}, opened ${iso(Number(open.opened_at))}${open.till_number ? ` on till ${open.till_number}` : ''}): close it first`;
      throw new ServiceError('CONFLICT', message, {
        meta: { shift_id: open.id },
        errors: [{ code: 'CONFLICT', field: 'shift_id', message }],
      });
    }
    const now = tx.clock.now();
    const row = await insertShift(tx.db, {
      org_id: orgId,
      id: input.id ?? newId(),
      store_id: storeId,
      cashier_id: cashierId,
      device_id: opts.deviceId ?? null,
      till_number: input.till_number ?? null,
      opening_float: toCents(input.opening_float),
      open_note: input.note ?? null,
      opened_at: opts.openedAt ?? now,
      now,
    });
    await recordAudit(tx, {
      action: 'shift.open',
      description: `Opened a shift with a float of TZS ${input.opening_float}`,
      entity: 'shift',
      entityId: row.id,
    });
    return { shift: await withReport(tx.db, row), replayed: false };
  });
}
