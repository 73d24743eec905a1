/**
 * What the built-in planner understands: a question's topics (keywords in English and Swahili),
 * the period it asks about, a product it names, an amount threshold, and a price to set. Pure
 * functions over the text, so they are tested without any server.
 */
export type Topic = 'price_change' | 'product' | 'sales' | 'top' | 'low_stock' | 'overdue' | 'debts' | 'expenses' | 'cashflow';
export type Period = 'today' | 'yesterday' | 'week' | 'month' | 'last7';

export interface Plan {
  topic: Topic;
  period?: Period;
  subject?: string;
  amount?: number;
  threshold?: number;
}

const TOPICS: Array<[Topic, RegExp]> = [
  ['top', /\b(top|best|best[- ]?sell(?:ers?|ing)|popular|most sold|selling most|zinazouzwa|zinauzwa|inayouzwa|zinazouza|maarufu)\b/],
  ['sales', /\b(sales?|sell|revenue|takings|turnover|mauzo|mapato|nimeuza|tumeuza|umeuza|niliuza)\b/],
  [
    'low_stock',
    /\b(low (?:in |on )?stock|running (?:low|out)|run(?:ning)? out|out of stock|restock|reorder|zinazoisha|zinaisha|zimeisha|inayoisha|zinakwisha|kuisha)\b/,
  ],
  ['overdue', /\b(overdue|past due|late pay\w*|wamechelewa|zilizochelewa|yaliyochelewa|yamechelewa|imechelewa|kuchelewa)\b/],
  ['debts', /\b(owe|owes|owing|owed|debts?|debtors?|deni|madeni|wanaodaiwa|wanadaiwa|anadaiwa|wadaiwa)\b/],
  ['expenses', /\b(expenses?|spent|spending|matumizi|gharama)\b/],
  ['cashflow', /\b(cash ?flow|money in|money out|net cash|mtiririko|pesa iliyoingia|pesa zilizoingia)\b/],
];

const PERIODS: Array<[Period, RegExp]> = [
  ['yesterday', /\b(yesterday|jana)\b/],
  ['week', /\b(this week|week|wiki)\b/],
  ['month', /\b(this month|month|mwezi)\b/],
  ['today', /\b(today|leo)\b/],
];

/** "3,200", "3200.50", "50,000" and "50k" as shillings. */
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
const PRODUCT = [
  /\b(?:price|prices|stock|bei|stoku|idadi)\s+(?:of|for|ya)\s+(.+?)(?:\s+(?:left|now|today|sasa|leo|is|ni|do i have|iko|zipo))?\s*\??$/,
  /\bhow much (?:is|are|does)\s+(.+?)(?:\s+cost)?\s*\??$/,
  /\bhow (?:many|much)\s+(.+?)\s+(?:do i have|do we have|have i got|are left|is left|left|in stock|is|does|costs?)\b/,
  /^(.+?)\s+(?:zimebaki|imebaki|zipo|ziko|iko)\s+(?:ngapi|kiasi gani)/,
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

export function periodOf(text: string): Period | undefined {
  const t = text.toLowerCase();
  return PERIODS.find(([, re]) => re.test(t))?.[0];
}

export function plansOf(question: string): Plan[] {
  const text = question.toLowerCase().replace(/\s+/g, ' ').trim();
  for (const re of PRICE_CHANGE) {
    const m = re.exec(text);
    const amount = m ? parseAmount(m[2]!) : undefined;
    if (m && amount !== undefined && clean(m[1]!)) return [{ topic: 'price_change', subject: clean(m[1]!), amount }];
  }
  const plans: Plan[] = [];
  const bare = stripTail(text);
  for (const re of PRODUCT) {
    const m = re.exec(re === PRODUCT[0] ? bare : text);
    // "price of …" names a product only when the words are not themselves a topic ("bei ya mauzo").
    if (m && clean(m[1]!) && !/\b(products|bidhaa)\b/.test(m[1]!) && !TOPICS.some(([, t]) => t.test(m[1]!))) {
      plans.push({ topic: 'product', subject: clean(m[1]!) });
      break;
    }
  }
  const period = periodOf(text);
  let topics = TOPICS.filter(([, re]) => re.test(text)).map(([t]) => t);
  if (topics.includes('top')) topics = topics.filter((t) => t !== 'sales');
  if (topics.includes('overdue')) topics = topics.filter((t) => t !== 'debts');
  for (const topic of topics) {
    const plan: Plan = { topic, ...(period ? { period } : {}) };
    if (topic === 'debts') {
      const m = THRESHOLD.exec(text);
      const threshold = m ? parseAmount(m[1]!) : undefined;
      if (threshold !== undefined) plan.threshold = threshold;
    }
    plans.push(plan);
  }
  return plans;
}

/**
 * A follow-up with no topic of its own ("and yesterday?", "na wiki hii?", "what about rice?")
 * takes the last answer's topic, with its own period or product.
 */
export function followUp(question: string, last: { topic?: string; subject?: string } | undefined): Plan[] {
  if (!last?.topic || last.topic === 'price_change') return [];
  const period = periodOf(question);
  if (period) return [{ topic: last.topic as Topic, period, ...(last.subject ? { subject: last.subject } : {}) }];
  if (last.topic === 'product') {
    const subject = clean(
      question
        .toLowerCase()
        .replace(/^(and|what about|how about|na|je|vipi|na je)\b/g, ' ')
        .replace(/\b(and|what about|how about|na|je|vipi)\b/g, ' '),
    );
    if (subject) return [{ topic: 'product', subject }];
  }
  return [];
}
