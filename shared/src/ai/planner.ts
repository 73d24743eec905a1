/**
 * The keyword planner: what a shop's question asks, read without a model, in English and Swahili.
 * One planner for the server's assistant without a gateway key (server/src/modules/ai/services/
 * local-answerer.ts) and the companion agent without a model (agent/src/planner/planner.ts): it
 * says what was asked (intents with their period, product, amount and threshold, and the
 * question's language); each side answers the plan with its own tools. Pure functions over the
 * text, so they are tested without any server (planner.test.ts) and a browser may use them.
 *
 * Where the two planners it replaces disagreed, a shop owner's reading wins:
 * - "stock" with no product named is the low-stock report ("Stock?", "Stoku iko vipi?", "inventory");
 *   with a product named it is that product ("stock of sugar", "How many sugar do I have in stock?",
 *   "Stoku ya sukari", "Sukari iliyobaki"), and then not the report as well. Words that only say
 *   "low" ("running out", "zinaisha", "below the reorder point") are always the report.
 * - "What should I order / reorder?", "Nini niagize?" are the reorder suggestions (issue 52), not
 *   the low-stock report: the suggestions hold every product at its reorder point, with how much.
 * - "Orders still owed" is the open purchase orders, not also who owes the shop ("owed" alone).
 * - Best sellers answer the question on their own: "most sold", "bidhaa zinazouzwa zaidi" and
 *   "what sold best" are not also today's sales (the server answered both).
 * - "Overdue" is its own intent, the credit that is late ("Which tabs are overdue?", "Madeni gani
 *   yamechelewa?"), not also everyone who owes (the server read it as who owes).
 * - A question naming two periods ("today compared with yesterday") is about the first one named.
 */
import { z } from 'zod';
import type { AiLanguage } from './ai.schemas.js';
import { languageOf } from './language.js';
import { addDays } from '../time.js';

/** What a question can ask, in the order several in one question are answered. */
export const AiIntent = z.enum([
  'price_change',
  'product',
  'sales',
  'top_products',
  'low_stock',
  'reorder',
  'purchase_orders',
  'stock_takes',
  'overdue',
  'debts',
  'expenses',
  'cashflow',
]);
export type AiIntent = z.infer<typeof AiIntent>;

/** A span of local days: `last7` is the default of best sellers (today and the 6 days before). */
export const AiPeriod = z.enum(['today', 'yesterday', 'week', 'month', 'last7']);
export type AiPeriod = z.infer<typeof AiPeriod>;

export interface AiPlan {
  intent: AiIntent;
  /** The period the question names, if any; each intent has its own default. */
  period?: AiPeriod;
  /** The product named (`product`, `price_change`), lower case, as written. */
  product?: string;
  /** The new selling price in TZS (`price_change`). */
  amount?: number;
  /** "more than 50,000": only amounts above it (`debts`). */
  threshold?: number;
}

export interface AiQuestionPlan {
  language: AiLanguage;
  /** Empty: the question asks nothing the planner knows (answer with the list of what it can). */
  plans: AiPlan[];
}

/** The last answer's intent and product, for a follow-up ("and yesterday?", "na mchele?"). */
export interface AiLastPlan {
  intent?: string | undefined;
  product?: string | undefined;
}

/** The intents found by their words. `low_stock` is also found by the general stock words below. */
const INTENTS: Array<[Exclude<AiIntent, 'price_change' | 'product'>, RegExp]> = [
  ['sales', /\b(sales?|sell|sold|revenue|takings|turnover|mauzo|mapato|nimeuza|tumeuza|umeuza|tuliuza|niliuza)\b/],
  [
    'top_products',
    /\b(top|best|best[- ]?sell(?:ers?|ing)|bestsellers?|popular|most sold|sold most|selling most|zinazouzwa|zinazouza|zinauzwa|inayouzwa|maarufu|bora)\b/,
  ],
  [
    'low_stock',
    /\b(low (?:in |on )?stock|running (?:low|out)|run(?:ning)? out|out of stock|(?:at|below|under) (?:the |their |its )?reorder (?:point|level)|zinazoisha|zinaisha|zimeisha|inayoisha|zinakwisha|kuisha|kwisha)\b/,
  ],
  [
    'reorder',
    /\b(reorder(?! (?:point|level))\w*|restock\w*|(?:should|must|shall|need to|to) (?:i |we )?order|order suggestions?|suggested orders?|niagize|tuagize|niziagize|kuagiza|za kuagiza|agiza upya)\b/,
  ],
  [
    'purchase_orders',
    /\b(purchase orders?|orders? (?:(?:are|is) )?(?:still )?(?:owed|open|outstanding|pending|not (?:yet )?(?:received|delivered|arrived))|(?:open|pending|outstanding|supplier|my|our|the) orders|on order|oda|maagizo|hazijafika|hazijaletwa|haijafika)\b/,
  ],
  [
    'stock_takes',
    /\b(stock ?takes?|stock ?taking|stock ?counts?|inventory counts?|physical counts?|(?:last|latest|recent) counts?|shrinkage|variances?|hesabu ya (?:stoku|stoo|bidhaa|mali)|kuhesabu stoku|tulihesabu|tulipohesabu|upotevu|upungufu)\b/,
  ],
  ['overdue', /\b(overdue|past due|late pay\w*|wamechelewa|zilizochelewa|yaliyochelewa|yamechelewa|imechelewa|kuchelewa)\b/],
  [
    'debts',
    /\b(owe|owes|owing|owed|debts?|debtors?|credit|credits|deni|madeni|wanaodaiwa|wadaiwa|anadaiwa|wanadaiwa|wanaodai|mkopo|mikopo|wamekopa|walikopa)\b/,
  ],
  ['expenses', /\b(expenses?|spent|spending|matumizi|gharama)\b/],
  ['cashflow', /\b(cash ?flow|money in|money out|net cash|mtiririko|pesa iliyoingia|pesa zilizoingia)\b/],
];

const DEBTS = INTENTS.find(([intent]) => intent === 'debts')![1];

/** "Stock" in general: the low-stock report when no product is named, that product's stock when one is. */
const STOCK_WORDS = /\b(stocks?|inventory|stoku|stoo|akiba)\b/;

const PERIODS: Array<[Exclude<AiPeriod, 'last7'>, RegExp]> = [
  ['yesterday', /\b(yesterday|jana)\b/],
  ['week', /\b(this week|week|wiki)\b/],
  ['month', /\b(this month|month|mwezi)\b/],
  ['today', /\b(today|leo)\b/],
];

/** "3,200", "3200.50", "50,000" and "50k" as shillings; anything else undefined. */
export function parseAmount(text: string): number | undefined {
  const m = /^([\d][\d,]*(?:\.\d{1,2})?)\s*(k)?$/i.exec(text.trim());
  if (!m) return undefined;
  const n = Number(m[1]!.replace(/,/g, ''));
  if (!Number.isFinite(n)) return undefined;
  return m[2] ? n * 1000 : n;
}

const AMOUNT = String.raw`(?:tzs|tsh|sh)?\s*([\d][\d,]*(?:\.\d{1,2})?\s*k?)\b`;
const PRICE_CHANGE = [
  new RegExp(String.raw`\b(?:put|set|change|make|price)\s+(?:the price of\s+)?(.+?)\s+(?:at|to)\s+${AMOUNT}`),
  new RegExp(String.raw`\b(?:weka|badilisha)?\s*bei ya\s+(.+?)\s+(?:iwe|kuwa|ibadilishwe kuwa)\s+${AMOUNT}`),
  new RegExp(String.raw`\bweka\s+(.+?)\s+(?:kwa|bei)\s+${AMOUNT}`),
];
const THRESHOLD = new RegExp(String.raw`\b(?:more than|over|above|at least|zaidi ya|juu ya)\s+${AMOUNT}`);

/** Ways of naming one product: its price, its stock, how many are left. The first is read on the question without its tail. */
const PRODUCT = [
  /\b(?:price|prices|stock|inventory|bei|stoku|idadi|akiba)\s+(?:of|for|ya)\s+(.+?)(?:\s+(?:left|now|today|sasa|leo|is|are|ni|do i have|do we have|in stock|iko|zipo))*\s*\??$/,
  /\bhow much (?:is|are|does)\s+(.+?)(?:\s+cost)?\s*\??$/,
  /\bhow (?:many|much)\s+(.+?)\s+(?:do i have|do we have|have i got|are left|is left|left|in stock|is|does|costs?)\b/,
  /^(.+?)\s+(?:zimebaki|imebaki|zipo|ziko|iko)\s+(?:ngapi|kiasi gani)/,
  /^(?:je\s+)?(.+?)\s+(?:iliyobaki|zilizobaki|iliyopo|zilizopo)\b/,
  /^(?:je\s+)?(.+?)\s+(?:ni bei gani|inauzwa (?:bei gani|shilingi ngapi|kiasi gani))/,
];

/** Trailing "… ni kiasi gani?", "… is?", "… now?" that are the question, not the product's name. */
const stripTail = (s: string) =>
  s
    .replace(/\s*\?+\s*$/, '')
    .replace(/\s+(?:(?:ni|iko|ipo|zipo|ziko)\s+)?(?:kiasi gani|bei gani|shilingi ngapi|ngapi|sasa|leo|now|today|please|tafadhali)$/, '')
    .trim();

const clean = (s: string) =>
  s
    .replace(/\b(the|my|our|a|an|bidhaa ya)\b/g, ' ')
    .replace(/["'“”?.!,]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();

/** Words that are a question's topic, never a product's name ("bei ya mauzo", "how much stock"). */
const isTopicWords = (words: string) =>
  /\b(products|bidhaa)\b/.test(words) ||
  STOCK_WORDS.test(words) ||
  INTENTS.some(([, re]) => re.test(words)) ||
  PERIODS.some(([, re]) => re.test(words));

/** The first period the question names. */
function periodOf(text: string): AiPeriod | undefined {
  let first: { period: AiPeriod; at: number } | undefined;
  for (const [period, re] of PERIODS) {
    const at = text.search(re);
    if (at >= 0 && (!first || at < first.at)) first = { period, at };
  }
  return first?.period;
}

function productOf(text: string): string | undefined {
  const bare = stripTail(text);
  for (const re of PRODUCT) {
    const m = re.exec(re === PRODUCT[0] ? bare : text);
    const name = m ? clean(m[1]!) : '';
    if (name && !isTopicWords(m![1]!)) return name;
  }
  return undefined;
}

/** The question's own plans, without any earlier answer. */
function plansOf(text: string): AiPlan[] {
  for (const re of PRICE_CHANGE) {
    const m = re.exec(text);
    const amount = m ? parseAmount(m[2]!) : undefined;
    const product = m ? clean(m[1]!) : '';
    // A price change is the whole question: a write is never read alongside anything else.
    if (amount !== undefined && product) return [{ intent: 'price_change', product, amount }];
  }
  const found = new Set(INTENTS.filter(([, re]) => re.test(text)).map(([intent]) => intent));
  // A count's words ("hesabu ya stoku ya mwisho") are about the count, never one product's stock.
  const product = found.has('stock_takes') ? undefined : productOf(text);
  const period = periodOf(text);
  if (!product && !found.has('stock_takes') && STOCK_WORDS.test(text)) found.add('low_stock');
  if (found.has('top_products')) found.delete('sales');
  if (found.has('overdue')) found.delete('debts');
  // "Orders still owed" is what suppliers owe the shop: "owed" there is not who owes the shop money.
  if (found.has('purchase_orders') && !DEBTS.test(text.replace(/\b(?:owed|owing)\b/g, ''))) found.delete('debts');

  const plans: AiPlan[] = product ? [{ intent: 'product', product }] : [];
  for (const [intent] of INTENTS) {
    if (!found.has(intent)) continue;
    const plan: AiPlan = { intent, ...(period ? { period } : {}) };
    if (intent === 'debts') {
      const m = THRESHOLD.exec(text);
      const threshold = m ? parseAmount(m[1]!) : undefined;
      if (threshold !== undefined) plan.threshold = threshold;
    }
    plans.push(plan);
  }
  return plans;
}

/**
 * A follow-up with no intent of its own ("and yesterday?", "na wiki hii?", "what about rice?")
 * takes the last answer's intent, with its own period or product. Never a price change: a write
 * is asked for in words each time.
 */
function followUpOf(text: string, last: AiLastPlan | undefined): AiPlan[] {
  const intent = AiIntent.safeParse(last?.intent);
  if (!intent.success || intent.data === 'price_change') return [];
  const period = periodOf(text);
  if (period) return [{ intent: intent.data, period, ...(last?.product ? { product: last.product } : {}) }];
  if (intent.data === 'product') {
    const product = clean(
      text.replace(/^(and|what about|how about|na|je|vipi|na je)\b/g, ' ').replace(/\b(and|what about|how about|na|je|vipi)\b/g, ' '),
    );
    if (product) return [{ intent: 'product', product }];
  }
  return [];
}

/**
 * What a question asks: its language and its plans, in the order to answer them. With `last` (the
 * previous answer's intent and product), a question that asks nothing of its own is a follow-up.
 */
export function planQuestion(question: string, last?: AiLastPlan): AiQuestionPlan {
  const text = question.toLowerCase().replace(/\s+/g, ' ').trim();
  const own = plansOf(text);
  return { language: languageOf(question), plans: own.length ? own : followUpOf(text, last) };
}

/** The local dates (YYYY-MM-DD, both included) a period covers up to `today`: a week starts on Monday, a month on the 1st. */
export function periodRange(period: AiPeriod, today: string): { from: string; to: string } {
  switch (period) {
    case 'today':
      return { from: today, to: today };
    case 'yesterday':
      return { from: addDays(today, -1), to: addDays(today, -1) };
    case 'week': {
      const weekday = (new Date(`${today}T00:00:00Z`).getUTCDay() + 6) % 7; // Monday 0
      return { from: addDays(today, -weekday), to: today };
    }
    case 'month':
      return { from: `${today.slice(0, 8)}01`, to: today };
    case 'last7':
      return { from: addDays(today, -6), to: today };
  }
}
