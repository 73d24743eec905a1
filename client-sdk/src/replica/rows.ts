/**
 * The server's rows as the replica's: one mapping per entity (its table, its key, the columns local
 * reads filter on, the JSON the server sent), the one piece of code that says how a change becomes
 * a row. Pulls and the Node bootstrap write its rows through Kysely (`apply.ts`); a browser's worker
 * runs it on a bootstrap page it decoded itself (`stage-page.ts`). Pure: it imports no database.
 */
import { isUnit, toCents, unitScale } from '@duka/shared';

type Data = Record<string, unknown>;
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/** One entity's rows in the replica: its table, its key, and the columns local reads filter on. */
export interface Spec {
  table: 'categories' | 'products' | 'customers' | 'credit_tabs' | 'transactions' | 'notifications' | 'stock' | 'batches' | 'rows';
  key: string[];
  row(id: string, d: Data, data: string, entity: string): Record<string, unknown>;
}

export const SPECS: Record<string, Spec> = {
  category: {
    table: 'categories',
    key: ['id'],
    row: (id, d, data) => ({ id, name: String(d.name ?? ''), sort_order: Number(d.sort_order ?? 0), data }),
  },
  product: {
    table: 'products',
    key: ['id'],
    row: (id, d, data) => ({
      id,
      name: String(d.name ?? ''),
      sku: str(d.sku),
      barcode: str(d.barcode),
      category_id: str(d.category_id),
      is_active: d.is_active === false ? 0 : 1,
      generic_name: str(d.generic_name),
      data,
    }),
  },
  // In counts (issue 51): the product's, or the stock change's, unit says how many a unit is.
  stock: { table: 'stock', key: ['product_id'], row: (id, d) => ({ product_id: id, qty: countOf(Number(d.stock ?? 0), d.unit) }) },
  customer: {
    table: 'customers',
    key: ['id'],
    row: (id, d, data) => ({
      id,
      name: String(d.name ?? ''),
      phone: str(d.phone),
      outstanding: toCents(Number(d.outstanding_balance ?? 0)),
      data,
    }),
  },
  credit_tab: {
    table: 'credit_tabs',
    key: ['id'],
    row: (id, d, data) => ({ id, customer_id: String(d.customer_id), created_at: String(d.created_at ?? ''), data }),
  },
  transaction: {
    table: 'transactions',
    key: ['id'],
    row: (id, d, data) => ({
      id,
      created_at: String(d.created_at ?? ''),
      client_receipt_number: str(d.client_receipt_number),
      number: typeof d.number === 'number' ? d.number : null,
      receipt_number: str(d.receipt_number),
      status: String(d.status ?? ''),
      sync_state: 'synced',
      data,
    }),
  },
  // The server's row replaces the till's copy, quantity included: pulls wait for an empty queue,
  // so the server has booked every sale this till took from the batch by then.
  batch: {
    table: 'batches',
    key: ['id'],
    row: (id, d, data) => ({
      id,
      product_id: String(d.product_id),
      lot_number: String(d.lot_number ?? ''),
      expiry_date: String(d.expiry_date ?? ''),
      status: String(d.status ?? ''),
      // In counts, as the till's sales move it (issue 51): the server answers it in the batch's `unit`.
      qty_on_hand: countOf(Number(d.qty_on_hand ?? 0), d.unit),
      received_at: Date.parse(String(d.received_at)) || 0,
      data,
    }),
  },
  notification: {
    table: 'notifications',
    key: ['id'],
    row: (id, d, data) => ({ id, created_at: String(d.created_at ?? ''), is_read: d.is_read === true ? 1 : 0, data }),
  },
};
const OTHER: Spec = { table: 'rows', key: ['entity', 'id'], row: (id, _d, data, entity) => ({ entity, id, data }) };

export type ReplicaTable = Spec['table'];

/** A change as this mapping needs it (a snapshot's row, a pull's upsert). */
export interface Upserted {
  entity: string;
  id: string;
  data?: Record<string, unknown> | null;
}

/**
 * A run of one entity's upserts as the replica's rows, table by table: the entity's own and, for a
 * product, its store level (read with it: as fresh as a `stock` change).
 */
export function mapRun(run: readonly Upserted[]): Array<{ spec: Spec; rows: Array<Record<string, unknown>> }> {
  const entity = run[0]!.entity;
  const spec = SPECS[entity] ?? OTHER;
  const out = [{ spec, rows: run.map((c) => spec.row(c.id, c.data ?? {}, JSON.stringify(c.data ?? {}), entity)) }];
  if (entity === 'product') {
    const levels = run
      .filter((c) => c.data!.is_service !== true && typeof c.data!.stock === 'number')
      .map((c) => SPECS.stock!.row(c.id, c.data!, '', 'stock'));
    if (levels.length) out.push({ spec: SPECS.stock!, rows: levels });
  }
  return out;
}

/** A level as the server answers it (in the unit; none named: a piece) as the replica's exact count. */
function countOf(stock: number, unit: unknown): number {
  return Math.round(stock * unitScale(isUnit(unit) ? unit : 'piece'));
}
