/**
 * The controlled-drug and disposal registers (issue 14), read from the batch ledger of the
 * caller's store over a period of local days (default: this month so far). The controlled
 * register's balance is the shared `controlledRegister` over each line's stock change, from the
 * stock before the period, so its last balance is the product's stock at the period's end.
 */
import {
  controlledRegister,
  type ControlledRegister,
  type ControlledRegisterQuery,
  type DisposalRegister,
  type DisposalRegisterQuery,
  fromCents,
  fromCount,
  lineAmount,
} from '@duka/shared';
import { iso } from '../../../lib/clock.js';
import { requirePermission, requireStore } from '../../../lib/auth/authorize.js';
import type { AuthedContext } from '../../../lib/context.js';
import { BusinessRuleError, NotFoundError, ValidationError } from '../../../lib/errors.js';
import { localDate } from '../../../lib/time.js';
import { type Period, periodOf } from '../../reports/reports.exports.js';
import { type LedgerLine, ledgerLines, stockBefore } from '../lots/ledger.queries.js';

const userName = (l: LedgerLine) => (l.first_name == null ? null : `${l.first_name} ${l.last_name ?? ''}`.trim());

interface Scope {
  orgId: string;
  storeId: string;
  storeName: string;
  tz: string;
  period: Period;
}

async function registerScope(ctx: AuthedContext, q: { date_from?: string; date_to?: string }): Promise<Scope> {
  requirePermission(ctx, 'pharmacy');
  const { orgId, storeId } = requireStore(ctx);
  const store = await ctx.db
    .selectFrom('stores as s')
    .innerJoin('organisations as o', 'o.id', 's.org_id')
    .select(['s.name', 'o.timezone'])
    .where('s.id', '=', storeId)
    .where('s.org_id', '=', orgId)
    .executeTakeFirst();
  if (!store) throw new NotFoundError('store');
  const today = localDate(ctx.clock.now(), store.timezone);
  const to = q.date_to ?? today;
  const from = q.date_from ?? `${to.slice(0, 7)}-01`;
  if (from > to) throw new ValidationError('date_from', 'must not be after date_to');
  return { orgId, storeId, storeName: store.name, tz: store.timezone, period: periodOf(from, to, store.timezone) };
}

export async function readControlledRegister(ctx: AuthedContext, q: ControlledRegisterQuery): Promise<ControlledRegister> {
  const scope = await registerScope(ctx, q);
  const product = await ctx.db
    .selectFrom('products')
    .select(['id', 'name', 'generic_name', 'strength', 'schedule', 'unit'])
    .where('id', '=', q.product_id)
    .where('org_id', '=', scope.orgId)
    .executeTakeFirst();
  if (!product) throw new NotFoundError('product');
  if (product.schedule !== 'controlled')
    throw new BusinessRuleError(
      `${product.name} is not a controlled medicine: it has no controlled-drug register`,
      'BUSINESS_RULE',
      'product_id',
    );
  const { start, end } = scope.period;
  const span = { orgId: scope.orgId, storeId: scope.storeId, start, end };
  const opening = await stockBefore(ctx.db, span, product.id);
  const rows = await ledgerLines(ctx.db, span).where('m.product_id', '=', product.id).execute();
  // Balances are worked out in counts, then answered in the product's unit.
  const inCounts = controlledRegister(
    rows.map((l) => ({
      id: l.id,
      at: iso(Number(l.created_at)),
      kind: l.kind,
      qty: Number(l.stock_change),
      units: Number(l.qty),
      batch_id: l.batch_id,
      lot_number: l.lot_number,
      expiry_date: l.expiry_date,
      status_from: l.status_from,
      status_to: l.status_to,
      reference: l.receipt_number ?? l.invoice_number ?? null,
      transaction_id: l.transaction_id,
      delivery_id: l.delivery_id,
      recall_id: l.recall_id,
      note: l.note ?? l.reason ?? null,
      user_id: l.user_id,
      user_name: userName(l),
    })),
    opening,
  );
  const unit = product.unit;
  const lines = inCounts.map((l) => ({
    ...l,
    qty: fromCount(l.qty, unit),
    units: fromCount(l.units, unit),
    balance: fromCount(l.balance, unit),
  }));
  return {
    store_id: scope.storeId,
    store_name: scope.storeName,
    product_id: product.id,
    product_name: product.name,
    generic_name: product.generic_name,
    strength: product.strength,
    date_from: scope.period.from,
    date_to: scope.period.to,
    timezone: scope.tz,
    opening_balance: fromCount(opening, unit),
    closing_balance: lines.at(-1)?.balance ?? fromCount(opening, unit),
    lines,
  };
}

export async function readDisposalRegister(ctx: AuthedContext, q: DisposalRegisterQuery): Promise<DisposalRegister> {
  const scope = await registerScope(ctx, q);
  let query = ledgerLines(ctx.db, { orgId: scope.orgId, storeId: scope.storeId, start: scope.period.start, end: scope.period.end }).where(
    'm.kind',
    '=',
    'disposed',
  );
  if (q.product_id) {
    const product = await ctx.db
      .selectFrom('products')
      .select('id')
      .where('id', '=', q.product_id)
      .where('org_id', '=', scope.orgId)
      .executeTakeFirst();
    if (!product) throw new NotFoundError('product');
    query = query.where('m.product_id', '=', product.id);
  }
  const rows = await query.execute();
  let totalValue = 0;
  const units = new Set(rows.map((l) => l.unit));
  const lines = rows.map((l) => {
    const count = -Number(l.qty);
    const qty = fromCount(count, l.unit);
    const value = lineAmount(Number(l.cost_price), count, l.unit);
    totalValue += value;
    return {
      id: l.id,
      at: iso(Number(l.created_at)),
      date: localDate(Number(l.created_at), scope.tz),
      batch_id: l.batch_id,
      product_id: l.product_id,
      product_name: l.product_name,
      generic_name: l.generic_name,
      strength: l.strength,
      lot_number: l.lot_number,
      expiry_date: l.expiry_date,
      status_from: l.status_from,
      unit: l.unit,
      qty,
      reason: l.reason,
      method: l.method,
      witness: l.witness,
      user_id: l.user_id,
      user_name: userName(l),
      unit_cost: fromCents(Number(l.cost_price)),
      value_at_cost: fromCents(value),
    };
  });
  return {
    store_id: scope.storeId,
    store_name: scope.storeName,
    date_from: scope.period.from,
    date_to: scope.period.to,
    timezone: scope.tz,
    // Pieces and kilos do not add up: a total only when every line is of one unit.
    total_qty: units.size > 1 ? null : fromCount(-rows.reduce((n, l) => n + Number(l.qty), 0), rows[0]?.unit ?? 'piece'),
    total_value_at_cost: fromCents(totalValue),
    lines,
  };
}
