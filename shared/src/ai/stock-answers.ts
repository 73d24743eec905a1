/**
 * Issue 52: the answers to "what should I order", "which orders are still owed" and "the last
 * stock count's variance", worded once for the server's assistant and the companion agent (as
 * product-answer.ts is): each fetches the REST answers with its own tools (the server through the
 * services behind the routes, the agent over HTTP) and both word them here, in English or Swahili.
 * No figure is worked out here: every quantity and amount is the API's, as it answered it.
 */
import type { ReorderSuggestions } from '../inventory/reorder.schemas.js';
import type { StockTake, StockTakeSummary } from '../inventory/stock-takes.schemas.js';
import { toCount, type Unit } from '../inventory/units.js';
import { formatTzs, toCents } from '../money.js';
import type { PurchaseOrder } from '../suppliers/purchase-orders.schemas.js';
import { localDate } from '../time.js';
import type { AiLanguage } from './ai.schemas.js';

/** How many lines a listing names before "and N more". */
const LIST_MAX = 10;
/** How many past stock-takes the answer names. */
export const STOCK_TAKES_NAMED = 3;
/** The orders a supplier still owes something on. */
export const OWED_STATUSES = ['sent', 'partly_received'] as const;

const n = (v: number) => v.toLocaleString('en-US');
const tzs = (v: number) => formatTzs(toCents(v));
/** A quantity in its product's unit: `12` (pieces) or `11.75 kg`. */
const q = (v: number, unit: Unit) => (unit === 'piece' ? n(v) : `${n(v)} ${unit}`);
const more = (rest: number, lang: AiLanguage) => (rest > 0 ? [lang === 'sw' ? `… na ${n(rest)} zaidi` : `… and ${n(rest)} more`] : []);

export function reorderAnswer(d: ReorderSuggestions, lang: AiLanguage): string {
  const total = d.groups.reduce((s, g) => s + g.suggestions.length, 0);
  if (total === 0)
    return lang === 'sw'
      ? `Hakuna cha kuagiza: hakuna bidhaa iliyofikia kiwango cha kuagiza upya au itakayoisha kabla mzigo haujafika (mauzo ya siku ${d.window_days} zilizopita).`
      : `Nothing to order: no product is at its reorder point or runs out within its supplier's lead time (sales of the last ${d.window_days} days).`;
  const lines: string[] = [
    lang === 'sw'
      ? `Agiza bidhaa ${n(total)} (mauzo ya siku ${d.window_days} zilizopita, akiba ya siku ${d.cover_days}):`
      : `Order ${n(total)} ${total === 1 ? 'product' : 'products'} (sales of the last ${d.window_days} days, ${d.cover_days} days of cover):`,
  ];
  let named = 0;
  for (const g of d.groups) {
    if (named >= LIST_MAX) break;
    const supplier = g.supplier_name ?? (lang === 'sw' ? 'Msambazaji hajulikani' : 'Supplier unknown');
    lines.push(
      lang === 'sw' ? `${supplier} (huleta baada ya siku ${g.lead_time_days}):` : `${supplier} (lead time ${g.lead_time_days} days):`,
    );
    for (const s of g.suggestions.slice(0, LIST_MAX - named)) {
      named++;
      const what = s.pack
        ? lang === 'sw'
          ? `${s.pack.name} ${n(s.pack.packs)} (${q(s.suggested, s.unit)})`
          : `${n(s.pack.packs)} × ${s.pack.name} (${q(s.suggested, s.unit)})`
        : q(s.suggested, s.unit);
      const onOrder =
        s.on_order > 0 ? (lang === 'sw' ? `, zimeagizwa ${q(s.on_order, s.unit)}` : `, ${q(s.on_order, s.unit)} on order`) : '';
      const left = s.days_left === null ? '' : lang === 'sw' ? `, zinatosha siku ${n(s.days_left)}` : `, ${n(s.days_left)} days left`;
      lines.push(
        lang === 'sw'
          ? `- ${s.name}: ${what}; stoku ${q(s.stock, s.unit)}${onOrder}${left}`
          : `- ${s.name}: ${what}; ${q(s.stock, s.unit)} in stock${onOrder}${left}`,
      );
    }
  }
  return [...lines, ...more(total - named, lang)].join('\n');
}

/** What is still owed on a line, as the order was written: whole packs when it was by the pack and they are whole. */
function owedText(l: PurchaseOrder['lines'][number]): string {
  if (l.pack) {
    const packCounts = toCount(l.pack.units, l.unit);
    const owedCounts = toCount(l.owed, l.unit);
    if (owedCounts % packCounts === 0) return `${n(owedCounts / packCounts)} × ${l.pack.name} ${l.product_name}`;
  }
  return `${q(l.owed, l.unit)} ${l.product_name}`;
}

/** The orders waiting for delivery (sent or partly received; others are left out), newest first, and what each still owes. */
export function purchaseOrdersAnswer(orders: PurchaseOrder[], lang: AiLanguage): string {
  const open = orders
    .filter((o) => (OWED_STATUSES as readonly string[]).includes(o.status))
    .sort((a, b) => b.created_at.localeCompare(a.created_at));
  if (!open.length)
    return lang === 'sw' ? 'Hakuna oda inayosubiri mzigo kutoka kwa msambazaji.' : 'No purchase order is waiting for delivery.';
  const lines = open.slice(0, LIST_MAX).map((o) => {
    const owed = o.lines
      .filter((l) => l.owed > 0)
      .map(owedText)
      .join(', ');
    if (lang === 'sw')
      return `- ${o.reference}, ${o.supplier_name} (${o.status === 'sent' ? 'imetumwa' : 'imepokelewa sehemu'}): bado ${owed}`;
    return `- ${o.reference}, ${o.supplier_name} (${o.status === 'sent' ? 'sent' : 'partly received'}): still owed ${owed}`;
  });
  const head =
    lang === 'sw'
      ? `Oda ${n(open.length)} zinasubiri mzigo:`
      : `${n(open.length)} purchase ${open.length === 1 ? 'order is' : 'orders are'} waiting for delivery:`;
  return [head, ...lines, ...more(open.length - LIST_MAX, lang)].join('\n');
}

/**
 * The last counts (cancelled ones left out) with their totals, newest first, and the products
 * whose count differed in the newest (`latest`, its review), the largest difference at cost first.
 */
export function stockTakesAnswer(takes: StockTakeSummary[], latest: StockTake | null, lang: AiLanguage, timeZone: string): string {
  const shown = takes.filter((t) => t.status !== 'cancelled').slice(0, STOCK_TAKES_NAMED);
  if (!shown.length)
    return lang === 'sw' ? 'Bado hakuna hesabu ya stoku iliyofanyika katika duka hili.' : 'No stock-take has been made in this store yet.';
  const day = (iso: string) => localDate(Date.parse(iso), timeZone);
  const lines = shown.map((t) => {
    const x = t.totals;
    if (lang === 'sw')
      return `- ${day(t.opened_at)}, ${t.status === 'open' ? 'inaendelea' : 'imekamilika'}: bidhaa ${n(x.counted)} kati ya ${n(x.products)} zimehesabiwa, ${n(x.over)} zimezidi, ${n(x.short)} zimepungua, tofauti ${tzs(x.variance_value)} kwa bei ya kununulia`;
    return `- ${day(t.opened_at)}, ${t.status}: ${n(x.counted)} of ${n(x.products)} products counted, ${n(x.over)} over, ${n(x.short)} short, variance ${tzs(x.variance_value)} at cost`;
  });
  const one = shown.length === 1;
  const head =
    lang === 'sw'
      ? one
        ? 'Hesabu ya mwisho ya stoku:'
        : `Hesabu ${n(shown.length)} za mwisho za stoku:`
      : one
        ? 'The last stock-take:'
        : `The last ${n(shown.length)} stock-takes:`;
  const differing = (latest?.id === shown[0]!.id ? latest.lines : [])
    .filter((l) => l.variance !== null && l.variance !== 0)
    .sort((a, b) => Math.abs(b.variance_value ?? 0) - Math.abs(a.variance_value ?? 0) || a.name.localeCompare(b.name));
  if (!differing.length) return [head, ...lines].join('\n');
  const diff = differing.slice(0, LIST_MAX).map((l) => {
    const v = l.variance!;
    if (lang === 'sw') return `- ${l.name}: ${v < 0 ? 'pungufu' : 'ziada'} ${q(Math.abs(v), l.unit)} (${tzs(l.variance_value ?? 0)})`;
    return `- ${l.name}: ${q(Math.abs(v), l.unit)} ${v < 0 ? 'short' : 'over'} (${tzs(l.variance_value ?? 0)})`;
  });
  const when = day(shown[0]!.opened_at);
  return [
    head,
    ...lines,
    lang === 'sw' ? `Tofauti katika hesabu ya mwisho (${when}):` : `Differences in the latest (${when}):`,
    ...diff,
    ...more(differing.length - LIST_MAX, lang),
  ].join('\n');
}
