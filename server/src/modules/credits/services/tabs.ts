/**
 * Credit tabs as the point of sale needs them, inside the sale's own transaction (a credit tab is
 * money, so it is written with the sale, not after it): open one for a credit sale, and cancel its
 * unpaid balance when the sale is refunded or voided.
 */
import { newId } from '@duka/shared';
import type { Insertable, Kysely } from 'kysely';
import { noteChange } from '../../../db/change-log.js';
import { forUpdate } from '../../../db/dialect.js';
import type { Database } from '../../../db/database.js';
import type { ServiceContext } from '../../../lib/context.js';
import { addDays, localDate } from '../../../lib/time.js';
import type { CreditTabRow, CreditTabTable } from '../../../db/tables/credits.table.js';
import { writeOffTabRow } from '../credits.queries.js';

export interface NewTab {
  orgId: string;
  storeId: string;
  customerId: string;
  transactionId: string;
  amount: number;
  at: number;
}

/** A credit sale's tab, due after the organisation's credit terms counted from the sale's local day. */
export function newCreditTab(t: NewTab, org: { timezone: string; credit_terms_days: number }, now: number): Insertable<CreditTabTable> {
  return {
    id: newId(),
    org_id: t.orgId,
    store_id: t.storeId,
    customer_id: t.customerId,
    transaction_id: t.transactionId,
    amount: t.amount,
    due_date: addDays(localDate(t.at, org.timezone), org.credit_terms_days),
    write_off_reason: null,
    settled_at: null,
    written_off_at: null,
    created_at: t.at,
    updated_at: now,
  };
}

/** Open tabs (sales' tabs, many at once) and note them for tills. */
export async function openCreditTabs(ctx: ServiceContext, orgId: string, tabs: Array<Insertable<CreditTabTable>>): Promise<void> {
  if (tabs.length === 0) return;
  await ctx.db.insertInto('credit_tabs').values(tabs).execute();
  for (const tab of tabs) noteChange(ctx, orgId, { entity: 'credit_tab', id: tab.id, storeId: tab.store_id });
}

/** The tab of a credit sale, found by the sale (of its organisation). */
export function tabForTransaction(db: Kysely<Database>, sale: { id: string; org_id: string }): Promise<CreditTabRow | undefined> {
  return db
    .selectFrom('credit_tabs')
    .selectAll()
    .where('org_id', '=', sale.org_id)
    .where('transaction_id', '=', sale.id)
    .executeTakeFirst();
}

/** Write off what is still owed on the sale's tab (design §3: a voided or refunded credit sale). */
export async function cancelCreditTab(
  ctx: ServiceContext,
  sale: { id: string; org_id: string },
  reason: 'sale voided' | 'sale refunded',
): Promise<void> {
  const tab = await tabForTransaction(ctx.db, sale);
  if (!tab || tab.status === 'written_off' || tab.status === 'settled') return;
  const now = ctx.clock.now();
  const balance = tab.amount - tab.paid_amount - tab.written_off_amount;
  await writeOffTabRow(ctx.db, tab.org_id, tab.id, tab.written_off_amount + balance, reason, now);
  noteChange(ctx, tab.org_id, { entity: 'credit_tab', id: tab.id, storeId: tab.store_id });
}

/**
 * Part of a credit sale refunded (issue 51): what the customer owes on its tab falls by `cents`
 * (`refundTender` never gives it more than the balance), kept as written off; a tab left owing
 * nothing is written off as a refunded sale's is. The tab row is locked first, as a write-off locks
 * it, so a payment being allocated to it at the same moment waits.
 */
export async function reduceCreditTab(ctx: ServiceContext, sale: { id: string; org_id: string }, cents: number): Promise<void> {
  const tab = await forUpdate(
    ctx.dialect,
    ctx.db.selectFrom('credit_tabs').selectAll().where('org_id', '=', sale.org_id).where('transaction_id', '=', sale.id),
  ).executeTakeFirst();
  if (!tab || cents <= 0) return;
  const now = ctx.clock.now();
  const writtenOff = Number(tab.written_off_amount) + cents;
  if (writtenOff + Number(tab.paid_amount) >= Number(tab.amount)) {
    await writeOffTabRow(ctx.db, tab.org_id, tab.id, writtenOff, 'sale refunded', now);
  } else {
    await ctx.db
      .updateTable('credit_tabs')
      .set({ written_off_amount: writtenOff, updated_at: now })
      .where('org_id', '=', tab.org_id)
      .where('id', '=', tab.id)
      .execute();
  }
  noteChange(ctx, tab.org_id, { entity: 'credit_tab', id: tab.id, storeId: tab.store_id });
  noteChange(ctx, tab.org_id, { entity: 'customer', id: tab.customer_id });
}
