/**
 * The sale pipeline (issue 50): every sale the server records (POST /pos/sale, a till's pushed
 * sales, a mobile-money sale booked when its payment arrives) passes the same stages, in the order
 * of SALE_STAGES, which the till's pipeline shares by name (docs/architecture.md, "The sale pipeline").
 *
 * Three steps whatever the number of sales: read what they need once, locking the store and its
 * stock rows (`loadSaleSet`); plan each sale in memory in order (`planSale`: the stages up to
 * `numberSale`), a refused one changing nothing for the next; write them all (`writeSale`). Everything
 * is written in the caller's one transaction.
 */
import { type CreateSaleInput, type LineBatch, newId, type SaleConflict, type SaleStage } from '@duka/shared';
import type { FiscalReceiptRow } from '../../../db/tables/fiscal.table.js';
import type { ProductRow } from '../../../db/tables/inventory.table.js';
import type { TransactionLineRow, TransactionPaymentRow, TransactionRow } from '../../../db/tables/pos.table.js';
import { withTransaction } from '../../../db/transaction.js';
import type { SoldLine } from '../pos.queries.js';
import { requireStore } from '../../../lib/auth/authorize.js';
import type { AuthedContext } from '../../../lib/context.js';
import { ServiceError } from '../../../lib/errors.js';
import { loadSaleSet } from './load-sale-set.js';
import { assignShift } from './assign-shift.js';
import { checkRules } from './check-rules.js';
import { numberSale } from './number-sale.js';
import { priceLines } from './price-lines.js';
import { resolveLines } from './resolve-lines.js';
import { type SalePlan, type SaleReplay, startSale } from './sale-plan.js';
import { moveSetOn, planOf } from './sale-rows.js';
import { settleTender } from './settle-tender.js';
import type { SaleOptions, SaleRequest, SaleSet } from './sale-set.js';
import { takeStock } from './take-stock.js';
import { writeSale } from './write-sale.js';

export type { SaleOptions, SaleRequest } from './sale-set.js';

/** The stages, in order; the keys are SALE_STAGES (test/project/sale-pipeline.test.ts checks it). */
export const saleStages = {
  resolveLines,
  checkRules,
  priceLines,
  settleTender,
  takeStock,
  assignShift,
  numberSale,
  writeSale,
} satisfies Record<SaleStage, unknown>;

/** One sale planned against its set, the set moved on after it; a refusal throws and changes nothing. */
export function planSale(ctx: AuthedContext, set: SaleSet, request: SaleRequest): SalePlan | SaleReplay {
  // A sale id is the organisation's (issue 36): only its own sales are looked at.
  const replayed = request.input.id ? set.sales.get(request.input.id) : undefined;
  if (replayed) return { replayed };
  const sale = startSale(ctx, set, request);
  const resolved = saleStages.resolveLines(sale);
  saleStages.checkRules(sale, resolved);
  const priced = saleStages.priceLines(sale, resolved);
  const tender = saleStages.settleTender(sale, resolved, priced);
  const saleId = request.input.id ?? newId();
  const stock = saleStages.takeStock(sale, resolved.lines, saleId);
  const shift = saleStages.assignShift(sale);
  const number = saleStages.numberSale(sale);
  const plan = planOf(sale, { saleId, resolved, priced, tender, stock, shift, number });
  moveSetOn(sale, plan);
  return plan;
}

export interface RecordedSale {
  row: TransactionRow;
  /** The lines as written, each with its product's unit (absent for a replayed sale: read them). */
  lines?: SoldLine[];
  /** Its parts as written (with the lines). */
  payments?: TransactionPaymentRow[];
  /** The lots the lines took, with the lines. */
  lots?: Array<LineBatch & { product_id: string }>;
  /** True when a sale with this client id already existed: nothing new was written. */
  replayed: boolean;
  /** The TRA fiscal receipt the sale was numbered with (its store fiscalises). */
  fiscal?: FiscalReceiptRow;
  conflicts: SaleConflict[];
}

/** Each request's sale, or the error that refused it (nothing of it written), in order. */
export type SaleOutcome = { ok: true; sale: RecordedSale } | { ok: false; error: ServiceError };

export interface PlannedSales {
  set: SaleSet;
  plans: SalePlan[];
  outcomes: SaleOutcome[];
}

/**
 * Read the sales' set and plan each, writing nothing. `products`: the sales' products when the caller
 * already read them in this transaction; `online`: a breach refuses the sale (default: no till pushed it).
 */
export async function planSales(
  tx: AuthedContext & { pending: object },
  requests: SaleRequest[],
  products?: Map<string, ProductRow>,
  opts: { online?: boolean } = {},
): Promise<PlannedSales> {
  const { orgId, storeId } = requireStore(tx);
  const online = opts.online ?? requests[0]!.opts.deviceId === undefined;
  const set = await loadSaleSet(tx, { orgId, storeId, online }, requests, products);
  const plans: SalePlan[] = [];
  const outcomes = requests.map((request): SaleOutcome => {
    try {
      const planned = planSale(tx, set, request);
      if ('replayed' in planned) return { ok: true, sale: { row: planned.replayed, replayed: true, conflicts: [] } };
      plans.push(planned);
      return {
        ok: true,
        sale: {
          row: planned.row,
          lines: soldLines(set, planned.lines),
          payments: planned.payments,
          lots: planned.lots,
          replayed: false,
          conflicts: planned.conflicts,
        },
      };
    } catch (error) {
      if (error instanceof ServiceError) return { ok: false, error };
      throw error;
    }
  });
  return { set, plans, outcomes };
}

const soldLines = (set: SaleSet, lines: TransactionLineRow[]): SoldLine[] =>
  lines.map((l) => ({ ...l, unit: set.products.get(l.product_id)!.unit }));

/** Record sales of the actor's store, all from POST /pos/sale or all from one push, inside the caller's transaction. */
export async function recordSales(
  tx: AuthedContext & { pending: object },
  requests: SaleRequest[],
  products?: Map<string, ProductRow>,
  opts: { online?: boolean } = {},
): Promise<SaleOutcome[]> {
  requireStore(tx);
  if (requests.length === 0) return [];
  const { set, plans, outcomes } = await planSales(tx, requests, products, opts);
  const fiscal = await saleStages.writeSale(tx, set, plans);
  if (fiscal.size) for (const o of outcomes) if (o.ok) o.sale.fiscal = fiscal.get(o.sale.row.id);
  return outcomes;
}

/** One sale in a transaction of its own (services and tests that record a sale directly). */
export async function recordSale(
  ctx: AuthedContext,
  input: CreateSaleInput,
  opts: SaleOptions = { source: 'online' },
): Promise<RecordedSale> {
  return withTransaction(ctx, async (tx) => {
    const [outcome] = await recordSales(tx, [{ input, opts }]);
    if (!outcome!.ok) throw outcome!.error;
    return outcome!.sale;
  });
}
