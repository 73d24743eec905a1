/**
 * Refunds of part of a sale (issue 51, migration 0044): what each sold line has given back so far,
 * what each tender method has, and the rows a refund writes.
 */
import { newId, type PaymentMethod, SoldStatus, type Unit } from '@duka/shared';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.js';

type Sale = { id: string; org_id: string };

/** The sale's lines with what a refund needs of their products, in product-id order (the stock locks' order). */
export function refundableLines(db: Kysely<Database>, sale: Sale) {
  return db
    .selectFrom('transaction_lines as l')
    .innerJoin('products as p', (j) => j.onRef('p.org_id', '=', 'l.org_id').onRef('p.id', '=', 'l.product_id'))
    .select(['l.id', 'l.product_id', 'l.pack_id', 'l.qty', 'l.line_total', 'l.discount', 'l.tax', 'p.name', 'p.is_service'])
    .select((eb) => eb.ref('p.unit').$castTo<Unit>().as('unit'))
    .where('l.org_id', '=', sale.org_id)
    .where('l.transaction_id', '=', sale.id)
    .orderBy('l.product_id')
    .orderBy('l.id')
    .execute();
}

/** Counts and cents already refunded per sold line of these sales (none for a sale never refunded in part). */
export async function refundedByLine(db: Kysely<Database>, orgIds: string[], saleIds: string[]) {
  if (!saleIds.length) return new Map<string, { qty: number; amount: number }>();
  const rows = await db
    .selectFrom('refund_lines as rl')
    .innerJoin('refunds as r', (j) => j.onRef('r.org_id', '=', 'rl.org_id').onRef('r.id', '=', 'rl.refund_id'))
    .select((eb) => ['rl.line_id', eb.fn.sum<number>('rl.qty').as('qty'), eb.fn.sum<number>('rl.amount').as('amount')])
    .where('r.org_id', 'in', orgIds)
    .where('r.transaction_id', 'in', saleIds)
    .groupBy('rl.line_id')
    .execute();
  return new Map(rows.map((r) => [r.line_id, { qty: Number(r.qty), amount: Number(r.amount) }]));
}

/** Cents already given back per tender method by this sale's refunds. */
export async function refundedByMethod(db: Kysely<Database>, sale: Sale): Promise<Map<PaymentMethod, number>> {
  const rows = await db
    .selectFrom('refund_parts as rp')
    .innerJoin('refunds as r', (j) => j.onRef('r.org_id', '=', 'rp.org_id').onRef('r.id', '=', 'rp.refund_id'))
    .select((eb) => ['rp.method', eb.fn.sum<number>('rp.amount').as('amount')])
    .where('r.org_id', '=', sale.org_id)
    .where('r.transaction_id', '=', sale.id)
    .groupBy('rp.method')
    .execute();
  return new Map(rows.map((r) => [r.method, Number(r.amount)]));
}

export interface NewRefund {
  sale: Sale & { store_id: string };
  shiftId: string | null;
  reason: string;
  userId: string;
  now: number;
  lines: Array<{ line_id: string; product_id: string; qty: number; amount: number; tax: number }>;
  parts: Array<{ method: PaymentMethod; amount: number }>;
}

/** Writes a refund, its lines and its money per method; answers its id. */
export async function insertRefund(db: Kysely<Database>, r: NewRefund): Promise<string> {
  const id = newId();
  const org_id = r.sale.org_id;
  await db
    .insertInto('refunds')
    .values({
      org_id,
      id,
      store_id: r.sale.store_id,
      transaction_id: r.sale.id,
      shift_id: r.shiftId,
      reason: r.reason,
      amount: r.lines.reduce((s, l) => s + l.amount, 0),
      created_by: r.userId,
      created_at: r.now,
    })
    .execute();
  await db
    .insertInto('refund_lines')
    .values(r.lines.map((l) => ({ org_id, refund_id: id, ...l })))
    .execute();
  if (r.parts.length) {
    await db
      .insertInto('refund_parts')
      .values(r.parts.map((p) => ({ org_id, refund_id: id, method: p.method, amount: p.amount })))
      .execute();
  }
  return id;
}

/** Marks the sale refunded once its last part is (issue 51): as a whole refund does, by whom, when, why and from which drawer. */
export function markRefunded(
  db: Kysely<Database>,
  sale: Sale,
  by: { reason: string; now: number; userId: string; shiftId: string | null },
) {
  return db
    .updateTable('transactions')
    .set({
      status: 'refunded',
      refund_reason: by.reason,
      refunded_at: by.now,
      refunded_by: by.userId,
      reversal_shift_id: by.shiftId,
      updated_at: by.now,
    })
    .where('org_id', '=', sale.org_id)
    .where('id', '=', sale.id)
    .execute();
}

/**
 * Claims the sale for a refund of part of it while it is still sold: the row is locked until the
 * transaction ends, so two refunds of the same sale take turns and the second sees the first's
 * lines. Undefined when it is not sold any more.
 */
export function claimSoldSale(db: Kysely<Database>, sale: Sale, now: number) {
  return db
    .updateTable('transactions')
    .set({ updated_at: now })
    .where('org_id', '=', sale.org_id)
    .where('id', '=', sale.id)
    .where('status', 'in', SoldStatus.options)
    .returningAll()
    .executeTakeFirst();
}

/** Adds a refund of part to the sale's own figures (migration 0045): what reports net and what tells a read it has refund rows. */
export function addToSaleRefunds(db: Kysely<Database>, sale: Sale, amount: number, tax: number) {
  return db
    .updateTable('transactions')
    .set((eb) => ({
      part_refunds: eb('part_refunds', '+', 1),
      refunded_total: eb('refunded_total', '+', amount),
      refunded_tax: eb('refunded_tax', '+', tax),
    }))
    .where('org_id', '=', sale.org_id)
    .where('id', '=', sale.id)
    .execute();
}

/** A store's sold (paid or credit) sales in a time range with a loose line of the product, newest first (a return without a receipt looks among them). */
export function soldLinesOf(
  db: Kysely<Database>,
  scope: { orgId: string; storeId: string },
  q: { from: number; to: number; productId: string },
) {
  return db
    .selectFrom('transaction_lines as l')
    .innerJoin('transactions as t', (j) => j.onRef('t.org_id', '=', 'l.org_id').onRef('t.id', '=', 'l.transaction_id'))
    .select(['t.id', 't.receipt_number', 'l.id as line_id', 'l.qty'])
    .where('t.org_id', '=', scope.orgId)
    .where('t.store_id', '=', scope.storeId)
    .where('t.status', 'in', ['paid', 'credit'])
    .where('t.created_at', '>=', q.from)
    .where('t.created_at', '<', q.to)
    .where('l.product_id', '=', q.productId)
    .where('l.pack_id', 'is', null)
    .orderBy('t.created_at', 'desc')
    .orderBy('t.id', 'desc')
    .limit(50)
    .execute();
}
