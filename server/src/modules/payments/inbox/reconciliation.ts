/**
 * The owner's mobile-money reconciliation of the active store (issue 38), for a local day, a
 * shift, or a shift's part of a day; as JSON and as CSV. What each figure holds is the schema's
 * header (shared/src/payments/reconciliation.schemas.ts). The period: a day is the organisation's
 * local day; a shift's sales are those naming it, and its payments those received between its
 * opening and its close (now, while open), both ends included; with a day too, only the day's part.
 */
import {
  fromCents,
  MobileMoneyMethod,
  type PaymentReconciliation,
  type ReconciledWallet,
  type ReconciliationQuery,
  type ReversedSale,
  type SaleToCheck,
  type UnclaimedPayment,
} from '@duka/shared';
import type { ReceivedPaymentRow } from '../../../db/tables/collection.table.js';
import { requirePermission, requireStore } from '../../../lib/auth/authorize.js';
import { iso } from '../../../lib/clock.js';
import type { AuthedContext } from '../../../lib/context.js';
import { NotFoundError, ValidationError } from '../../../lib/errors.js';
import { localDate, localDayRange, localTime } from '../../../lib/time.js';
import { type Column, csvText } from '../../reports/reports.exports.js';
import { findStoreShift } from '../../shifts/shifts.exports.js';
import { orgTimezone } from '../../tenancy/tenancy.exports.js';
import { receivedPayments } from './received-payments.queries.js';
import { mobileMoneySales, paymentsMatchedTo } from './reconciliation.queries.js';
import { walletOfNetwork } from './wallet-of-network.js';

const WALLETS: ReconciledWallet[] = [...MobileMoneyMethod.options, 'other'];
const BUCKETS = ['expected', 'verified', 'unverified', 'unmatched', 'unchecked', 'confirmed', 'unclaimed'] as const;
type Bucket = (typeof BUCKETS)[number];
/** Cents and a count, per bucket. */
type Tally = Record<Bucket, { cents: number; count: number }>;

type SaleRow = Awaited<ReturnType<typeof mobileMoneySales>>[number];

interface Period {
  orgId: string;
  storeId: string;
  tz: string;
  from: number;
  to: number;
  /** The sales' own bounds: none for a shift alone (its sales name it). */
  salesFrom?: number;
  salesTo?: number;
}

async function periodOf(ctx: AuthedContext, q: ReconciliationQuery): Promise<Period> {
  requirePermission(ctx, 'reports');
  const { orgId, storeId } = requireStore(ctx);
  if (!q.date && !q.shift_id) throw new ValidationError('date', 'is required unless shift_id is given');
  const tz = await orgTimezone(ctx.db, orgId);
  const day = q.date ? localDayRange(q.date, tz) : undefined;
  if (!q.shift_id) return { orgId, storeId, tz, from: day!.from, to: day!.to, salesFrom: day!.from, salesTo: day!.to };
  const shift = await findStoreShift(ctx.db, { orgId, storeId }, q.shift_id);
  if (!shift) throw new NotFoundError('shift');
  const end = (shift.closed_at === null ? ctx.clock.now() : Number(shift.closed_at)) + 1;
  const from = Math.max(Number(shift.opened_at), day?.from ?? Number.NEGATIVE_INFINITY);
  const to = Math.max(from, Math.min(end, day?.to ?? Number.POSITIVE_INFINITY));
  return { orgId, storeId, tz, from, to, salesFrom: day?.from, salesTo: day?.to };
}

interface Figures {
  period: Period;
  sales: SaleRow[];
  matched: ReceivedPaymentRow[];
  unclaimed: ReceivedPaymentRow[];
}

async function figuresOf(ctx: AuthedContext, q: ReconciliationQuery): Promise<Figures> {
  const period = await periodOf(ctx, q);
  const { orgId, storeId } = period;
  const [sales, unclaimed] = await Promise.all([
    mobileMoneySales(ctx.db, { orgId, storeId, from: period.salesFrom, to: period.salesTo, shiftId: q.shift_id }),
    receivedPayments(ctx.db, { orgId, storeId, from: period.from, to: period.to, matched: false })
      .selectAll()
      .where('status', '=', 'paid')
      .orderBy('received_at')
      .orderBy('id')
      .execute(),
  ]);
  const verified = sales.filter((s) => standing(s) && s.payment_verification === 'verified').map((s) => s.id);
  return { period, sales, matched: await paymentsMatchedTo(ctx.db, orgId, verified), unclaimed };
}

/** A sale that still stands (paid, or on a tab whose rest was paid by mobile money). */
const standing = (s: { status: string }) => s.status === 'paid' || s.status === 'credit';

const cashierOf = (s: SaleRow) => (s.first_name === null ? null : `${s.first_name} ${s.last_name ?? ''}`.trim());

function tallies(f: Figures): Map<ReconciledWallet, Tally> {
  const byWallet = new Map(WALLETS.map((w) => [w, Object.fromEntries(BUCKETS.map((b) => [b, { cents: 0, count: 0 }])) as Tally]));
  const add = (w: ReconciledWallet, b: Bucket, cents: number) => {
    const cell = byWallet.get(w)![b];
    cell.cents += cents;
    cell.count += 1;
  };
  const methodOf = new Map(f.sales.map((s) => [s.id, s.payment_method as ReconciledWallet]));
  for (const s of f.sales.filter((x) => standing(x))) {
    add(s.payment_method as ReconciledWallet, 'expected', Number(s.total));
    add(s.payment_method as ReconciledWallet, s.payment_verification ?? 'unchecked', Number(s.total));
  }
  for (const p of f.matched) add(methodOf.get(p.matched_sale_id!)!, 'confirmed', Number(p.amount));
  for (const p of f.unclaimed.filter((x) => x.store_id !== null)) {
    add(walletOfNetwork(p.network), 'confirmed', Number(p.amount));
    add(walletOfNetwork(p.network), 'unclaimed', Number(p.amount));
  }
  return byWallet;
}

const shillings = (t: Tally) => ({
  ...(Object.fromEntries(BUCKETS.map((b) => [b, { amount: fromCents(t[b].cents), count: t[b].count }])) as Record<
    Bucket,
    { amount: number; count: number }
  >),
  difference: fromCents(t.confirmed.cents - t.expected.cents),
});

function saleView(s: SaleRow) {
  return {
    id: s.id,
    receipt_number: s.receipt_number,
    created_at: iso(Number(s.created_at)),
    amount: fromCents(Number(s.total)),
    wallet: s.payment_method as SaleToCheck['wallet'],
    payment_phone: s.payment_phone,
    payment_reference: s.payment_reference,
    cashier_id: s.cashier_id,
    cashier_name: cashierOf(s),
  };
}

const unclaimedView = (p: ReceivedPaymentRow): UnclaimedPayment => ({
  id: p.id,
  account_id: p.account_id,
  organisation_wide: p.store_id === null,
  provider: p.provider,
  provider_ref: p.provider_ref,
  reference: p.reference,
  wallet_ref: p.wallet_ref,
  wallet: walletOfNetwork(p.network),
  network: p.network,
  amount: fromCents(Number(p.amount)),
  payer_phone: p.payer_phone,
  received_at: iso(Number(p.received_at)),
});

export async function paymentReconciliation(ctx: AuthedContext, q: ReconciliationQuery): Promise<PaymentReconciliation> {
  const f = await figuresOf(ctx, q);
  const byWallet = tallies(f);
  const total = Object.fromEntries(BUCKETS.map((b) => [b, { cents: 0, count: 0 }])) as Tally;
  for (const t of byWallet.values())
    for (const b of BUCKETS) {
      total[b].cents += t[b].cents;
      total[b].count += t[b].count;
    }
  return {
    store_id: f.period.storeId,
    date: q.date ?? null,
    shift_id: q.shift_id ?? null,
    from: iso(f.period.from),
    to: iso(f.period.to),
    wallets: WALLETS.map((wallet) => ({ wallet, ...shillings(byWallet.get(wallet)!) })),
    totals: shillings(total),
    unclaimed_payments: f.unclaimed.map(unclaimedView),
    sales_to_check: f.sales
      .filter((s) => standing(s) && (s.payment_verification === 'unverified' || s.payment_verification === 'unmatched'))
      .map((s) => ({ ...saleView(s), payment_verification: s.payment_verification as SaleToCheck['payment_verification'] })),
    reversed_sales: f.sales
      .filter((s) => !standing(s))
      .map((s) => ({ ...saleView(s), status: s.status as ReversedSale['status'], payment_verification: s.payment_verification })),
  };
}

const COLUMNS: Column[] = [
  'record',
  'wallet',
  'date',
  'time',
  'receipt_number',
  'status',
  'check',
  'amount',
  'phone',
  'reference',
  'cashier',
  'provider',
  'provider_ref',
  'organisation_wide',
].map((key) => ({ key, money: key === 'amount' }));

/**
 * The same content as CSV: a row per mobile-money sale of the period (reversed ones with their
 * status), then a row per payment counted or listed (matched to a standing sale, then unclaimed),
 * so the sale rows with status `paid` add up to `expected` and the payment rows of the store's own
 * account (`organisation_wide` no) to `confirmed`.
 */
export async function reconciliationCsv(ctx: AuthedContext, q: ReconciliationQuery): Promise<{ fileName: string; text: string }> {
  const f = await figuresOf(ctx, q);
  const { tz } = f.period;
  const when = (ms: number) => ({ date: localDate(ms, tz), time: localTime(ms, tz) });
  const receipt = new Map(f.sales.map((s) => [s.id, s]));
  const payment = (p: ReceivedPaymentRow, check: string) => ({
    record: 'payment',
    wallet: p.matched_sale_id ? receipt.get(p.matched_sale_id)!.payment_method : walletOfNetwork(p.network),
    ...when(Number(p.received_at)),
    receipt_number: p.matched_sale_id ? receipt.get(p.matched_sale_id)!.receipt_number : '',
    status: p.status,
    check,
    amount: Number(p.amount),
    phone: p.payer_phone ?? '',
    reference: p.reference ?? '',
    cashier: '',
    provider: p.provider,
    provider_ref: p.provider_ref,
    organisation_wide: p.store_id === null ? 'yes' : 'no',
  });
  const rows = [
    ...f.sales.map((s) => ({
      record: 'sale',
      wallet: s.payment_method,
      ...when(Number(s.created_at)),
      receipt_number: s.receipt_number,
      status: s.status,
      check: s.payment_verification ?? 'unchecked',
      amount: Number(s.total),
      phone: s.payment_phone ?? '',
      reference: s.payment_reference ?? '',
      cashier: cashierOf(s) ?? '',
      provider: '',
      provider_ref: '',
      organisation_wide: '',
    })),
    ...f.matched.map((p) => payment(p, 'matched')),
    ...f.unclaimed.map((p) => payment(p, 'unclaimed')),
  ];
  const name = q.shift_id ? `shift-${q.shift_id.slice(0, 8)}${q.date ? `_${q.date}` : ''}` : q.date!;
  return { fileName: `mobile-money-reconciliation_${name}.csv`, text: await csvText(COLUMNS, rows) };
}
