/** Sales of every organisation: the ledger with its filters, one sale with its lines, totals. */
import { PaymentMethod, SoldStatus, fromCents } from '@duka/shared';
import type {
  AdminTransaction,
  AdminTransactionsSummary,
  AdminTransactionsSummaryQuery,
  ListAdminTransactionsQuery,
  PageMeta,
} from '@duka/shared';
import type { AuthedContext } from '../../../lib/context.js';
import { NotFoundError } from '../../../lib/errors.js';
import { transactionMatches, withLines } from '../../pos/pos.exports.js';
import type { TransactionRow } from '../../../db/tables/pos.table.js';
import { acrossOrgs, adminDateRange } from './admin-context.js';
import { countedPage } from '../../../db/page.js';
import { requireAdmin } from '../../../lib/auth/authorize.js';

type Named = TransactionRow & { organisation_name: string; store_name: string };

async function toAdminTransactions(ctx: AuthedContext, rows: Named[]): Promise<AdminTransaction[]> {
  const sales = await withLines(ctx.db, rows);
  return sales.map((s, i) => ({
    ...s,
    org_id: rows[i]!.org_id,
    organisation_name: rows[i]!.organisation_name,
    store_name: rows[i]!.store_name,
  }));
}

function ledger(ctx: AuthedContext) {
  return ctx.db
    .selectFrom('transactions as t')
    .innerJoin('organisations as o', 'o.id', 't.org_id')
    .innerJoin('stores as s', (j) => j.onRef('s.id', '=', 't.store_id').onRef('s.org_id', '=', 't.org_id'));
}

async function filtered(ctx: AuthedContext, q: { org_id?: string; store_id?: string; date_from?: string; date_to?: string }) {
  let base = ledger(ctx);
  base = q.org_id ? base.where('t.org_id', '=', q.org_id) : base.modifyEnd(acrossOrgs);
  if (q.store_id) base = base.where('t.store_id', '=', q.store_id);
  const range = await adminDateRange(ctx, q);
  if (range) base = base.where('t.created_at', '>=', range.from).where('t.created_at', '<', range.to);
  return { base, range };
}

export async function listAdminTransactions(
  ctx: AuthedContext,
  q: ListAdminTransactionsQuery,
): Promise<{ items: AdminTransaction[]; meta: PageMeta }> {
  requireAdmin(ctx);
  let { base } = await filtered(ctx, q);
  if (q.status) base = base.where('t.status', '=', q.status);
  if (q.method) base = base.where('t.payment_method', '=', q.method);
  if (q.search) {
    const t = q.search;
    base = base.where(transactionMatches(ctx.dialect, t, 't'));
  }
  const { rows, meta } = await countedPage(
    base,
    base
      .selectAll('t')
      .select(['o.name as organisation_name', 's.name as store_name'])
      .orderBy('t.created_at', 'desc')
      .orderBy('t.id', 'desc'),
    q,
  );
  return { items: await toAdminTransactions(ctx, rows), meta };
}

export async function getAdminTransaction(ctx: AuthedContext, id: string): Promise<AdminTransaction> {
  requireAdmin(ctx);
  const row = await ledger(ctx)
    .selectAll('t')
    .select(['o.name as organisation_name', 's.name as store_name'])
    .where('t.id', '=', id)
    .modifyEnd(acrossOrgs)
    .executeTakeFirst();
  if (!row) throw new NotFoundError('transaction');
  return (await toAdminTransactions(ctx, [row]))[0]!;
}

/** Totals over the filters (all time without dates); sold = paid + credit, as on the owner summary. */
export async function adminTransactionsSummary(ctx: AuthedContext, q: AdminTransactionsSummaryQuery): Promise<AdminTransactionsSummary> {
  requireAdmin(ctx);
  const { base, range } = await filtered(ctx, q);
  const [groups, spread] = await Promise.all([
    base
      .select(['t.status', 't.payment_method'])
      .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.sum<number>('t.total').as('amount')])
      .groupBy(['t.status', 't.payment_method'])
      .execute(),
    base
      .where('t.status', 'in', SoldStatus.options)
      .select((eb) => [eb.fn.count<number>('t.org_id').distinct().as('orgs'), eb.fn.count<number>('t.store_id').distinct().as('stores')])
      .executeTakeFirstOrThrow(),
  ]);
  const sold = groups.filter((g) => (SoldStatus.options as string[]).includes(g.status));
  const cents = (rows: typeof groups) => rows.reduce((s, r) => s + Number(r.amount ?? 0), 0);
  const count = (rows: typeof groups) => rows.reduce((s, r) => s + Number(r.n), 0);
  const total = cents(sold);
  const n = count(sold);
  const refunds = groups.filter((g) => g.status === 'refunded');
  return {
    date_from: range?.dateFrom ?? null,
    date_to: range?.dateTo ?? null,
    total_sales: fromCents(total),
    transaction_count: n,
    average_ticket: n ? fromCents(Math.round(total / n)) : 0,
    refund_count: count(refunds),
    refund_total: fromCents(cents(refunds)),
    void_count: count(groups.filter((g) => g.status === 'void')),
    by_method: PaymentMethod.options.map((method) => {
      const rows = sold.filter((g) => g.payment_method === method);
      return { method, total: fromCents(cents(rows)), count: count(rows) };
    }),
    organisations: Number(spread.orgs),
    stores: Number(spread.stores),
  };
}
