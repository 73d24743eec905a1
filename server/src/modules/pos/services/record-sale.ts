/**
 * Recording a sale: the one implementation behind POST /pos/sale and, for tills that sold
 * offline, the sync push. Prices and stock come from the server's catalogue; everything is
 * written in one transaction: stock, the gapless store number, lines, the credit tab, the change
 * log and the `transaction.created` event.
 *
 * The rules are the shared `checkSale` and `checkCreditLimit` (the till applies the same): online a
 * breach is refused; offline the sale has already happened, so a breach that allows it is recorded
 * as a conflict and the sale is booked (design §4).
 */
import { checkCreditLimit, checkSale, hasCreditLimit, type CreateSaleInput, type ErrorCode, type LineBatch, type LineBatchInput, fromCents, mergeSaleLines, newId, type PricingLine, priceSale, type SaleBreach, type SaleConflict, type SaleSource, toBasisPoints } from '@duka/shared';
import { noteChange } from '../../../db/change-log.js';
import { withTransaction } from '../../../db/transaction.js';
import { recordAudit } from '../../../lib/audit.js';
import type { AuthedContext } from '../../../lib/context.js';
import { ConflictError, ServiceError } from '../../../lib/errors.js';
import { normalisePhone } from '../../../lib/phone.js';
import { findCustomer, findCustomerByPhone, insertCustomer } from '../../customers/customers.queries.js';
import type { CustomerRow } from '../../../db/tables/customers.table.js';
import { openCreditTab, outstandingCents } from '../../credits/services/tabs.js';
import { orgProductsById } from '../../inventory/inventory.queries.js';
import type { ProductRow } from '../../../db/tables/inventory.table.js';
import { changeStockLevel } from '../../inventory/services/stock.js';
import { localDate } from '../../../lib/time.js';
import { type DispenseLine, dispenseLines, lockLine, recordSaleLots } from '../../pharmacy/services/dispense.js';
import { toTransaction, withLines } from '../pos.queries.js';
import type { TransactionLineRow, TransactionRow } from '../../../db/tables/pos.table.js';
import { hasPermission, requireStore } from '../../../lib/auth/authorize.js';
import { checkDispensing } from '../../pharmacy/services/dispensing-checks.js';
import { recordPrescriptionEntry } from '../../pharmacy/services/prescription-register.js';

export interface SaleOptions {
  source: SaleSource;
  /** Offline: when the till made the sale (already clamped to the server's clock). */
  occurredAt?: number;
  clientReceiptNumber?: string;
  deviceId?: string;
  /** Offline: the unit price the till charged per product, cents (reconciled by the caller). */
  unitPrices?: Map<string, number>;
  /** Offline: the member of the organisation who rang it up (checked by the caller); default the actor. */
  cashierId?: string;
  /** The sale's products, when the caller already read them in this transaction (a push). */
  products?: Map<string, ProductRow>;
  /** Offline: the batches the till took each product's units from (kept when they still hold them). */
  lineBatches?: Map<string, LineBatchInput[]>;
}

export interface RecordedSale {
  row: TransactionRow;
  /** The lines as written (absent for a replayed sale: read them). */
  lines?: TransactionLineRow[];
  /** The lots the lines took, with the lines. */
  lots?: Array<LineBatch & { product_id: string }>;
  /** True when a sale with this client id already existed: nothing new was written. */
  replayed: boolean;
  conflicts: SaleConflict[];
}

/** The sale's customer: by id (`not_found` when the organisation has none), or by phone, created on first sight. */
async function resolveCustomer(ctx: AuthedContext, orgId: string, input: CreateSaleInput): Promise<CustomerRow | 'not_found' | undefined> {
  if (input.customer_id) return (await findCustomer(ctx.db, orgId, input.customer_id)) ?? 'not_found';
  if (!input.customer_phone) return undefined;
  const phone = normalisePhone(input.customer_phone, 'customer_phone');
  return (await findCustomerByPhone(ctx.db, orgId, phone)) ?? insertCustomer(ctx, orgId, { name: input.customer_name ?? phone, phone });
}

/** What any sale rule reports (sale, credit, FEFO, pharmacy): a conflict when an offline sale that broke it is still booked. */
interface Breach {
  code: ErrorCode;
  field: string;
  message: string;
  conflict?: SaleConflict;
}

/** A sale rule's breach as the error the API answers: its code, message and the field at fault. */
function saleError(b: Breach): ServiceError {
  return new ServiceError(b.code, b.message, { errors: [{ code: b.code, field: b.field, message: b.message }] });
}

export async function recordSale(ctx: AuthedContext, input: CreateSaleInput, opts: SaleOptions = { source: 'online' }): Promise<RecordedSale> {
  const { orgId, storeId } = requireStore(ctx);
  const online = opts.source === 'online';
  const conflicts: SaleConflict[] = [];
  /** Online: refuse the sale. Offline: book it and note the conflict, unless even that is refused. */
  const enforce = (breaches: Breach[]) => {
    const refused = online ? breaches[0] : breaches.find((b) => !b.conflict);
    if (refused) throw saleError(refused);
    for (const b of breaches) conflicts.push(b.conflict!);
  };

  return withTransaction(ctx, async (tx) => {
    if (input.id) {
      const existing = await tx.db.selectFrom('transactions').selectAll().where('id', '=', input.id).executeTakeFirst();
      if (existing && existing.org_id === orgId) return { row: existing, replayed: true, conflicts: [] };
      if (existing) throw new ConflictError('this sale id is already in use');
    }
    const now = tx.clock.now();
    const at = opts.occurredAt ?? now;
    const lines = mergeSaleLines(input.lines);
    const [store, org] = await Promise.all([
      tx.db.selectFrom('stores').select(['vat_enabled', 'code', 'outlet_type']).where('id', '=', storeId).executeTakeFirstOrThrow(),
      tx.db.selectFrom('organisations').select(['business_type', 'timezone']).where('id', '=', orgId).executeTakeFirstOrThrow(),
    ]);
    const products = opts.products ?? (await orgProductsById(tx.db, orgId, lines.map((l) => l.product_id)));
    const found = await resolveCustomer(tx, orgId, input);
    const customer = found === 'not_found' ? undefined : found;
    const priceMode = input.price_mode ?? 'retail';
    const discountBp = toBasisPoints(input.discount_pct ?? 0);
    enforce(
      checkSale({
        lines: lines.map((l) => {
          const p = products.get(l.product_id);
          return { index: l.index, product_id: l.product_id, product: p && { name: p.name, active: p.is_active === 1 } };
        }),
        business_type: org.business_type,
        price_mode: priceMode,
        discount_bp: discountBp,
        may_discount: hasPermission(ctx.actor, 'discount'),
        payment_method: input.payment_method,
        customer: found === 'not_found' ? 'not_found' : customer ? 'found' : 'none',
      }),
    );
    // The day the sale was made (the till's day for an offline sale): prescriptions and lots are judged by it.
    const today = localDate(at, org.timezone);
    enforce(await checkDispensing(tx, { outletType: store.outlet_type, today, lines, products, prescription: input.prescription }));

    const priced = priceSale({
      lines: lines.map<PricingLine>((l) => {
        const p = products.get(l.product_id)!;
        const product = { product_id: p.id, name: p.name, selling_price: p.selling_price, wholesale_price: p.wholesale_price, wholesale_min_qty: p.wholesale_min_qty, tax_rate: p.tax_rate };
        return { product, qty: l.qty, unit_price: opts.unitPrices?.get(p.id) };
      }),
      discount_bp: discountBp,
      price_mode: priceMode,
      vat_enabled: store.vat_enabled === 1,
    });

    if (input.payment_method === 'Credit' && customer && hasCreditLimit(customer.credit_limit)) {
      const owed = await outstandingCents(tx.db, customer.id);
      const breach = checkCreditLimit({ customer_name: customer.name, limit: customer.credit_limit, owed, total: priced.total });
      if (breach) enforce([breach]);
    }

    // The store's next number first: the store row is the first lock every sale takes, then its
    // stock rows in product-id order, so two sales (or two pushes of many) never wait on each other
    // in a cycle. A sale that fails later rolls the number back with it: numbers stay gapless.
    const numbered = await tx.db
      .updateTable('stores')
      .set((eb) => ({ last_number: eb('last_number', '+', 1) }))
      .where('id', '=', storeId)
      .returning(['last_number', 'code'])
      .executeTakeFirstOrThrow();
    // Stock in product-id order, so that concurrent sales take row locks in the same order.
    const saleId = input.id ?? newId();
    const stockAfter = new Map<string, number>();
    const lots: Array<LineBatch & { product_id: string }> = [];
    const sale = { orgId, storeId, transactionId: saleId, today, online };
    const tracked: DispenseLine[] = [];
    for (const l of [...lines].sort((a, b) => a.product_id.localeCompare(b.product_id))) {
      const p = products.get(l.product_id)!;
      if (p.is_service === 1) continue;
      if (p.track_batches === 1) {
        // Locked (and online counted) here in product order; its lots are taken below, for every line at once.
        const line = { index: l.index, product: p, qty: l.qty, preferred: opts.lineBatches?.get(p.id) };
        stockAfter.set(p.id, await lockLine(tx, sale, line));
        tracked.push(line);
        continue;
      }
      const current = online
        ? undefined
        : (await tx.db.selectFrom('product_stock').select('qty').where('store_id', '=', storeId).where('product_id', '=', p.id).executeTakeFirst())?.qty ?? 0;
      const after = await changeStockLevel(tx, { orgId, storeId, productId: p.id, productName: p.name, delta: -l.qty, allowNegative: !online, field: `lines.${l.index}.qty` });
      if (!online && after < 0) conflicts.push({ kind: 'oversold', product_id: p.id, message: `${p.name} sold ${l.qty} with ${current} in stock`, detail: { stock_before: current, qty: l.qty, stock_after: after } });
      stockAfter.set(p.id, after);
    }
    const dispensed = await dispenseLines(tx, sale, tracked, stockAfter);
    enforce(dispensed.breaches);
    for (const [productId, line] of dispensed.lines) {
      lots.push(...line.lots.map((lot) => ({ ...lot, product_id: productId })));
      stockAfter.set(productId, line.stockAfter);
    }

    const row = await tx.db
      .insertInto('transactions')
      .values({
        id: saleId,
        org_id: orgId,
        store_id: storeId,
        number: numbered.last_number,
        receipt_number: `${numbered.code}-${String(numbered.last_number).padStart(6, '0')}`,
        client_receipt_number: opts.clientReceiptNumber ?? null,
        status: input.payment_method === 'Credit' ? 'credit' : 'paid',
        payment_method: input.payment_method,
        payment_reference: input.payment_reference ?? null,
        price_mode: priceMode,
        subtotal: priced.subtotal,
        discount_pct: discountBp,
        discount: priced.discount,
        tax: priced.tax,
        total: priced.total,
        customer_id: customer?.id ?? null,
        customer_name: customer?.name ?? input.customer_name ?? null,
        customer_phone: customer?.phone ?? null,
        till_number: input.till_number ?? null,
        notes: input.notes ?? null,
        cashier_id: opts.cashierId ?? ctx.actor.userId,
        source: opts.source,
        device_id: opts.deviceId ?? null,
        client_created_at: opts.occurredAt ?? null,
        refund_reason: null,
        refunded_at: null,
        refunded_by: null,
        void_reason: null,
        voided_at: null,
        voided_by: null,
        created_at: at,
        updated_at: now,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    const lineRows = await tx.db
      .insertInto('transaction_lines')
      .values(
        priced.lines.map((l) => ({
          id: newId(),
          transaction_id: row.id,
          product_id: l.product_id,
          product_name: l.product_name,
          qty: l.qty,
          unit_price: l.unit_price,
          line_total: l.line_total,
          discount: l.discount,
          tax_rate: l.tax_rate,
          tax: l.tax,
          cost_price: products.get(l.product_id)!.cost_price,
        })),
      )
      .returningAll()
      .execute();
    await recordPrescriptionEntry(tx, { row, lines, products, prescription: input.prescription });
    await recordSaleLots(tx, row.id, lots);
    if (row.status === 'credit') {
      await openCreditTab(tx, { orgId, storeId, customerId: customer!.id, transactionId: row.id, amount: row.total, at });
    }
    noteChange(tx, orgId, { entity: 'transaction', id: row.id, storeId });
    await tx.events.publish(tx, {
      type: 'transaction.created',
      orgId,
      storeId,
      data: {
        transaction_id: row.id,
        number: row.number,
        receipt_number: row.receipt_number,
        status: row.status,
        payment_method: row.payment_method,
        total: fromCents(row.total),
        customer_id: row.customer_id,
        cashier_id: row.cashier_id,
        source: row.source,
        lines: priced.lines.map((l) => {
          const p = products.get(l.product_id)!;
          return { product_id: l.product_id, product_name: l.product_name, qty: l.qty, stock_after: stockAfter.get(l.product_id) ?? null, reorder_point: p.reorder_point, is_service: p.is_service === 1 };
        }),
      },
    });
    await recordAudit(tx, { action: 'sale.create', description: `Sale ${row.receipt_number}: ${fromCents(row.total)} TZS by ${row.payment_method}`, entity: 'transaction', entityId: row.id });
    return { row, lines: lineRows, lots, replayed: false, conflicts };
  });
}

/** The transaction answer (with lines) for a recorded sale. */
export async function saleAnswer(ctx: AuthedContext, sale: RecordedSale) {
  if (!sale.lines) return (await withLines(ctx.db, [sale.row]))[0]!;
  const lots = (sale.lots ?? []).map((l) => ({ id: '', transaction_id: sale.row.id, ...l }));
  return toTransaction(sale.row, sale.lines, lots);
}

