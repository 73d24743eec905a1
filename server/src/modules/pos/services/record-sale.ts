/**
 * Recording sales: the one implementation behind POST /pos/sale (one sale) and, for tills that
 * sold offline, the sync push (a batch of a till's sales at once). Prices and stock come from the
 * server's catalogue; everything is written in the caller's one transaction: stock, the gapless
 * store numbers, lines, lots, credit tabs, the change log and the `transaction.created` events.
 *
 * Three steps whatever the number of sales: read what they need once, locking the store and its
 * stock rows (`loadSaleSet`); work each sale out in memory in order (`planSale`), a refused one
 * changing nothing for the next; write them all (`writeSales`).
 */
import type { CreateSaleInput, LineBatch, SaleConflict } from '@duka/shared';
import { withTransaction } from '../../../db/transaction.js';
import type { ProductRow } from '../../../db/tables/inventory.table.js';
import type { TransactionLineRow, TransactionRow } from '../../../db/tables/pos.table.js';
import { requireStore } from '../../../lib/auth/authorize.js';
import type { AuthedContext } from '../../../lib/context.js';
import { ServiceError } from '../../../lib/errors.js';
import { toTransaction, withLines } from '../pos.queries.js';
import type { FiscalReceiptRow } from '../../../db/tables/fiscal.table.js';
import { toFiscal } from '../../fiscal/fiscal.exports.js';
import { loadSaleSet, type SaleOptions, type SaleRequest } from './sale-inputs.js';
import { planSale, type SalePlan } from './sale-plan.js';
import { writeSales } from './sale-write.js';

export type { SaleOptions, SaleRequest } from './sale-inputs.js';

export interface RecordedSale {
  row: TransactionRow;
  /** The lines as written (absent for a replayed sale: read them). */
  lines?: TransactionLineRow[];
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

/**
 * Record sales of the actor's store, all from POST /pos/sale or all from one push, inside the caller's transaction.
 * `products`: the sales' products when the caller already read them in this transaction.
 */
export async function recordSales(
  tx: AuthedContext & { pending: object },
  requests: SaleRequest[],
  products?: Map<string, ProductRow>,
): Promise<SaleOutcome[]> {
  const { orgId, storeId } = requireStore(tx);
  if (requests.length === 0) return [];
  const set = await loadSaleSet(tx, { orgId, storeId, online: requests[0]!.opts.deviceId === undefined }, requests, products);
  const plans: SalePlan[] = [];
  const outcomes = requests.map((request): SaleOutcome => {
    try {
      const planned = planSale(tx, set, request);
      if ('replayed' in planned) return { ok: true, sale: { row: planned.replayed, replayed: true, conflicts: [] } };
      plans.push(planned);
      return {
        ok: true,
        sale: { row: planned.row, lines: planned.lines, lots: planned.lots, replayed: false, conflicts: planned.conflicts },
      };
    } catch (error) {
      if (error instanceof ServiceError) return { ok: false, error };
      throw error;
    }
  });
  const fiscal = await writeSales(tx, set, plans);
  if (fiscal.size) for (const o of outcomes) if (o.ok) o.sale.fiscal = fiscal.get(o.sale.row.id);
  return outcomes;
}

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

/**
 * The transaction answer (with lines) for a recorded sale. A new sale's fiscal receipt comes without
 * its QR code (null): drawing it is the sale's dearest step, and the receipt is printed from a read.
 */
export async function saleAnswer(ctx: AuthedContext, sale: RecordedSale) {
  if (!sale.lines) return (await withLines(ctx.db, [sale.row]))[0]!;
  return toTransaction(sale.row, sale.lines, sale.lots, sale.fiscal ? toFiscal(sale.fiscal, null) : null);
}
