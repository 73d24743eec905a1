/**
 * What the active store's collection accounts received (its own account's and the organisation-
 * wide account's), for those who may see reports (the owner always): a paged list and the same rows as CSV. Days are the
 * organisation's local days, inclusive.
 */
import type { ListReceivedPaymentsQuery, PageMeta, ReceivedPayment, ReceivedPaymentsCsvQuery } from '@duka/shared';
import { requirePermission, requireStore } from '../../../lib/auth/authorize.js';
import type { AuthedContext } from '../../../lib/context.js';
import { ValidationError } from '../../../lib/errors.js';
import { addDays, localDate, localTime, startOfLocalDay } from '../../../lib/time.js';
import { type Column, csvText } from '../../reports/reports.exports.js';
import { orgTimezone } from '../../tenancy/tenancy.exports.js';
import { type ReceivedFilter, receivedPayments, toReceivedPayment } from './received-payments.queries.js';
import { countedPage } from '../../../db/page.js';

/** A CSV answers in one piece: more rows than this is a narrower date range. */
const CSV_MAX_ROWS = 20_000;

async function filterOf(ctx: AuthedContext, q: ReceivedPaymentsCsvQuery): Promise<ReceivedFilter & { tz: string }> {
  requirePermission(ctx, 'reports');
  const { orgId, storeId } = requireStore(ctx);
  if (q.date_from && q.date_to && q.date_to < q.date_from) throw new ValidationError('date_to', 'must not be before date_from');
  const tz = await orgTimezone(ctx.db, orgId);
  return {
    orgId,
    storeId,
    tz,
    from: q.date_from ? startOfLocalDay(q.date_from, tz) : undefined,
    to: q.date_to ? startOfLocalDay(addDays(q.date_to, 1), tz) : undefined,
    accountId: q.account_id,
    matched: q.matched,
  };
}

export async function listReceivedPayments(
  ctx: AuthedContext,
  q: ListReceivedPaymentsQuery,
): Promise<{ items: ReceivedPayment[]; meta: PageMeta }> {
  const f = await filterOf(ctx, q);
  const base = receivedPayments(ctx.db, f);
  const { rows, meta } = await countedPage(base, base.selectAll().orderBy('received_at', 'desc').orderBy('id', 'desc'), q);
  return { items: rows.map(toReceivedPayment), meta };
}

const COLUMNS: Column[] = [
  'date',
  'time',
  'provider',
  'account_id',
  'provider_ref',
  'reference',
  'wallet_ref',
  'amount',
  'payer_phone',
  'network',
  'status',
  'matched_sale_id',
].map((key) => ({ key, money: key === 'amount' }));

/** The matching payments as CSV, oldest first. */
export async function receivedPaymentsCsv(ctx: AuthedContext, q: ReceivedPaymentsCsvQuery): Promise<{ fileName: string; text: string }> {
  const f = await filterOf(ctx, q);
  const base = receivedPayments(ctx.db, f);
  const counted = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  if (Number(counted.n) > CSV_MAX_ROWS)
    throw new ValidationError('date_from', `gives ${counted.n} payments, more than ${CSV_MAX_ROWS} in one file: choose a shorter range`);
  const rows = await base.selectAll().orderBy('received_at').orderBy('id').execute();
  const text = await csvText(
    COLUMNS,
    rows.map((r) => ({
      date: localDate(Number(r.received_at), f.tz),
      time: localTime(Number(r.received_at), f.tz),
      provider: r.provider,
      account_id: r.account_id,
      provider_ref: r.provider_ref,
      reference: r.reference ?? '',
      wallet_ref: r.wallet_ref ?? '',
      amount: Number(r.amount),
      payer_phone: r.payer_phone ?? '',
      network: r.network ?? '',
      status: r.status,
      matched_sale_id: r.matched_sale_id ?? '',
    })),
  );
  const today = localDate(ctx.clock.now(), f.tz);
  return { fileName: `received-payments_${q.date_from ?? 'start'}_to_${q.date_to ?? today}.csv`, text };
}
