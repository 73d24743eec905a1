/**
 * The built-in planner: the agent's answers when no model is configured. The shared keyword
 * planner (`planQuestion` in @duka/shared, the same one the server's assistant uses) reads the
 * question; each intent is answered here with the same tools a model would call, within the same
 * budget, and never with a figure it did not read from the API; a question it cannot read gets the
 * list of what it can answer.
 */
import { type AiIntent, type AiPlan, planQuestion, productAnswer } from '@duka/shared';
import type { Language } from '../schemas.js';
import type { ToolOutcome } from '../tools/runner.js';
import { Budgeted, type LoopInput, type LoopResult } from '../ask/types.js';
import { type AnswerContext, findProducts, INTENT_ANSWERS, NoData } from './answers.js';
import { localDate } from './dates.js';

const HELP: Record<Language, string> = {
  en: [
    "I answer from your shop's own records. Ask me about:",
    '- sales today, yesterday, this week or this month ("How much did I sell today?")',
    '- best sellers ("What are my best sellers this week?")',
    '- products running low ("Which products are low in stock?")',
    '- the stock and price of a product ("How many sugar 1 kg do I have?")',
    '- who owes you money, and how much ("Who owes me more than 50,000?")',
    '- overdue credit ("Which tabs are overdue?")',
    '- what to order, by supplier ("What should I order?")',
    '- purchase orders still owed by suppliers ("Which orders are still owed?")',
    '- the last stock-takes and their variance ("Last stock count variance")',
    '- expenses this month, and the cash flow ("What is my cash flow this month?")',
    '- a new price, done when you confirm ("Put sugar 1 kg at 3,200")',
  ].join('\n'),
  sw: [
    'Ninajibu kutokana na kumbukumbu za duka lako. Niulize kuhusu:',
    '- mauzo ya leo, jana, wiki hii au mwezi huu ("Mauzo ya wiki hii ni kiasi gani?")',
    '- bidhaa zinazouzwa zaidi ("Bidhaa zipi zinauzwa zaidi?")',
    '- bidhaa zinazoisha ("Bidhaa zipi zinaisha?")',
    '- stoku na bei ya bidhaa ("Bei ya sukari 1 kg ni kiasi gani?")',
    '- nani anadaiwa na kiasi gani ("Nani anadaiwa zaidi ya 50,000?")',
    '- madeni yaliyochelewa ("Madeni gani yamechelewa?")',
    '- cha kuagiza, kwa kila msambazaji ("Nini niagize?")',
    '- oda ambazo wasambazaji bado hawajaleta ("Oda zipi bado hazijafika?")',
    '- hesabu za mwisho za stoku na tofauti zake ("Hesabu ya stoku ya mwisho?")',
    '- matumizi ya mwezi huu na mtiririko wa fedha',
    '- bei mpya, itabadilishwa ukithibitisha ("Weka bei ya sukari 1 kg iwe 3,200")',
  ].join('\n'),
};

const INTENT_NAMES: Record<AiIntent, [string, string]> = {
  sales: ['the sales', 'mauzo'],
  top_products: ['the best sellers', 'bidhaa zinazouzwa zaidi'],
  low_stock: ['the stock', 'stoku'],
  reorder: ['what to order', 'cha kuagiza'],
  purchase_orders: ['the purchase orders', 'oda za wasambazaji'],
  stock_takes: ['the stock-takes', 'hesabu za stoku'],
  product: ['the products', 'bidhaa'],
  debts: ['who owes money', 'wanaodaiwa'],
  overdue: ['the overdue tabs', 'madeni yaliyochelewa'],
  expenses: ['the expenses', 'matumizi'],
  cashflow: ['the cash flow', 'mtiririko wa fedha'],
  price_change: ['the product', 'bidhaa'],
};

function noDataText(outcome: ToolOutcome | null, intent: AiIntent, lang: Language): string {
  const [en, sw] = INTENT_NAMES[intent];
  if (!outcome)
    return lang === 'sw'
      ? `Sikuweza kuangalia ${sw}: nimefikia kikomo cha zana kwa swali hili.`
      : `I could not look up ${en}: the tool budget for this question is used up.`;
  if (outcome.record.status === 'forbidden')
    return lang === 'sw'
      ? `Huna ruhusa ya kuona ${sw}: ni kwa mmiliki wa duka au anayeruhusiwa tu.`
      : `You are not allowed to see ${en}: the shop's records allow this to the owner, or to staff with that permission, only.`;
  const reason = String(outcome.forModel.error ?? '');
  return lang === 'sw' ? `Sikuweza kupata ${sw}${reason ? `: ${reason}` : ''}.` : `I could not get ${en}${reason ? `: ${reason}` : ''}.`;
}

async function priceChange(ctx: AnswerContext, plan: AiPlan, budget: Budgeted): Promise<string> {
  const rows = await findProducts(ctx, plan.product!);
  if (!rows.length) return productAnswer(rows, plan.product!, ctx.lang);
  if (rows.length > 1) {
    const names = rows
      .slice(0, 5)
      .map((p) => p.name)
      .join(', ');
    return ctx.lang === 'sw'
      ? `Bidhaa kadhaa zinalingana na "${plan.product}": ${names}. Taja moja.`
      : `Several products match "${plan.product}": ${names}. Say which one.`;
  }
  const out = await ctx.call('updateProduct', { id: rows[0].id, selling_price: plan.amount });
  if (!out || !budget.pending) throw new NoData(out);
  const summary = budget.pending.summary;
  return ctx.lang === 'sw'
    ? `Ili kuthibitisha: ${summary}. Hakuna kitakachobadilika mpaka uthibitishe.`
    : `To confirm: ${summary}. Nothing changes until you confirm.`;
}

export async function runPlanner(input: LoopInput): Promise<LoopResult> {
  const lang = input.language;
  // The conversation keeps the last answer's intent and product as its `topic` and `subject`.
  const last = input.history.at(-1);
  const { plans } = planQuestion(input.question, last && { intent: last.topic, product: last.subject });
  const budget = new Budgeted(input);
  const result = (answer: string, answered?: AiPlan): LoopResult => ({
    answer,
    toolCalls: budget.records,
    pending: budget.pending,
    used: budget.used,
    exhausted: budget.exhausted,
    tokens: 0,
    ...(answered ? { topic: answered.intent, ...(answered.product ? { subject: answered.product } : {}) } : {}),
  });
  if (!plans.length) return result(HELP[lang]);

  const ctx: AnswerContext = {
    lang,
    today: localDate(new Date(), input.caller.timezone),
    timeZone: input.caller.timezone,
    call: (name, args) => budget.tryCall(name, args),
  };
  const parts: string[] = [];
  for (const plan of plans) {
    try {
      parts.push(plan.intent === 'price_change' ? await priceChange(ctx, plan, budget) : await INTENT_ANSWERS[plan.intent](ctx, plan));
    } catch (err) {
      if (!(err instanceof NoData)) throw err;
      parts.push(noDataText(err.outcome, plan.intent, lang));
    }
  }
  return result(parts.join('\n\n'), plans.at(-1));
}
