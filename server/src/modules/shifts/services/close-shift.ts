/**
 * Closing a shift with its count: POST /pos/shifts/{id}/close and the till's `shift.close`. Only
 * the shift's cashier, a manager or the owner may; a closed shift cannot close again (409). What
 * each method was expected to hold and was counted is kept per method; a shortfall beyond the
 * owner's threshold (organisation `shift_shortfall_alert`) notifies the store, in the same transaction.
 */
import { type CloseShiftInput, formatTzs, shortBeyond, type TillShiftWithReport, toCents } from '@duka/shared';
import { insertRows } from '../../../db/dialect.js';
import { withTransaction } from '../../../db/transaction.js';
import { recordAudit } from '../../../lib/audit.js';
import { requireStore } from '../../../lib/auth/authorize.js';
import type { AuthedContext } from '../../../lib/context.js';
import { ForbiddenError, InvalidStateError, NotFoundError } from '../../../lib/errors.js';
import { createNotification } from '../../notifications/notifications.exports.js';
import { findOrganisation, overseesShifts } from '../../tenancy/tenancy.exports.js';
import { cashierName, claimClose, findStoreShift } from '../shifts.queries.js';
import { shiftFigures, withReport } from './shift-report.js';

/** `closedAt`: when a till closed it offline (clamped to the server's clock); default now. */
export async function closeShift(
  ctx: AuthedContext,
  id: string,
  input: CloseShiftInput,
  opts: { closedAt?: number } = {},
): Promise<TillShiftWithReport> {
  const { orgId, storeId } = requireStore(ctx);
  return withTransaction(ctx, async (tx) => {
    const shift = await findStoreShift(tx.db, { orgId, storeId }, id);
    if (!shift) throw new NotFoundError('shift');
    if (shift.cashier_id !== ctx.actor.userId && !overseesShifts(ctx.actor))
      throw new ForbiddenError("only the shift's cashier, a manager or the owner can close this shift");
    if (shift.status === 'closed') throw new InvalidStateError('this shift is already closed');
    const counted = Object.fromEntries(Object.entries(input.counted).map(([method, amount]) => [method, toCents(amount!)]));
    const figures = await shiftFigures(tx.db, shift, counted);
    const now = tx.clock.now();
    const closed = await claimClose(tx.db, shift, {
      userId: ctx.actor.userId,
      at: Math.max(opts.closedAt ?? now, Number(shift.opened_at)),
      now,
      note: input.note ?? null,
      overShort: figures.totals.over_short,
    });
    if (!closed) throw new InvalidStateError('this shift is already closed');
    await insertRows(
      tx.db,
      'shift_counts',
      figures.methods.flatMap((m) =>
        m.counted === null || m.expected === null
          ? []
          : [{ org_id: orgId, shift_id: id, method: m.method, expected: m.expected, counted: m.counted, over_short: m.over_short! }],
      ),
    );
    const org = await findOrganisation(tx.db, orgId);
    const short = -figures.totals.over_short;
    if (org && shortBeyond(figures, Number(org.shift_shortfall_alert))) {
      const cashMethods = figures.methods.filter((m) => (m.over_short ?? 0) < 0).map((m) => `${m.method} ${formatTzs(m.over_short!)}`);
      // The owner acts on whose drawer it was, so the notification names the cashier.
      const who = (await cashierName(tx.db, orgId, shift.cashier_id)) || 'a former user';
      await createNotification(tx, {
        orgId,
        storeId,
        category: 'sales',
        title: `${who}'s shift closed short by ${formatTzs(short)}`,
        body: `${who}'s shift${shift.till_number ? ` on till ${shift.till_number}` : ''} closed ${formatTzs(short)} short (${cashMethods.join(', ')}). Zamu ya ${who} imefungwa na upungufu wa ${formatTzs(short)}.${input.note ? ` Note: ${input.note}` : ''}`,
        link: `/pos/shifts/${id}`,
      });
    }
    await recordAudit(tx, {
      action: 'shift.close',
      description: `Closed a shift: expected ${formatTzs(figures.totals.expected)}, counted ${formatTzs(figures.totals.counted)}`,
      entity: 'shift',
      entityId: id,
    });
    return withReport(tx.db, closed, figures);
  });
}
