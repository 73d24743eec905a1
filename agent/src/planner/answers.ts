/**
 * The agent's answers to the shared planner's intents (`planQuestion` in @duka/shared): each calls
 * the same tools a model would (through the budget), and words the API's figures exactly
 * (`formatTzs`, as the server writes amounts) in English or Swahili. A refusal from the API (403)
 * becomes a refusal here, with no figure.
 */
import { type AiIntent, type AiPeriod, type AiPlan, formatTzs, periodRange, productAnswer, productsNamed, toCents } from '@duka/shared';
import type { Language } from '../schemas.js';
import { type AnswerContext, data } from './answer-context.js';
import { purchaseOrders, reorder, stockTakes } from './stock-answers.js';

export { type AnswerContext, NoData } from './answer-context.js';

const tzs = (v: number) => formatTzs(toCents(v));
const n = (v: number) => v.toLocaleString('en-US');
/** A quantity in its product's unit: `22` pieces, `0.5 kg` (the API answers `unit` beside each). */
const q = (v: number, unit?: string) => (unit === undefined || unit === 'piece' ? n(v) : `${n(v)} ${unit}`);
const LIST_MAX = 10;

const PERIOD_WORDS: Record<AiPeriod, [string, string]> = {
  today: ['today', 'ya leo'],
  yesterday: ['yesterday', 'ya jana'],
  week: ['this week', 'ya wiki hii'],
  month: ['this month', 'ya mwezi huu'],
  last7: ['in the last 7 days', 'ya siku 7 zilizopita'],
};
const span = (r: { from: string; to: string }, lang: Language) =>
  r.from === r.to ? r.from : lang === 'sw' ? `${r.from} hadi ${r.to}` : `${r.from} to ${r.to}`;

async function sales(ctx: AnswerContext, plan: AiPlan) {
  const period = plan.period ?? 'today';
  const r = periodRange(period, ctx.today);
  const d = await data(ctx, 'getSalesSummary', period === 'today' ? {} : { date_from: r.from, date_to: r.to });
  const [en, sw] = PERIOD_WORDS[period];
  const when = span({ from: d.date_from, to: d.date_to }, ctx.lang);
  if (ctx.lang === 'sw') return `Mauzo ${sw} (${when}): mauzo ${n(d.transaction_count)}, jumla ${tzs(d.total_sales)}.`;
  return `Sales ${en} (${when}): ${n(d.transaction_count)} ${d.transaction_count === 1 ? 'sale' : 'sales'}, ${tzs(d.total_sales)} in total.`;
}

async function top(ctx: AnswerContext, plan: AiPlan) {
  const r = periodRange(plan.period ?? 'last7', ctx.today);
  const d = await data(ctx, 'getTopProducts', { date_from: r.from, date_to: r.to, limit: 5 });
  const when = span(r, ctx.lang);
  if (!d.top_products.length) return ctx.lang === 'sw' ? `Hakuna bidhaa iliyouzwa (${when}).` : `No products were sold (${when}).`;
  const lines = d.top_products.map((p: any, i: number) =>
    ctx.lang === 'sw'
      ? `${i + 1}. ${p.name}: zimeuzwa ${q(p.qty_sold, p.unit)}, ${tzs(p.revenue)}`
      : `${i + 1}. ${p.name}: ${q(p.qty_sold, p.unit)} sold, ${tzs(p.revenue)}`,
  );
  return [ctx.lang === 'sw' ? `Bidhaa zinazouzwa zaidi (${when}):` : `Best sellers (${when}):`, ...lines].join('\n');
}

async function lowStock(ctx: AnswerContext) {
  const rows: any[] = await data(ctx, 'listLowStock');
  if (!rows.length) return ctx.lang === 'sw' ? 'Hakuna bidhaa inayokaribia kuisha.' : 'No product is at or below its reorder point.';
  const lines = rows
    .slice(0, LIST_MAX)
    .map((p) =>
      ctx.lang === 'sw'
        ? `- ${p.name}: zimebaki ${q(p.stock, p.unit)} (agiza upya ikifika ${q(p.reorder_point, p.unit)})`
        : `- ${p.name}: ${q(p.stock, p.unit)} left (reorder at ${q(p.reorder_point, p.unit)})`,
    );
  const head =
    ctx.lang === 'sw'
      ? `Bidhaa ${n(rows.length)} zinakaribia kuisha:`
      : `${n(rows.length)} ${rows.length === 1 ? 'product is' : 'products are'} at or below the reorder point:`;
  return [head, ...lines].join('\n');
}

/** Products whose name matches the words asked about, an exact name first. */
export async function findProducts(ctx: AnswerContext, name: string): Promise<any[]> {
  return productsNamed(await data(ctx, 'listProducts', { search: name, page_size: 20 }), name);
}

async function product(ctx: AnswerContext, plan: AiPlan) {
  return productAnswer(await findProducts(ctx, plan.product!), plan.product!, ctx.lang);
}

async function debts(ctx: AnswerContext, plan: AiPlan) {
  const all: any[] = await data(ctx, 'listCustomersOwing');
  const rows = plan.threshold === undefined ? all : all.filter((c) => c.total_outstanding > plan.threshold!);
  const total = rows.reduce((s, c) => s + toCents(c.total_outstanding), 0);
  const over =
    plan.threshold === undefined ? '' : ctx.lang === 'sw' ? ` zaidi ya ${tzs(plan.threshold)}` : ` more than ${tzs(plan.threshold)}`;
  if (!rows.length) return ctx.lang === 'sw' ? `Hakuna mteja anayedaiwa${over}.` : `No customer owes you${over}.`;
  const lines = rows
    .slice(0, LIST_MAX)
    .map(
      (c) => `- ${c.name}: ${tzs(c.total_outstanding)}${c.overdue_count > 0 ? (ctx.lang === 'sw' ? ' (amechelewa)' : ' (overdue)') : ''}`,
    );
  const head =
    ctx.lang === 'sw'
      ? `Wateja ${n(rows.length)} wanadaiwa${over}, jumla ${formatTzs(total)}:`
      : `${n(rows.length)} ${rows.length === 1 ? 'customer owes' : 'customers owe'} you${over}, ${formatTzs(total)} in total:`;
  return [head, ...lines].join('\n');
}

async function overdue(ctx: AnswerContext) {
  const tabs: any[] = await data(ctx, 'listCreditTabs', { overdue: true, page_size: 100 });
  if (!tabs.length) return ctx.lang === 'sw' ? 'Hakuna deni lililochelewa.' : 'No credit tab is overdue.';
  const total = tabs.reduce((s, t) => s + toCents(t.balance), 0);
  const lines = tabs
    .slice(0, LIST_MAX)
    .map((t) =>
      ctx.lang === 'sw'
        ? `- ${t.customer_name}: ${tzs(t.balance)}, ilitakiwa ${t.due_date}`
        : `- ${t.customer_name}: ${tzs(t.balance)}, due ${t.due_date}`,
    );
  const head =
    ctx.lang === 'sw'
      ? `Madeni ${n(tabs.length)} yamechelewa, jumla ${formatTzs(total)}:`
      : `${n(tabs.length)} overdue ${tabs.length === 1 ? 'tab' : 'tabs'}, ${formatTzs(total)} still owed:`;
  return [head, ...lines].join('\n');
}

async function expenses(ctx: AnswerContext, plan: AiPlan) {
  const r = periodRange(plan.period ?? 'month', ctx.today);
  const d = await data(ctx, 'getExpenseSummary', { date_from: r.from, date_to: r.to });
  const cats = Object.entries<number>(d.by_category)
    .filter(([, v]) => v > 0)
    .map(([k, v]) => `${k} ${tzs(v)}`);
  const when = span({ from: d.date_from, to: d.date_to }, ctx.lang);
  if (ctx.lang === 'sw')
    return `Matumizi (${when}): ${tzs(d.total)} katika matumizi ${n(d.count)}${cats.length ? `; ${cats.join(', ')}` : ''}.`;
  return `Expenses (${when}): ${tzs(d.total)} in ${n(d.count)} ${d.count === 1 ? 'expense' : 'expenses'}${cats.length ? `; ${cats.join(', ')}` : ''}.`;
}

async function cashflow(ctx: AnswerContext, plan: AiPlan) {
  const r = periodRange(plan.period ?? 'month', ctx.today);
  const d = await data(ctx, 'getCashflow', { date_from: r.from, date_to: r.to });
  const when = span(r, ctx.lang);
  if (ctx.lang === 'sw')
    return `Mtiririko wa fedha (${when}): zilizoingia ${tzs(d.money_in.total)}, zilizotoka ${tzs(d.money_out.total)}, salio ${tzs(d.net)}.`;
  return `Cash flow (${when}): money in ${tzs(d.money_in.total)}, money out ${tzs(d.money_out.total)}, net ${tzs(d.net)}.`;
}

export const INTENT_ANSWERS: Record<Exclude<AiIntent, 'price_change'>, (ctx: AnswerContext, plan: AiPlan) => Promise<string>> = {
  sales,
  top_products: top,
  low_stock: lowStock,
  reorder,
  purchase_orders: purchaseOrders,
  stock_takes: stockTakes,
  product,
  debts,
  overdue,
  expenses,
  cashflow,
};
