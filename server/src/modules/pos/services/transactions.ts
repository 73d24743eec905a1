/** Reading the store's transactions: the list with its filters, one with lines, the day's summaries. */
import { SoldStatus, fromCents } from '@duka/shared';
import type { ListTransactionsQuery, PageMeta, Transaction } from '@duka/shared';
import type { AuthedContext } from '../../../lib/context.js';
import { NotFoundError, ValidationError } from '../../../lib/errors.js';
import { localDate, localDayRange } from '../../../lib/time.js';
import { orgTimezone } from '../../tenancy/tenancy.exports.js';
import { findStoreTransaction, partlyRefunded, salesBetween, soldParts, transactionMatches, unitsSold, withLines } from '../pos.queries.js';
import { requireOrg, requireStore } from '../../../lib/auth/authorize.js';
import { countedPage } from '../../../db/page.js';

/** [from, to) instants of the local dates `date_from`..`date_to` (both included; default today). */
export async function dateRange(ctx: AuthedContext, q: { date_from?: string; date_to?: string }) {
  const tz = await orgTimezone(ctx.db, requireOrg(ctx));
  const today = localDate(ctx.clock.now(), tz);
  const dateFrom = q.date_from ?? q.date_to ?? today;
  const dateTo = q.date_to ?? q.date_from ?? today;
  if (dateTo < dateFrom) throw new ValidationError('date_to', 'must not be before date_from');
  return { tz, dateFrom, dateTo, from: localDayRange(dateFrom, tz).from, to: localDayRange(dateTo, tz).to };
}

export async function listTransactions(ctx: AuthedContext, q: ListTransactionsQuery): Promise<{ items: Transaction[]; meta: PageMeta }> {
  const { orgId, storeId } = requireStore(ctx);
  let query = ctx.db.selectFrom('transactions').where('org_id', '=', orgId).where('store_id', '=', storeId);
  if (q.status) query = query.where('status', '=', q.status);
  // A sale paid several ways is listed under each of its methods (issue 51).
  if (q.method)
    query = query.where(({ exists, selectFrom }) =>
      exists(
        selectFrom('transaction_payments as tp')
          .select('tp.seq')
          .whereRef('tp.org_id', '=', 'transactions.org_id')
          .whereRef('tp.transaction_id', '=', 'transactions.id')
          .where('tp.method', '=', q.method!),
      ),
    );
  if (q.customer_id) query = query.where('customer_id', '=', q.customer_id);
  if (q.shift_id) query = query.where('shift_id', '=', q.shift_id);
  if (q.search) {
    const text = q.search;
    query = query.where(transactionMatches(ctx.dialect, text));
  }
  if (q.date_from || q.date_to) {
    const { from, to } = await dateRange(ctx, q);
    query = query.where('created_at', '>=', from).where('created_at', '<', to);
  }
  const { rows, meta } = await countedPage(query, query.selectAll().orderBy('created_at', 'desc').orderBy('number', 'desc'), q);
  return { items: await withLines(ctx.db, rows), meta };
}

export async function getTransaction(ctx: AuthedContext, id: string): Promise<Transaction> {
  const row = await findStoreTransaction(ctx.db, requireStore(ctx), id);
  if (!row) throw new NotFoundError('transaction');
  return (await withLines(ctx.db, [row]))[0]!;
}

/** Totals of the active store over local dates (default today); sales are paid + credit. */
export async function posSummary(ctx: AuthedContext, q: { date_from?: string; date_to?: string }) {
  const store = requireStore(ctx);
  const { from, to, dateFrom, dateTo } = await dateRange(ctx, q);
  const inRange = ctx.db
    .selectFrom('transactions')
    .where('org_id', '=', store.orgId)
    .where('store_id', '=', store.storeId)
    .where('created_at', '>=', from)
    .where('created_at', '<', to);
  const [byStatus, parts, items, partly] = await Promise.all([
    inRange
      .select(['status'])
      .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.sum<number>('total').as('amount')])
      .groupBy(['status'])
      .execute(),
    soldParts(ctx.db, store, from, to),
    unitsSold(ctx.db, store, from, to),
    partlyRefunded(ctx.db, store, from, to),
  ]);
  const sold = byStatus.filter((r) => (SoldStatus.options as string[]).includes(r.status));
  const sum = (rows: Array<{ amount: unknown }>) => rows.reduce((s, r) => s + Number(r.amount ?? 0), 0);
  const byMethod = (m: string) => fromCents(sum(parts.filter((r) => r.method === m)));
  const count = sold.reduce((s, r) => s + Number(r.n), 0);
  // A sale refunded in part counts less what its refunds gave back, as a refunded one counts nothing (issue 51).
  const total = sum(sold) - Number(partly.amount ?? 0);
  const refunds = byStatus.filter((r) => r.status === 'refunded');
  const mpesa = byMethod('M-Pesa');
  return {
    total_sales: fromCents(total),
    transaction_count: count,
    average_ticket: count ? fromCents(Math.round(total / count)) : 0,
    items_sold: Number(items.qty),
    cash_total: byMethod('Cash'),
    mpeca_total: mpesa,
    mpesa_total: mpesa,
    tigo_pesa_total: byMethod('Tigo Pesa'),
    airtel_money_total: byMethod('Airtel Money'),
    bank_total: byMethod('Bank'),
    credit_total: byMethod('Credit'),
    // Refunded whole, and (issue 51) refunded in part while still sold: the parts given back so far.
    refund_count: refunds.reduce((s, r) => s + Number(r.n), 0) + Number(partly.n),
    refund_total: fromCents(sum(refunds) + Number(partly.amount ?? 0)),
    date_from: dateFrom,
    date_to: dateTo,
  };
}

/** Sales by local hour of one day (default today): a bucket per hour, empty hours included. */
export async function hourlySummary(ctx: AuthedContext, date?: string) {
  const store = requireStore(ctx);
  const { from, to } = await dateRange(ctx, { date_from: date, date_to: date });
  // One store's day is at most a few thousand sales: bucketing here is exact on both databases.
  const rows = await salesBetween(ctx.db, store, from, to);
  const buckets = Array.from({ length: Math.round((to - from) / 3_600_000) }, (_, hour) => ({ hour, cents: 0, count: 0 }));
  for (const r of rows) {
    const b = buckets[Math.floor((r.created_at - from) / 3_600_000)]!;
    b.cents += Number(r.total) - Number(r.refunded_total);
    b.count++;
  }
  return buckets.map((b) => ({ hour: b.hour, sales: fromCents(b.cents), count: b.count }));
}
