/**
 * The assistant without an AI gateway key: the question's intents found by keywords (English and
 * Swahili), each answered by its tool as plain text with exact figures, in the question's
 * language. A question with no known intent gets the list of what it can answer.
 */
import { type AiLanguage, languageOf } from '@duka/shared';
import type { AuthedContext } from '../../../lib/context.js';
import { TOOLS, type ToolName } from './tools.js';

const INTENTS: Array<[ToolName, RegExp]> = [
  ['get_sales_today', /\b(sales?|sell|sold|revenue|takings|turnover|mauzo|mapato|nimeuza|tumeuza|umeuza|tuliuza|niliuza)\b/],
  [
    'get_low_stock',
    /\b(stock|stocks|restock|reorder|running out|run out|out of stock|inventory|zinazoisha|zinaisha|zimeisha|inayoisha|zinakwisha|kuisha|kwisha|stoku|stoo|akiba)\b/,
  ],
  ['get_top_products', /\b(top|best|bestsellers?|popular|most sold|zinazouzwa|zinazouza|zinauzwa|inayouzwa|maarufu|bora)\b/],
  [
    'get_customer_debts',
    /\b(owe|owes|owing|owed|debts?|debtors?|credit|credits|overdue|deni|madeni|wanaodaiwa|wadaiwa|anadaiwa|wanadaiwa|wanaodai|mkopo|mikopo|wamekopa|walikopa)\b/,
  ],
];

export function intentsOf(message: string): ToolName[] {
  const text = message.toLowerCase();
  return INTENTS.filter(([, re]) => re.test(text)).map(([name]) => name);
}

const HELP: Record<AiLanguage, string> = {
  en: [
    "I answer from your shop's own records. Ask me about:",
    '- today\'s sales compared with yesterday ("How are sales today?")',
    '- products running low (“Which products are low in stock?”)',
    '- the best sellers of the last 7 days (“What are my top products?”)',
    '- customers who owe you money (“Who owes me money?”)',
  ].join('\n'),
  sw: [
    'Ninajibu kutokana na kumbukumbu za duka lako. Niulize kuhusu:',
    '- mauzo ya leo ukilinganisha na jana (“Mauzo ya leo ni kiasi gani?”)',
    '- bidhaa zinazoisha (“Bidhaa zipi zinaisha?”)',
    '- bidhaa zinazouzwa zaidi siku 7 zilizopita (“Bidhaa zipi zinauzwa zaidi?”)',
    '- wateja wanaodaiwa (“Nani wanadaiwa?”)',
  ].join('\n'),
};

export async function answerLocally(ctx: AuthedContext, message: string): Promise<string> {
  const lang = languageOf(message);
  const intents = intentsOf(message);
  if (intents.length === 0) return HELP[lang];
  const parts: string[] = [];
  for (const name of intents) {
    const tool = TOOLS[name];
    parts.push(tool.text(await tool.run(ctx), lang));
  }
  return parts.join('\n\n');
}
