/** A pharmacy, its medicines and the lots it receives, made through the API, and the batch invariant. */
import type { Kysely } from 'kysely';
import { expect } from 'vitest';
import type { Database } from '../../server/src/db/database.js';
import { registerOwner, type Session } from './factories.js';
import { newDelivery, newSupplier } from './suppliers-factories.js';
import type { TestApp } from './test-app.js';

type Who = { token: string };

/** A prescription as a pharmacist copies it from the paper. */
export const PRESCRIPTION = {
  patient_name: 'Neema Joseph',
  patient_age: 34,
  patient_sex: 'female',
  prescriber_name: 'Dr. Baraka Mwita',
  prescriber_registration_number: 'MCT-4471',
  facility: 'Mwananyamala Hospital',
  date_written: '2026-01-10',
} as const;

export const pharmacyOwner = (t: TestApp) =>
  registerOwner(t, { shop: { name: 'Famasia ya Upendo', business_type: 'pharmacy', region: 'dar-es-salaam', district: 'Ilala' } });

/** A batch-tracked medicine (OTC unless the body says otherwise). */
export async function newMedicine(t: TestApp, s: Who, body: Record<string, unknown> = {}) {
  const res = await t.request('POST', '/inventory/products', {
    token: s.token,
    body: {
      name: 'Panadol 500mg',
      generic_name: 'Paracetamol',
      strength: '500 mg',
      dosage_form: 'tablet',
      schedule: 'otc',
      selling_price: 500,
      cost_price: 300,
      ...body,
    },
  });
  expect(res.status, res.text).toBe(200);
  return res.body.data as { id: string; name: string; track_batches: boolean };
}

export interface LotIn {
  product_id: string;
  lot_number: string;
  expiry_date: string;
  qty: number;
  unit_cost?: number;
}

/** A delivered delivery of these lots from a new supplier: its lines go into their batches. */
export async function receiveLots(t: TestApp, s: Who, lots: LotIn[]) {
  const supplier = await newSupplier(t, s, { name: 'Medisel Tanzania' });
  return newDelivery(t, s, supplier.id, { status: 'delivered', lines: lots.map((l) => ({ unit_cost: 300, ...l })) });
}

export interface BatchState {
  lot_number: string;
  status: string;
  qty_on_hand: number;
  source_batch_id: string | null;
}

/** A product's batches in a store as the database holds them, by lot then quarantine rows. */
export async function batchRows(t: TestApp, storeId: string, productId: string) {
  const rows = await t.db.db
    .selectFrom('batches')
    .selectAll()
    .where('store_id', '=', storeId)
    .where('product_id', '=', productId)
    .orderBy('lot_number')
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map((r) => ({
    id: r.id,
    lot_number: r.lot_number,
    expiry_date: r.expiry_date,
    status: r.status,
    qty_on_hand: Number(r.qty_on_hand),
    source_batch_id: r.source_batch_id,
  }));
}

/**
 * The invariant of issue 14: in every store, the stock of a batch-tracked product is the sum of its
 * sellable batches, and the running sum of the ledger's stock changes. Fails naming what drifted.
 */
export async function expectBatchesMatchStock(t: TestApp, s: Pick<Session, 'orgId'>) {
  expect(await batchDrift(t.db.db, s.orgId)).toEqual([]);
}

/** What breaks the invariant above in an organisation, one line each (the chaos run reads its server's database with it). */
export async function batchDrift(db: Kysely<Database>, orgId: string): Promise<string[]> {
  const tracked = await db
    .selectFrom('products as p')
    .innerJoin('product_stock as ps', 'ps.product_id', 'p.id')
    .select(['p.id', 'p.name', 'ps.store_id', 'ps.qty'])
    .where('p.org_id', '=', orgId)
    .where('p.track_batches', '=', 1)
    .execute();
  const drift: string[] = [];
  for (const p of tracked) {
    const sellable = await db
      .selectFrom('batches')
      .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('qty_on_hand'), eb.lit(0)).as('n'))
      .where('store_id', '=', p.store_id)
      .where('product_id', '=', p.id)
      .where('status', '=', 'sellable')
      .executeTakeFirstOrThrow();
    const ledger = await db
      .selectFrom('batch_movements')
      .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('stock_change'), eb.lit(0)).as('n'))
      .where('store_id', '=', p.store_id)
      .where('product_id', '=', p.id)
      .executeTakeFirstOrThrow();
    const held = (
      await db
        .selectFrom('batches')
        .select(['qty_on_hand', 'id'])
        .where('store_id', '=', p.store_id)
        .where('product_id', '=', p.id)
        .execute()
    ).map((b) => b.id);
    const rowsAfter = await Promise.all(
      held.map(async (id) => {
        const last = await db
          .selectFrom('batch_movements')
          .select('qty_after')
          .where('batch_id', '=', id)
          .orderBy('created_at', 'desc')
          .orderBy('id', 'desc')
          .limit(1)
          .executeTakeFirst();
        const row = await db.selectFrom('batches').select('qty_on_hand').where('id', '=', id).executeTakeFirstOrThrow();
        return last === undefined || Number(last.qty_after) === Number(row.qty_on_hand)
          ? null
          : `batch ${id}: ledger says ${last.qty_after}, row holds ${row.qty_on_hand}`;
      }),
    );
    if (Number(sellable.n) !== Number(p.qty)) drift.push(`${p.name} in ${p.store_id}: stock ${p.qty}, sellable batches ${sellable.n}`);
    if (Number(ledger.n) !== Number(p.qty)) drift.push(`${p.name} in ${p.store_id}: stock ${p.qty}, ledger ${ledger.n}`);
    drift.push(...rowsAfter.filter((x): x is string => x !== null));
  }
  return drift;
}
