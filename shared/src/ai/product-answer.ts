/**
 * The answer to a planner's `product` intent ("How many sugar 1 kg do I have?", "Bei ya sukari"),
 * worded once for the server's assistant and the companion agent: each finds the products with
 * its own tool (a product search, `listProducts`), and both pick and word them here.
 */
import { formatTzs, toCents } from '../money.js';
import type { Unit } from '../inventory/units.js';
import type { AiLanguage } from './ai.schemas.js';

interface NamedProduct {
  name: string;
}

/** The products a search found for `name`: the ones named exactly (any case) when there are any, else all of them. */
export function productsNamed<T extends NamedProduct>(found: T[], name: string): T[] {
  const exact = found.filter((p) => p.name.toLowerCase() === name.toLowerCase());
  return exact.length ? exact : found;
}

/** How many products an answer names. */
export const PRODUCT_ANSWER_MAX = 5;

/** Each product's price and stock, one a line; or that none matched. */
export function productAnswer(
  products: Array<NamedProduct & { selling_price: number; stock: number; unit?: Unit }>,
  name: string,
  lang: AiLanguage,
) {
  if (!products.length) return lang === 'sw' ? `Sikupata bidhaa inayoitwa "${name}".` : `I found no product matching "${name}".`;
  const tzs = (v: number) => formatTzs(toCents(v));
  // A measured product's stock names its measure (`11.75 kg`); pieces stay a bare number.
  const n = (v: number, unit: Unit = 'piece') => (unit === 'piece' ? v.toLocaleString('en-US') : `${v.toLocaleString('en-US')} ${unit}`);
  return products
    .slice(0, PRODUCT_ANSWER_MAX)
    .map((p) =>
      lang === 'sw'
        ? `${p.name}: bei ${tzs(p.selling_price)}, zimebaki ${n(p.stock, p.unit)}.`
        : `${p.name}: ${tzs(p.selling_price)}, ${n(p.stock, p.unit)} in stock.`,
    )
    .join('\n');
}
