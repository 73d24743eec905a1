/**
 * Writing the server's rows into the replica: one function per entity for an upsert or a delete,
 * shared by pull and bootstrap. Each row is kept as the JSON the server sent, with the columns the
 * local reads filter on.
 */
import type { Change } from '@duka/shared';
import type { LocalTrx } from '../local/db.js';
import { toCents } from '../money.js';

type Data = Record<string, unknown>;
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

export async function applyChange(trx: LocalTrx, c: Pick<Change, 'entity' | 'op' | 'id' | 'data'>): Promise<void> {
  if (c.op === 'delete' || !c.data) return removeRow(trx, c.entity, c.id);
  const d = c.data;
  const data = JSON.stringify(d);
  switch (c.entity) {
    case 'category': {
      const row = { id: c.id, name: String(d.name ?? ''), sort_order: Number(d.sort_order ?? 0), data };
      await trx.insertInto('categories').values(row).onConflict((oc) => oc.column('id').doUpdateSet(row)).execute();
      return;
    }
    case 'product': {
      const row = { id: c.id, name: String(d.name ?? ''), sku: str(d.sku), barcode: str(d.barcode), category_id: str(d.category_id), is_active: d.is_active === false ? 0 : 1, data };
      await trx.insertInto('products').values(row).onConflict((oc) => oc.column('id').doUpdateSet(row)).execute();
      // The product carries its store level as read with it: as fresh as a `stock` change.
      if (d.is_service !== true && typeof d.stock === 'number') await setStock(trx, c.id, d.stock);
      return;
    }
    case 'stock':
      await setStock(trx, c.id, Number(d.stock ?? 0));
      return;
    case 'customer': {
      const row = { id: c.id, name: String(d.name ?? ''), phone: str(d.phone), outstanding: toCents(Number(d.outstanding_balance ?? 0)), data };
      await trx.insertInto('customers').values(row).onConflict((oc) => oc.column('id').doUpdateSet(row)).execute();
      return;
    }
    case 'credit_tab': {
      const row = { id: c.id, customer_id: String(d.customer_id), created_at: String(d.created_at ?? ''), data };
      await trx.insertInto('credit_tabs').values(row).onConflict((oc) => oc.column('id').doUpdateSet(row)).execute();
      return;
    }
    case 'transaction': {
      const row = {
        id: c.id,
        created_at: String(d.created_at ?? ''),
        client_receipt_number: str(d.client_receipt_number),
        number: typeof d.number === 'number' ? d.number : null,
        receipt_number: str(d.receipt_number),
        status: String(d.status ?? ''),
        sync_state: 'synced' as const,
        data,
      };
      await trx.insertInto('transactions').values(row).onConflict((oc) => oc.column('id').doUpdateSet(row)).execute();
      return;
    }
    case 'notification': {
      const row = { id: c.id, created_at: String(d.created_at ?? ''), is_read: d.is_read === true ? 1 : 0, data };
      await trx.insertInto('notifications').values(row).onConflict((oc) => oc.column('id').doUpdateSet(row)).execute();
      return;
    }
    default: {
      const row = { entity: c.entity, id: c.id, data };
      await trx.insertInto('rows').values(row).onConflict((oc) => oc.columns(['entity', 'id']).doUpdateSet({ data })).execute();
    }
  }
}

async function setStock(trx: LocalTrx, productId: string, qty: number): Promise<void> {
  await trx.insertInto('stock').values({ product_id: productId, qty }).onConflict((oc) => oc.column('product_id').doUpdateSet({ qty })).execute();
}

async function removeRow(trx: LocalTrx, entity: string, id: string): Promise<void> {
  switch (entity) {
    case 'category':
      await trx.deleteFrom('categories').where('id', '=', id).execute();
      return;
    case 'product':
      await trx.deleteFrom('products').where('id', '=', id).execute();
      await trx.deleteFrom('stock').where('product_id', '=', id).execute();
      return;
    case 'stock':
      await trx.deleteFrom('stock').where('product_id', '=', id).execute();
      return;
    case 'customer':
      await trx.deleteFrom('customers').where('id', '=', id).execute();
      return;
    case 'credit_tab':
      await trx.deleteFrom('credit_tabs').where('id', '=', id).execute();
      return;
    case 'transaction':
      // Gone from the till's set (older than 30 days, another store's): a refused local sale stays.
      await trx.deleteFrom('transactions').where('id', '=', id).where('sync_state', '!=', 'rejected').execute();
      return;
    case 'notification':
      await trx.deleteFrom('notifications').where('id', '=', id).execute();
      return;
    default:
      await trx.deleteFrom('rows').where('entity', '=', entity).where('id', '=', id).execute();
  }
}

/** Empty what a bootstrap replaces: every server row, but not the till's own unsynced or refused sales. */
export async function clearReplica(trx: LocalTrx): Promise<void> {
  for (const table of ['rows', 'categories', 'products', 'stock', 'customers', 'credit_tabs', 'notifications'] as const) {
    await trx.deleteFrom(table).execute();
  }
  await trx.deleteFrom('transactions').where('sync_state', '=', 'synced').execute();
}

export const parseData = <T = Data>(json: string): T => JSON.parse(json) as T;
