/**
 * The tools the agent may use: one line per API operation, by its OpenAPI `operationId`, with a
 * curated English description and Swahili hints for the model. Parameters and request schemas come
 * from the API's own OpenAPI document, so a new route becomes a tool by adding one line here.
 *
 * `read` tools run when the model (or the planner) asks. `write` tools never run on the model's
 * word: they become a pending action with a plain-language summary that the user confirms. A write
 * line names how to describe its target (`about`) and its change (`change`), in both languages.
 */
import { formatTzs, toCents } from '@duka/shared';
import type { Language } from '../schemas.js';

/** What a summary knows: the tool's arguments and the looked-up target's name. */
export interface SummaryInput {
  args: Record<string, any>;
  target: string;
}
type Summary = (s: SummaryInput, lang: Language) => string;

export interface ToolLine {
  operationId: string;
  kind: 'read' | 'write';
  description: string;
  sw: string;
  /** write: the API path (with the tool's path parameter) that names the target, and how to name it from the answer. */
  about?: { path: string; name: (data: any) => string };
  summary?: Summary;
}

const tzs = (v: unknown) => (typeof v === 'number' ? formatTzs(toCents(v)) : String(v));
const product = { path: '/inventory/products/{id}', name: (p: any) => String(p.name) };
const sale = { path: '/pos/transactions/{id}', name: (t: any) => `${t.receipt_number ?? t.id} (${tzs(t.total)})` };
const customer = { path: '/customers/{customer_id}', name: (c: any) => String(c.name) };
const productChange = ({ args, target }: SummaryInput, lang: Language) => {
  const parts = Object.entries(args)
    .filter(([k]) => k !== 'id')
    .map(([k, v]) =>
      k === 'selling_price' ? (lang === 'sw' ? `bei ya kuuza iwe ${tzs(v)}` : `selling price to ${tzs(v)}`) : `${k} = ${JSON.stringify(v)}`,
    );
  return lang === 'sw' ? `Badilisha ${target}: ${parts.join(', ')}` : `Change ${target}: ${parts.join(', ')}`;
};

// prettier-ignore
export const ALLOWLIST: ToolLine[] = [
  {
    operationId: 'getSalesSummary',
    kind: 'read',
    description:
      'Sales totals of the active store between two local dates (YYYY-MM-DD, both included; default today): total_sales, transaction_count, items_sold, totals by payment method, refunds',
    sw: 'mauzo, mapato, leo, jana, wiki hii, mwezi huu',
  },
  {
    operationId: 'listSales',
    kind: 'read',
    description: "The active store's sales (transactions), newest first, with receipt numbers and totals",
    sw: 'mauzo, risiti, miamala',
  },
  { operationId: 'getSale', kind: 'read', description: 'One sale with its lines', sw: 'risiti, muamala' },
  {
    operationId: 'listProducts',
    kind: 'read',
    description: 'Find products by name or SKU (`search`): price (selling_price, TZS) and stock in the active store',
    sw: 'bidhaa, bei, stoku, zimebaki ngapi',
  },
  { operationId: 'getProduct', kind: 'read', description: 'One product with its price and stock', sw: 'bidhaa, bei' },
  {
    operationId: 'listLowStock',
    kind: 'read',
    description: 'Products of the active store at or below their reorder point',
    sw: 'zinazoisha, zimeisha, stoku ndogo',
  },
  {
    operationId: 'listReorderSuggestions',
    kind: 'read',
    description:
      "What the active store should order, by supplier: products at or under their reorder point or running out within the supplier's lead time at the last 28 days' sales; each with `suggested` (in the product's unit, or whole packs), stock, on_order, days_left and the figures it comes from",
    sw: 'nini niagize, cha kuagiza, agiza upya',
  },
  {
    operationId: 'listPurchaseOrders',
    kind: 'read',
    description:
      "Purchase orders to suppliers of the active store, newest first; `status` sent or partly_received for those still waiting for delivery; each line's ordered, received and owed in the product's unit (suppliers permission)",
    sw: 'oda, maagizo kwa wasambazaji, bado hazijafika',
  },
  { operationId: 'getPurchaseOrder', kind: 'read', description: 'One purchase order with its lines and what is still owed', sw: 'oda' },
  {
    operationId: 'listStockTakes',
    kind: 'read',
    description:
      "The active store's stock-takes (counts of the shelves), newest first, each with its totals: products counted, over, short, variance_value at cost (stock permission)",
    sw: 'hesabu ya stoku, upungufu, tofauti',
  },
  {
    operationId: 'getStockTake',
    kind: 'read',
    description: "One stock-take's review: per product expected, counted, variance (in its unit) and variance_value at cost",
    sw: 'hesabu ya stoku',
  },
  { operationId: 'listCustomers', kind: 'read', description: 'Customers of the shop, by name or phone (`search`)', sw: 'wateja, mteja' },
  { operationId: 'getCustomer', kind: 'read', description: 'One customer', sw: 'mteja' },
  {
    operationId: 'listCustomersOwing',
    kind: 'read',
    description:
      'Customers who owe money, with total_outstanding (TZS), overdue_count and oldest_due_date; `overdue=true` for those with an overdue tab',
    sw: 'deni, madeni, wanaodaiwa, wamechelewa',
  },
  {
    operationId: 'listCreditTabs',
    kind: 'read',
    description:
      'Credit tabs (one per credit sale), newest first; `overdue=true` for overdue tabs, `status` open, partially_paid, paid, written_off',
    sw: 'deni, mkopo, zilizochelewa',
  },
  {
    operationId: 'getCreditProfile',
    kind: 'read',
    description: "A customer's credit profile: tabs, payments, reminders",
    sw: 'deni la mteja',
  },
  {
    operationId: 'getExpenseSummary',
    kind: 'read',
    description: 'Total and per-category spending of the active store; default this month so far',
    sw: 'matumizi, gharama, mwezi huu',
  },
  { operationId: 'listExpenses', kind: 'read', description: "The active store's expenses, newest first", sw: 'matumizi, gharama' },
  {
    operationId: 'getTopProducts',
    kind: 'read',
    description: 'Best-selling products by revenue over local dates (owner only)',
    sw: 'zinazouzwa zaidi, bora',
  },
  {
    operationId: 'getCashflow',
    kind: 'read',
    description: 'Money in (takings, credit payments) and out (refunds, expenses, supplier payments) and net over local dates (owner only)',
    sw: 'mtiririko wa fedha, pesa iliyoingia na kutoka',
  },
  {
    operationId: 'getAnalyticsSummary',
    kind: 'read',
    description: 'Revenue, sales count, average ticket, profit over local dates (owner only)',
    sw: 'faida, mapato',
  },

  {
    operationId: 'updateProduct',
    kind: 'write',
    description: 'Change a product, e.g. its selling_price (TZS); needs confirmation',
    sw: 'badilisha bei',
    about: product,
    summary: productChange,
  },
  {
    operationId: 'adjustStock',
    kind: 'write',
    description: "Adjust the active store's stock of a product by qty_change (+ received, - lost) with a reason; needs confirmation",
    sw: 'rekebisha stoku',
    about: product,
    summary: ({ args, target }, l) =>
      l === 'sw'
        ? `Rekebisha stoku ya ${target} kwa ${args.qty_change > 0 ? '+' : ''}${args.qty_change} (${args.reason})`
        : `Adjust the stock of ${target} by ${args.qty_change > 0 ? '+' : ''}${args.qty_change} (${args.reason})`,
  },
  {
    operationId: 'refundSale',
    kind: 'write',
    description: 'Refund a sale (refund permission); restores stock; needs confirmation',
    sw: 'rudisha pesa',
    about: sale,
    summary: ({ args, target }, l) =>
      l === 'sw' ? `Rudisha pesa ya mauzo ${target}: ${args.reason}` : `Refund sale ${target}: ${args.reason}`,
  },
  {
    operationId: 'voidSale',
    kind: 'write',
    description: 'Void a sale; restores stock; needs confirmation',
    sw: 'futa mauzo',
    about: sale,
    summary: ({ args, target }, l) => (l === 'sw' ? `Futa mauzo ${target}: ${args.reason}` : `Void sale ${target}: ${args.reason}`),
  },
  {
    operationId: 'recordCustomerPayment',
    kind: 'write',
    description: 'Record a payment from a customer against what they owe (oldest tabs first); needs confirmation',
    sw: 'lipa deni',
    about: customer,
    summary: ({ args, target }, l) =>
      l === 'sw'
        ? `Rekodi malipo ya ${tzs(args.amount)} kutoka kwa ${target} (${args.method})`
        : `Record a payment of ${tzs(args.amount)} from ${target} (${args.method})`,
  },
  {
    operationId: 'remindCustomer',
    kind: 'write',
    description: 'Text a customer what they owe; needs confirmation',
    sw: 'mkumbushe deni',
    about: customer,
    summary: ({ target }, l) =>
      l === 'sw' ? `Mtumie ${target} ujumbe wa kumkumbusha deni lake` : `Text ${target} a reminder of what they owe`,
  },
  {
    operationId: 'createExpense',
    kind: 'write',
    description: 'Record an expense of the active store; needs confirmation',
    sw: 'andika matumizi',
    summary: ({ args }, l) =>
      l === 'sw'
        ? `Andika matumizi: ${args.title}, ${tzs(args.amount)} (${args.category})`
        : `Record an expense: ${args.title}, ${tzs(args.amount)} (${args.category})`,
  },
  {
    operationId: 'createCustomer',
    kind: 'write',
    description: 'Add a customer; needs confirmation',
    sw: 'ongeza mteja',
    summary: ({ args }, l) =>
      l === 'sw'
        ? `Ongeza mteja ${args.name}${args.phone ? ` (${args.phone})` : ''}`
        : `Add customer ${args.name}${args.phone ? ` (${args.phone})` : ''}`,
  },
];
