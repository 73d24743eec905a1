/**
 * Money actually received and paid out, by local day. A sale counts as money in on its day unless
 * it was on credit (then the credit payments count when received) or voided (it never happened);
 * a refund is money out on the day it was made.
 */
import { type AnalyticsQuery, type CashflowReport, SettlementMethod, fromCents } from '@duka/shared';
import type { AuthedContext } from '../../../lib/context.js';
import { creditPaymentsByDayAndMethod, dayOf, refundsOut, takingsByDayAndMethod } from '../analytics.queries.js';
import { expensesByDayAndCategory, supplierPaymentsByDay } from '../analytics-reports.queries.js';
import { resolveRange, scopeFields } from './scope.js';
import { requireRole } from '../../../lib/auth/authorize.js';

const money = (m: Map<string, number>) => Object.fromEntries([...m].map(([k, v]) => [k, fromCents(v)]));

export async function cashflow(ctx: AuthedContext, q: AnalyticsQuery): Promise<CashflowReport> {
  requireRole(ctx, 'owner');
  const r = await resolveRange(ctx, q);
  const [takings, credit, refunds, expenses, suppliers] = await Promise.all([
    takingsByDayAndMethod(ctx.readDb, r, r.buckets),
    creditPaymentsByDayAndMethod(ctx.readDb, r, r.buckets),
    refundsOut(ctx.readDb, r, r.buckets),
    expensesByDayAndCategory(ctx.readDb, r, r.buckets),
    supplierPaymentsByDay(ctx.readDb, r, r.buckets),
  ]);
  const days = r.dates.map(() => ({ in: 0, out: 0 }));
  const on = (key: number) => days[dayOf(key, r.buckets)] ?? { in: 0, out: 0 };
  const sales = new Map<string, number>(SettlementMethod.options.map((m) => [m, 0]));
  const payments = new Map<string, number>(SettlementMethod.options.map((m) => [m, 0]));
  const categories = new Map<string, number>();
  let refunded = 0;
  let spent = 0;
  let paidSuppliers = 0;
  for (const t of takings) (on(t.key).in += t.amount), sales.set(t.method, (sales.get(t.method) ?? 0) + t.amount);
  for (const p of credit) (on(p.key).in += p.amount), payments.set(p.method, (payments.get(p.method) ?? 0) + p.amount);
  for (const x of refunds) (on(x.key).out += x.amount), (refunded += x.amount);
  for (const e of expenses)
    (on(e.key).out += e.amount), (spent += e.amount), categories.set(e.category, (categories.get(e.category) ?? 0) + e.amount);
  for (const s of suppliers) (on(s.key).out += s.amount), (paidSuppliers += s.amount);
  const moneyIn = [...sales.values(), ...payments.values()].reduce((a, v) => a + v, 0);
  const moneyOut = refunded + spent + paidSuppliers;
  return {
    money_in: { sales: money(sales), credit_payments: money(payments), total: fromCents(moneyIn) },
    money_out: {
      refunds: fromCents(refunded),
      expenses: fromCents(spent),
      expenses_by_category: money(categories),
      supplier_payments: fromCents(paidSuppliers),
      total: fromCents(moneyOut),
    },
    net: fromCents(moneyIn - moneyOut),
    by_day: r.dates.map((date, i) => ({
      date,
      money_in: fromCents(days[i]!.in),
      money_out: fromCents(days[i]!.out),
      net: fromCents(days[i]!.in - days[i]!.out),
    })),
    ...scopeFields(r),
  };
}
