/** Reading credit tabs, and writing one off. */
import { fromCents } from '@duka/shared';
import type { CreditTab, ListCreditTabsQuery, PageMeta, WriteOffInput } from '@duka/shared';
import { noteChange } from '../../../db/change-log.js';
import { forUpdate } from '../../../db/dialect.js';
import { withTransaction } from '../../../db/transaction.js';
import { recordAudit } from '../../../lib/audit.js';
import type { AuthedContext } from '../../../lib/context.js';
import { InvalidStateError, NotFoundError } from '../../../lib/errors.js';
import { orgToday, requireCustomer } from '../../customers/customers.exports.js';
import { balanceCents, filteredTabs, findTab, toCreditTab, writeOffTabRow } from '../credits.queries.js';
import { requireOrg, requirePower } from '../../../lib/auth/authorize.js';
import { countedPage } from '../../../db/page.js';

/** Tabs of the organisation, newest first. */
export async function listCreditTabs(ctx: AuthedContext, q: ListCreditTabsQuery): Promise<{ items: CreditTab[]; meta: PageMeta }> {
  const orgId = requireOrg(ctx);
  if (q.customer_id) await requireCustomer(ctx, q.customer_id);
  const today = await orgToday(ctx, orgId);
  const query = filteredTabs(ctx.db, orgId, today, { status: q.status, customerId: q.customer_id, overdue: q.overdue });
  const { rows, meta } = await countedPage(query, query.orderBy('credit_tabs.created_at', 'desc').orderBy('credit_tabs.id', 'desc'), q);
  return { items: rows.map((r) => toCreditTab(r, today)), meta };
}

/**
 * Forgive what is still owed on an open or partially paid tab (what was paid stays paid). The tab
 * row is locked first so a payment being allocated to it at the same moment waits, then sees it
 * written off.
 */
export async function writeOffTab(ctx: AuthedContext, tabId: string, input: WriteOffInput): Promise<CreditTab> {
  const orgId = requireOrg(ctx);
  const today = await orgToday(ctx, orgId);
  return withTransaction(ctx, async (tx) => {
    const locked = await forUpdate(
      tx.dialect,
      tx.db.selectFrom('credit_tabs').selectAll().where('org_id', '=', orgId).where('id', '=', tabId),
    ).executeTakeFirst();
    if (!locked) throw new NotFoundError('credit tab');
    requirePower(tx, 'write_off_debt');
    if (locked.status === 'settled' || locked.status === 'written_off')
      throw new InvalidStateError(`this credit tab is already ${locked.status.replace('_', ' ')}`);
    const now = tx.clock.now();
    const forgiven = balanceCents(locked);
    await writeOffTabRow(tx.db, orgId, tabId, Number(locked.written_off_amount) + forgiven, input.reason, now);
    noteChange(tx, orgId, { entity: 'credit_tab', id: tabId, storeId: locked.store_id });
    noteChange(tx, orgId, { entity: 'customer', id: locked.customer_id });
    await recordAudit(tx, {
      action: 'credit.write_off',
      description: `Wrote off TZS ${fromCents(forgiven)} owed on a credit tab: ${input.reason}`,
      entity: 'credit_tab',
      entityId: tabId,
    });
    return toCreditTab((await findTab(tx.db, orgId, tabId))!, today);
  });
}
