/**
 * The sale's one read (issue 53): the shop (organisation, store, till code, signed-in user), the
 * lines' products with their local stock, and that user's open shift, in ONE statement, as the
 * server reads its sale set under the store lock. In the browser every statement is a round trip to
 * the replica's worker, and in Node a build by Kysely and a promise round: four reads were three
 * statements. Compiled once per number of distinct products (a sale of 5 products: one SQL text).
 *
 * The sale's receipt number and queue seq are taken in the same round trip (`runInOrder`): they
 * depend on nothing read, and the counters move inside the sale's transaction, so a sale refused
 * later takes back its number with the rest. In the browser the sale is then two messages to the
 * worker, this one (with the transaction's `begin`) and its writes with the commit.
 */
import type { Product } from '@duka/shared';
import { sql } from 'kysely';
import { runInOrder } from '../../local/batch.js';
import { compiledOnce } from '../../local/compiled.js';
import type { LocalExec } from '../../local/db.js';
import { countersOf, countersStatement } from '../../local/meta.js';
import { productFrom, type ShopRows, shopFrom } from '../../reads.js';

export interface SaleRead {
  shop: ShopRows;
  products: Map<string, Product>;
  /** The signed-in user's open shift on this till; none open (or nobody signed in): undefined. */
  openShift: string | undefined;
  /** The counters as moved for this sale: its till receipt seq and its queue seq. */
  counters: SaleCounters;
}

export type SaleCounters = Record<'receipt_seq' | 'last_seq', number>;

const none = sql<number | null>`null`;
/** The user's id inside `meta`'s JSON: the shift is found in the same statement that reads the user. */
const signedIn = sql<string>`(select json_extract(value, '$.id') from meta where key = 'user')`;

const build = (count: number) =>
  compiledOnce(
    Array.from({ length: count }, (_, i) => `p${i}`),
    (db, v) =>
      db
        .selectFrom('rows')
        .select([sql.lit('shop').as('kind'), 'entity as key', 'data', none.as('qty')])
        .where('entity', 'in', ['organisation', 'store'])
        .unionAll(
          db
            .selectFrom('meta')
            .select([sql.lit('shop').as('kind'), 'key', 'value as data', none.as('qty')])
            .where('key', 'in', ['till_code', 'user']),
        )
        .unionAll(
          db
            .selectFrom('shifts')
            .select([sql.lit('shift').as('kind'), 'id as key', sql<string>`''`.as('data'), none.as('qty')])
            .where('status', '=', 'open')
            .where('cashier_id', '=', signedIn),
        )
        .unionAll(
          db
            .selectFrom('products as p')
            .leftJoin('stock as s', 's.product_id', 'p.id')
            .select([sql.lit('product').as('kind'), 'p.id as key', 'p.data', 's.qty'])
            .where('p.id', 'in', Object.values(v)),
        ),
  );

const byCount = new Map<number, ReturnType<typeof build>>();

/** `productIds`: distinct, at least one (a sale has a line). */
export async function saleRead(db: LocalExec, productIds: string[]): Promise<SaleRead> {
  let read = byCount.get(productIds.length);
  if (!read) byCount.set(productIds.length, (read = build(productIds.length)));
  const [found, counted] = await runInOrder(db, [
    read.compile(db, Object.fromEntries(productIds.map((id, i) => [`p${i}`, id]))),
    countersStatement(db, ['receipt_seq', 'last_seq']),
  ]);
  const rows = found!.rows as Array<{ kind: string; key: string; data: string; qty: number | null }>;
  const products = new Map<string, Product>();
  for (const r of rows) if (r.kind === 'product') products.set(r.key, productFrom({ data: r.data, qty: r.qty }));
  return {
    shop: shopFrom(rows.filter((r) => r.kind === 'shop')),
    products,
    openShift: rows.find((r) => r.kind === 'shift')?.key,
    counters: countersOf(counted!),
  };
}
