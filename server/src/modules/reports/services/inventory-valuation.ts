/**
 * The inventory valuation report: the active store's stock now, per product, then per category,
 * then in total. Issue 51: a product's `qty` is written in its own unit (`unit` column: piece, kg,
 * l…); a measured product's value is qty × price rounded half up to the shilling once per product
 * (shared `lineAmount`, the rule of a sale line). Kilos and pieces do not add up, so a category's or
 * the total's `qty` is given only where every product in it has one unit (blank otherwise); their
 * values always cover every product. `stock_in_packs`, the last column, is a product's qty said in
 * its packs (shared `stockInPacks`: "3 × Crate of 24 + 5"), blank without packs and on summary rows.
 */
import { fromCount, lineAmount, stockInPacks, type Unit } from '@duka/shared';
import { inventoryByCategory, inventoryPage, measuredStock, PAGE, type ProductKey, packsOfProducts } from '../reports.queries.js';
import type { ReportScope, ReportSpec } from './report-types.js';

const n = (v: unknown) => Number(v ?? 0);

interface Group {
  category: string;
  products: number;
  /** Counts per unit. */
  counts: Map<Unit, number>;
  valueAtCost: number;
  valueAtSellingPrice: number;
}

/** A product's packs with `units` in its unit, as `stockInPacks` takes them (the table keeps counts). */
const unitsOf = (packs: Array<{ name: string; units: number }> | undefined, unit: Unit) =>
  (packs ?? []).map((k) => ({ name: k.name, units: fromCount(k.units, unit) }));

/** qty and unit of a group: the one unit's quantity, or blank when it mixes units. */
function quantityOf(counts: Map<Unit, number>): { qty: number | null; unit: string } {
  const [only, ...more] = [...counts];
  if (!only) return { qty: 0, unit: 'piece' };
  if (more.length > 0) return { qty: null, unit: '' };
  return { qty: fromCount(only[1], only[0]), unit: only[0] };
}

/** Per category (by name), piece products summed by the database and measured ones valued one by one. */
async function categoryGroups(s: ReportScope): Promise<Group[]> {
  const [pieces, measured] = await Promise.all([inventoryByCategory(s.db, s.orgId, s.storeId), measuredStock(s.db, s.orgId, s.storeId)]);
  const groups = new Map<string | null, Group>();
  const groupOf = (id: string | null, category: unknown) => {
    const g = groups.get(id) ?? { category: String(category), products: 0, counts: new Map(), valueAtCost: 0, valueAtSellingPrice: 0 };
    groups.set(id, g);
    return g;
  };
  const add = (g: Group, unit: Unit, count: number) => g.counts.set(unit, (g.counts.get(unit) ?? 0) + count);
  for (const c of pieces) {
    const g = groupOf(c.category_id, c.category);
    g.products += n(c.products);
    add(g, 'piece', n(c.qty));
    g.valueAtCost += n(c.value_at_cost);
    g.valueAtSellingPrice += n(c.value_at_selling_price);
  }
  for (const p of measured) {
    const g = groupOf(p.category_id, p.category);
    g.products += 1;
    add(g, p.unit, n(p.qty));
    g.valueAtCost += lineAmount(n(p.cost_price), n(p.qty), p.unit);
    g.valueAtSellingPrice += lineAmount(n(p.selling_price), n(p.qty), p.unit);
  }
  return [...groups.values()].sort((a, b) => (a.category < b.category ? -1 : a.category > b.category ? 1 : 0));
}

export async function inventorySpec(s: ReportScope): Promise<ReportSpec> {
  const categories = await categoryGroups(s);
  const all: Group = { category: '', products: 0, counts: new Map(), valueAtCost: 0, valueAtSellingPrice: 0 };
  for (const c of categories) {
    all.products += c.products;
    for (const [unit, count] of c.counts) all.counts.set(unit, (all.counts.get(unit) ?? 0) + count);
    all.valueAtCost += c.valueAtCost;
    all.valueAtSellingPrice += c.valueAtSellingPrice;
  }
  const total = quantityOf(all.counts);
  const blank = { sku: '', cost_price: null, selling_price: null };
  const summary = (row_type: string, g: Group) => ({
    row_type,
    category: g.category,
    product: '',
    ...blank,
    ...quantityOf(g.counts),
    value_at_cost: g.valueAtCost,
    value_at_selling_price: g.valueAtSellingPrice,
    stock_in_packs: null,
  });
  return {
    dated: false,
    columns: [
      ...['row_type', 'category', 'product', 'sku', 'qty', 'unit'].map((key) => ({ key })),
      ...['cost_price', 'selling_price', 'value_at_cost', 'value_at_selling_price'].map((key) => ({ key, money: true })),
      { key: 'stock_in_packs' },
    ],
    totals: {
      products: all.products,
      // Only a quantity in one unit is a total; a store selling by the piece and by the kilo has none.
      ...(total.qty === null ? {} : { qty: total.qty }),
      value_at_cost: all.valueAtCost,
      value_at_selling_price: all.valueAtSellingPrice,
    },
    moneyTotals: ['value_at_cost', 'value_at_selling_price'],
    async *rows() {
      let after: ProductKey | null = null;
      for (;;) {
        const page = await inventoryPage(s.db, s.orgId, s.storeId, after);
        if (page.length) {
          const packs = await packsOfProducts(
            s.db,
            s.orgId,
            page.map((p) => p.id),
          );
          yield page.map((p) => ({
            row_type: 'product',
            category: String(p.category),
            product: p.name,
            sku: p.sku ?? '',
            qty: fromCount(n(p.qty), p.unit),
            unit: p.unit,
            cost_price: n(p.cost_price),
            selling_price: n(p.selling_price),
            value_at_cost: lineAmount(n(p.cost_price), n(p.qty), p.unit),
            value_at_selling_price: lineAmount(n(p.selling_price), n(p.qty), p.unit),
            stock_in_packs: stockInPacks({ stock: fromCount(n(p.qty), p.unit), unit: p.unit, packs: unitsOf(packs.get(p.id), p.unit) }),
          }));
          const last = page[page.length - 1]!;
          after = { category: String(last.category), name: last.name, id: last.id };
        }
        if (page.length < PAGE) break;
      }
      yield [...categories.map((c) => summary('category', c)), summary('total', all)];
    },
  };
}
