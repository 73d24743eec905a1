/**
 * The assistant without an AI gateway key. The shared keyword planner (`planQuestion` in
 * @duka/shared, the one the companion agent uses too) reads the question in English or Swahili;
 * each intent is answered here by this server's own tools as plain text with exact figures, in the
 * question's language. A question the planner cannot read gets the list of what it can answer.
 *
 * What the server answers of a plan: its tools (the ones its gateway offers, which take no
 * arguments: sales today against yesterday, low stock, the last 7 days' best sellers, who owes,
 * overdue marked; what to reorder, the purchase orders still owed, the last stock-takes) for their intents, whatever period was asked (each answer names its dates), and a
 * product's stock and price by the name asked. Expenses, the cash flow and price changes are the
 * companion agent's: here they get one line saying so.
 */
import { type AiIntent, type AiLanguage, planQuestion, productAnswer, productsNamed } from '@duka/shared';
import type { AuthedContext } from '../../../lib/context.js';
import { listProducts } from '../../inventory/inventory.exports.js';
import { TOOLS, type ToolName } from './tools.js';

/**
 * How each intent of the shared planner is answered here: by one of the tools ("overdue" by
 * the who-owes list, which puts the overdue customers first and counts them), by the product
 * search, or not here (named in one line, in English and Swahili). A new intent must be placed.
 */
const ANSWERED_BY: Record<AiIntent, ToolName | 'product_search' | { notHere: [string, string] }> = {
  sales: 'get_sales_today',
  top_products: 'get_top_products',
  low_stock: 'get_low_stock',
  reorder: 'get_reorder_suggestions',
  purchase_orders: 'get_open_purchase_orders',
  stock_takes: 'get_stock_takes',
  debts: 'get_customer_debts',
  overdue: 'get_customer_debts',
  product: 'product_search',
  expenses: { notHere: ['expenses', 'matumizi'] },
  cashflow: { notHere: ['the cash flow', 'mtiririko wa fedha'] },
  price_change: { notHere: ['changing a price', 'kubadilisha bei'] },
};

const HELP: Record<AiLanguage, string> = {
  en: [
    "I answer from your shop's own records. Ask me about:",
    '- today\'s sales compared with yesterday ("How are sales today?")',
    '- products running low, or the stock and price of one (“Which products are low in stock?”, “How many sugar 1 kg are left?”)',
    '- the best sellers of the last 7 days (“What are my top products?”)',
    '- customers who owe you money (“Who owes me money?”)',
    '- what to order, by supplier (“What should I order?”)',
    '- purchase orders still owed by suppliers (“Which orders are still owed?”)',
    '- the last stock-takes and their variance (“Last stock count variance”)',
  ].join('\n'),
  sw: [
    'Ninajibu kutokana na kumbukumbu za duka lako. Niulize kuhusu:',
    '- mauzo ya leo ukilinganisha na jana (“Mauzo ya leo ni kiasi gani?”)',
    '- bidhaa zinazoisha, au stoku na bei ya bidhaa moja (“Bidhaa zipi zinaisha?”, “Sukari iliyobaki?”)',
    '- bidhaa zinazouzwa zaidi siku 7 zilizopita (“Bidhaa zipi zinauzwa zaidi?”)',
    '- wateja wanaodaiwa (“Nani wanadaiwa?”)',
    '- cha kuagiza, kwa kila msambazaji (“Nini niagize?”)',
    '- oda ambazo wasambazaji bado hawajaleta (“Oda zipi bado hazijafika?”)',
    '- hesabu za mwisho za stoku na tofauti zake (“Hesabu ya stoku ya mwisho?”)',
  ].join('\n'),
};

/** A product's stock and price, by the name asked (a search in the active store, an exact name first). */
async function productText(ctx: AuthedContext, name: string, lang: AiLanguage): Promise<string> {
  const found = await listProducts(ctx, { search: name, page: 1, page_size: 20 });
  return productAnswer(productsNamed(found.items, name), name, lang);
}

export async function answerLocally(ctx: AuthedContext, message: string): Promise<string> {
  const { language: lang, plans } = planQuestion(message);
  if (!plans.length) return HELP[lang];
  const parts: string[] = [];
  const notHere: string[] = [];
  for (const plan of plans) {
    const by = ANSWERED_BY[plan.intent];
    if (typeof by === 'object') notHere.push(lang === 'sw' ? by.notHere[1] : by.notHere[0]);
    else if (by === 'product_search') parts.push(await productText(ctx, plan.product!, lang));
    else parts.push(TOOLS[by].text(await TOOLS[by].run(ctx), lang));
  }
  if (notHere.length) {
    const answered = parts.length > 0;
    parts.push(lang === 'sw' ? `Siwezi kusaidia kuhusu ${notHere.join(' au ')} hapa.` : `I cannot help with ${notHere.join(' or ')} here.`);
    if (!answered) parts.push(HELP[lang]);
  }
  return parts.join('\n\n');
}
