/**
 * A sale held while its mobile-money payment is asked for (payments' `SaleBooking` port): planned
 * by the sale pipeline as POST /pos/sale is (`planSales`, nothing written), then recorded by it
 * (`recordSales`) once the provider says it is paid, so the receipt number is taken only then.
 */
import type { CreateSaleInput } from '@duka/shared';
import { forUpdate } from '../../../db/dialect.js';
import { requireStore } from '../../../lib/auth/authorize.js';
import type { AuthedContext, TxContext } from '../../../lib/context.js';
import { ConflictError } from '../../../lib/errors.js';
import type { HeldSale, SaleBooking } from '../../payments/payments.exports.js';
import { changeStockLevel } from '../../stock-levels/stock-levels.exports.js';
import { findStoreTransaction, withLines } from '../pos.queries.js';
import { planSales, recordSales } from '../sale/pipeline.js';
import type { SaleRequest } from '../sale/sale-set.js';

const recorded = (id: string | undefined) => new ConflictError(`a sale with id ${id} is already recorded`);

async function quote(tx: TxContext<AuthedContext>, input: CreateSaleInput) {
  const request: SaleRequest = { input, opts: { source: 'online' } };
  const { set, plans, outcomes } = await planSales(tx, [request], undefined, { online: true });
  if (!outcomes[0]!.ok) throw outcomes[0]!.error;
  const planned = plans[0];
  if (!planned) throw recorded(input.id);
  const stocked = planned.merged.filter((l) => set.products.get(l.product_id)!.is_service !== 1);
  return {
    total: planned.row.total,
    // The loose lines' prices: a pack line is priced by its pack again when booked.
    unit_prices: Object.fromEntries(planned.lines.filter((l) => l.pack_id === null).map((l) => [l.product_id, l.unit_price])),
    holds: stocked.map((l) => ({
      product_id: l.product_id,
      product_name: set.products.get(l.product_id)!.name,
      qty: l.qty,
      field: `lines.${l.index}.qty`,
    })),
  };
}

async function book(tx: TxContext<AuthedContext>, held: HeldSale, payment: { reference: string; phone: string }) {
  const { orgId, storeId } = requireStore(tx);
  // The store row before any stock row, the order every sale locks them in (sale/load-sale-set.ts).
  await forUpdate(tx.dialect, tx.db.selectFrom('stores').select('id').where('id', '=', storeId).where('org_id', '=', orgId)).execute();
  for (const h of [...held.holds].sort((a, b) => a.product_id.localeCompare(b.product_id)))
    await changeStockLevel(tx, { orgId, storeId, productId: h.product_id, productName: h.product_name, delta: h.qty });
  const input = { ...held.sale, payment_reference: payment.reference.slice(0, 100), payment_phone: payment.phone };
  const request: SaleRequest = {
    input,
    opts: { source: 'online', unitPrices: new Map(Object.entries(held.unit_prices)), paymentConfirmed: true },
  };
  // Recorded as a till's pushed sale is: the customer has paid, so the sale has happened.
  const [outcome] = await recordSales(tx, [request], undefined, { online: false });
  if (!outcome!.ok) throw outcome!.error;
  if (outcome!.sale.replayed) throw recorded(input.id);
  return { conflicts: outcome!.sale.conflicts.map((c) => c.message) };
}

export const posSaleBooking: SaleBooking = {
  quote,
  book,
  async sale(ctx, at, id) {
    const row = await findStoreTransaction(ctx.db, at, id);
    return row ? (await withLines(ctx.db, [row]))[0]! : null;
  },
};
