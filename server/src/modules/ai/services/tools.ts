/**
 * What the assistant can look up: tools over the shop's own records, each built on the service
 * that answers the same question over REST (POS summary, low stock, analytics top products,
 * customers' credit; and issue 52's reorder suggestions, purchase orders and stock-takes in
 * stock-tools.ts), scoped by the caller's token. Each answers figures (sent to the
 * gateway as JSON) and renders them as plain text in English or Swahili (the local answerer).
 */
import { type AiLanguage, formatTzs, fromCents, toCents, type Unit } from '@duka/shared';
import type { AuthedContext } from '../../../lib/context.js';
import { addDays, localDate } from '../../../lib/time.js';
import { orgTimezone } from '../../tenancy/tenancy.exports.js';
import { bestProducts, rollupRange } from '../../analytics/analytics.exports.js';
import { listCustomerCredits } from '../../customers/customers.exports.js';
import { listLowStock } from '../../inventory/inventory.exports.js';
import { posSummary } from '../../pos/pos.exports.js';
import { hasPermission, requireStore } from '../../../lib/auth/authorize.js';
import { STOCK_TOOLS } from './stock-tools.js';

export type ToolName = 'get_sales_today' | 'get_low_stock' | 'get_top_products' | 'get_customer_debts' | keyof typeof STOCK_TOOLS;

/** How many rows a listing names before "and N more". */
const LIST_MAX = 10;
export const TOP_DAYS = 7;
const TOP_LIMIT = 5;

const count = (n: number) => n.toLocaleString('en-US');
/** A quantity in a product's unit as said: `12` (pieces) or `11.75 kg`. */
const amount = (qty: number, unit: Unit) => (unit === 'piece' ? count(qty) : `${count(qty)} ${unit}`);

async function salesToday(ctx: AuthedContext) {
  const today = await posSummary(ctx, {});
  const yesterdayDate = addDays(today.date_from, -1);
  const yesterday = await posSummary(ctx, { date_from: yesterdayDate, date_to: yesterdayDate });
  const change = fromCents(toCents(today.total_sales) - toCents(yesterday.total_sales));
  return {
    date: today.date_from,
    sales_count: today.transaction_count,
    revenue: today.total_sales,
    items_sold: today.items_sold,
    yesterday: { date: yesterdayDate, sales_count: yesterday.transaction_count, revenue: yesterday.total_sales },
    change_vs_yesterday: change,
    change_percent: yesterday.total_sales ? Math.round((change / yesterday.total_sales) * 10_000) / 100 : null,
  };
}

async function lowStock(ctx: AuthedContext) {
  const products = await listLowStock(ctx);
  return {
    count: products.length,
    products: products.map((p) => ({ name: p.name, unit: p.unit, stock: p.stock, reorder_point: p.reorder_point })),
  };
}

async function bestSellers(ctx: AuthedContext) {
  const { orgId, storeId } = requireStore(ctx);
  // The analytics routes are the owner's; this answer is for anyone with the reports permission, so it reads the rollups itself.
  if (!hasPermission(ctx.actor, 'reports')) return { allowed: false as const };
  const dateTo = localDate(ctx.clock.now(), await orgTimezone(ctx.db, orgId));
  const range = await rollupRange(ctx, { store_id: storeId, date_from: addDays(dateTo, -(TOP_DAYS - 1)), date_to: dateTo });
  const top = await bestProducts(ctx.db, range, TOP_LIMIT);
  return {
    allowed: true as const,
    date_from: range.dateFrom,
    date_to: range.dateTo,
    products: top.map((p) => ({ name: p.name, unit: p.unit, qty_sold: p.qty_sold, revenue: p.revenue })),
  };
}

async function customerDebts(ctx: AuthedContext) {
  const rows = await listCustomerCredits(ctx, {});
  const total = fromCents(rows.reduce((s, r) => s + toCents(r.total_outstanding), 0));
  return {
    customers_count: rows.length,
    total_outstanding: total,
    overdue_customers: rows.filter((r) => r.overdue_count > 0).length,
    customers: rows.map((r) => ({
      name: r.name,
      phone: r.phone,
      outstanding: r.total_outstanding,
      overdue: r.overdue_count > 0,
      oldest_due_date: r.oldest_due_date,
    })),
  };
}

type SalesToday = Awaited<ReturnType<typeof salesToday>>;
type LowStock = Awaited<ReturnType<typeof lowStock>>;
type BestSellers = Awaited<ReturnType<typeof bestSellers>>;
type CustomerDebts = Awaited<ReturnType<typeof customerDebts>>;

function more(total: number, lang: AiLanguage) {
  const rest = total - LIST_MAX;
  return rest > 0 ? [lang === 'sw' ? `… na ${count(rest)} zaidi` : `… and ${count(rest)} more`] : [];
}

function salesText(d: SalesToday, lang: AiLanguage): string {
  const pct = d.change_percent === null ? '' : ` (${d.change_percent > 0 ? '+' : ''}${d.change_percent}%)`;
  if (lang === 'sw') {
    const trend =
      d.change_vs_yesterday > 0
        ? `Ongezeko la ${formatTzs(toCents(d.change_vs_yesterday))}${pct} kulinganisha na jana.`
        : d.change_vs_yesterday < 0
          ? `Pungufu ya ${formatTzs(toCents(-d.change_vs_yesterday))}${pct} kulinganisha na jana.`
          : 'Sawa na jana.';
    return `Mauzo ya leo (${d.date}): mauzo ${count(d.sales_count)}, jumla ${formatTzs(toCents(d.revenue))}. Jana (${d.yesterday.date}): mauzo ${count(d.yesterday.sales_count)}, ${formatTzs(toCents(d.yesterday.revenue))}. ${trend}`;
  }
  const trend =
    d.change_vs_yesterday > 0
      ? `Up ${formatTzs(toCents(d.change_vs_yesterday))}${pct} on yesterday.`
      : d.change_vs_yesterday < 0
        ? `Down ${formatTzs(toCents(-d.change_vs_yesterday))}${pct} on yesterday.`
        : 'The same as yesterday.';
  return `Sales today (${d.date}): ${count(d.sales_count)} ${d.sales_count === 1 ? 'sale' : 'sales'} totalling ${formatTzs(toCents(d.revenue))}. Yesterday (${d.yesterday.date}): ${count(d.yesterday.sales_count)} ${d.yesterday.sales_count === 1 ? 'sale' : 'sales'}, ${formatTzs(toCents(d.yesterday.revenue))}. ${trend}`;
}

function lowStockText(d: LowStock, lang: AiLanguage): string {
  if (d.count === 0)
    return lang === 'sw'
      ? 'Hakuna bidhaa inayokaribia kuisha: zote ziko juu ya kiwango cha kuagiza upya.'
      : 'No product is at or below its reorder point.';
  const lines = d.products
    .slice(0, LIST_MAX)
    .map((p) =>
      lang === 'sw'
        ? `- ${p.name}: zimebaki ${amount(p.stock, p.unit)} (agiza upya ikifika ${amount(p.reorder_point, p.unit)})`
        : `- ${p.name}: ${amount(p.stock, p.unit)} left (reorder at ${amount(p.reorder_point, p.unit)})`,
    );
  const head =
    lang === 'sw'
      ? `Bidhaa ${count(d.count)} zinakaribia kuisha (kwenye au chini ya kiwango cha kuagiza upya):`
      : `${count(d.count)} ${d.count === 1 ? 'product is' : 'products are'} at or below the reorder point:`;
  return [head, ...lines, ...more(d.count, lang)].join('\n');
}

function topText(d: BestSellers, lang: AiLanguage): string {
  if (!d.allowed)
    return lang === 'sw'
      ? 'Mmiliki wa duka au mfanyakazi mwenye ruhusa ya kuona ripoti pekee ndiye anayeweza kuona bidhaa zinazouzwa zaidi.'
      : 'Only the shop owner or staff allowed to view reports can see the top products.';
  if (d.products.length === 0)
    return lang === 'sw'
      ? `Hakuna mauzo ya bidhaa kati ya ${d.date_from} na ${d.date_to}.`
      : `No products were sold from ${d.date_from} to ${d.date_to}.`;
  const lines = d.products.map((p, i) =>
    lang === 'sw'
      ? `${i + 1}. ${p.name}: zimeuzwa ${amount(p.qty_sold, p.unit)}, ${formatTzs(toCents(p.revenue))}`
      : `${i + 1}. ${p.name}: ${amount(p.qty_sold, p.unit)} sold, ${formatTzs(toCents(p.revenue))}`,
  );
  const head =
    lang === 'sw'
      ? `Bidhaa zinazouzwa zaidi, siku ${TOP_DAYS} zilizopita (${d.date_from} hadi ${d.date_to}):`
      : `Top products, last ${TOP_DAYS} days (${d.date_from} to ${d.date_to}):`;
  return [head, ...lines].join('\n');
}

function debtsText(d: CustomerDebts, lang: AiLanguage): string {
  if (d.customers_count === 0) return lang === 'sw' ? 'Hakuna mteja anayedaiwa.' : 'No customer owes you money.';
  const lines = d.customers.slice(0, LIST_MAX).map((c) => {
    const due = c.oldest_due_date;
    if (lang === 'sw')
      return `- ${c.name}: ${formatTzs(toCents(c.outstanding))}${due ? (c.overdue ? `, amechelewa (ilitakiwa ${due})` : `, mwisho ${due}`) : ''}`;
    return `- ${c.name}: ${formatTzs(toCents(c.outstanding))}${due ? (c.overdue ? `, overdue (due ${due})` : `, due ${due}`) : ''}`;
  });
  const head =
    lang === 'sw'
      ? `Wateja ${count(d.customers_count)} wanadaiwa jumla ya ${formatTzs(toCents(d.total_outstanding))} (${count(d.overdue_customers)} wamechelewa kulipa):`
      : `${count(d.customers_count)} ${d.customers_count === 1 ? 'customer owes' : 'customers owe'} you ${formatTzs(toCents(d.total_outstanding))} in total (${count(d.overdue_customers)} overdue):`;
  return [head, ...lines, ...more(d.customers_count, lang)].join('\n');
}

interface Tool<T> {
  description: string;
  run(ctx: AuthedContext): Promise<T>;
  text(data: T, lang: AiLanguage): string;
}
const tool = <T>(t: Tool<T>) => t as Tool<unknown>;

export const TOOLS: Record<ToolName, Tool<unknown>> = {
  get_sales_today: tool({
    description: "Today's sales of the active store (count, revenue in TZS) compared with yesterday",
    run: salesToday,
    text: salesText,
  }),
  get_low_stock: tool({
    description: 'Products of the active store at or below their reorder point, emptiest first',
    run: lowStock,
    text: lowStockText,
  }),
  get_top_products: tool({
    description: `Best-selling products of the active store over the last ${TOP_DAYS} days, by revenue`,
    run: bestSellers,
    text: topText,
  }),
  get_customer_debts: tool({
    description: 'Customers who owe the shop money (credit sales not yet paid), overdue first, with amounts in TZS',
    run: customerDebts,
    text: debtsText,
  }),
  get_reorder_suggestions: tool(STOCK_TOOLS.get_reorder_suggestions),
  get_open_purchase_orders: tool(STOCK_TOOLS.get_open_purchase_orders),
  get_stock_takes: tool(STOCK_TOOLS.get_stock_takes),
};

export const isToolName = (name: string): name is ToolName => Object.hasOwn(TOOLS, name);

/** The tools as OpenAI function tools (none takes arguments: the scope comes from the token). */
export const FUNCTION_TOOLS = Object.entries(TOOLS).map(([name, t]) => ({
  type: 'function' as const,
  function: { name, description: t.description, parameters: { type: 'object', properties: {}, additionalProperties: false } },
}));
