/** Typed access to the replica's `meta` key-value table. */
import type { CreateSaleInput, MobileNetwork, PaymentRequestState, StockTakeSummary } from '@duka/shared';
import { type CompiledQuery, type QueryResult, sql } from 'kysely';
import { compiledOnce } from './compiled.js';
import type { LocalExec } from './db.js';

/** Every key the SDK keeps, with what it holds. */
export interface MetaValues {
  device_id: string;
  device_name: string;
  till_code: string;
  /** Store the device is registered in. */
  store_id: string;
  org_id: string;
  /** Pull cursor; absent until the first bootstrap completes. */
  cursor: string;
  access_token: string;
  refresh_token: string;
  /** Epoch ms (till clock) when the access token expires. */
  access_expires_at: number;
  user: {
    id: string;
    first_name?: string;
    last_name?: string;
    email?: string | null;
    role: string;
    perms?: string[];
    /** Signed in with a temporary password: the server allows nothing but setting a new one (`Till.setPassword`). */
    password_change_required?: boolean;
  };
  /** Last mutation seq given out. */
  last_seq: number;
  /** Highest seq the server has acknowledged. */
  last_acked_seq: number;
  /** Last till receipt number given out. */
  receipt_seq: number;
  last_sync_at: string;
  /** The sync protocol version the server last answered on push, pull or bootstrap (sync/protocol.ts). */
  server_protocol: number;
  /** Queued mutations the last push held back because the server speaks too old a protocol for them. */
  held_for_server: number;
  /** The ADDO list version the local `addo_list` came with; absent until it was first fetched. */
  addo_list_version: number;
  /** Password verifiers for signing in again offline, by identifier (see offline-sign-in.ts). */
  offline_keys: Record<
    string,
    { user: MetaValues['user']; salt: string; hash: string; iterations: number /** Epoch ms it was kept. */; at: number }
  >;
  /** Mobile-money pushes this till asked for and is not done with, by id (actions/mobile-money.ts). */
  payment_requests: Record<string, HeldPayment>;
  /** The store's open stock-takes as last fetched, by id, so the till counts offline (actions/stock-take.ts). */
  stock_takes: Record<string, TillStockTake>;
}

/** An open stock-take as the till keeps it: enough to tell offline which products it counts. */
export interface TillStockTake {
  id: string;
  scope: StockTakeSummary['scope'];
  category_id: string | null;
  note: string | null;
  opened_at: string;
  /** The products in its scope, fixed when it was opened. */
  product_ids: string[];
}

/**
 * A push the till asked for, kept until it is paid (its sale is then in `transactions`), sold for
 * cash instead, or a day old: a till that goes offline while waiting still knows what to ask about.
 */
export interface HeldPayment {
  id: string;
  /** The sale as asked, without its id: what paying in cash instead sells. */
  sale: Omit<CreateSaleInput, 'id'>;
  /** The customer's number, `+255…`. */
  phone: string;
  network: MobileNetwork | null;
  /** Epoch ms (till clock). */
  asked_at: number;
  /** The server's last word; null while the ask has no answer. */
  state: PaymentRequestState | null;
  /** TZS asked for, once the server said. */
  amount: number | null;
  /**
   * The ask got no answer and the cashier was told it failed: if it reached the server after all,
   * the till cancels it there when it can, so the customer is not asked to pay a sale taken otherwise.
   */
  abandoned: boolean;
}
export type MetaKey = keyof MetaValues;

export async function getMeta<K extends MetaKey>(db: LocalExec, key: K): Promise<MetaValues[K] | undefined> {
  const row = await db.selectFrom('meta').select('value').where('key', '=', key).executeTakeFirst();
  return row ? (JSON.parse(row.value) as MetaValues[K]) : undefined;
}

export async function setMeta<K extends MetaKey>(db: LocalExec, key: K, value: MetaValues[K]): Promise<void> {
  const v = JSON.stringify(value);
  await db
    .insertInto('meta')
    .values({ key, value: v })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value: v }))
    .execute();
}

export async function deleteMeta(db: LocalExec, ...keys: MetaKey[]): Promise<void> {
  if (keys.length) await db.deleteFrom('meta').where('key', 'in', keys).execute();
}

type Counter = 'last_seq' | 'receipt_seq';

/** Increment a counter and answer its new value (inside the caller's transaction). */
export async function nextCounter(db: LocalExec, key: Counter): Promise<number> {
  return (await nextCounters(db, [key]))[key];
}

/** The counter upsert for each set of keys, compiled once. */
const counterUpserts = new Map<string, ReturnType<typeof counterUpsert>>();
const counterUpsert = (keys: Counter[]) =>
  compiledOnce([], (db) =>
    db
      .insertInto('meta')
      .values(keys.map((key) => ({ key, value: '1' })))
      .onConflict((oc) => oc.column('key').doUpdateSet({ value: sql<string>`cast(meta.value as integer) + 1` }))
      .returning(['key', 'value']),
  );

/** Increment several counters in one statement (a sale takes a receipt number and a seq) and answer their new values. */
export async function nextCounters<K extends Counter>(db: LocalExec, keys: K[]): Promise<Record<K, number>> {
  return countersOf<K>(await db.executeQuery(countersStatement(db, keys)));
}

/** `nextCounters` as a statement to send with others (`runInOrder`); `countersOf` reads its answer. */
export function countersStatement(db: LocalExec, keys: Counter[]): CompiledQuery<{ key: string; value: string }> {
  const id = keys.join();
  let upsert = counterUpserts.get(id);
  if (!upsert) counterUpserts.set(id, (upsert = counterUpsert(keys)));
  return upsert.compile(db, {});
}

export function countersOf<K extends Counter>(result: QueryResult<unknown>): Record<K, number> {
  const rows = result.rows as Array<{ key: string; value: string }>;
  return Object.fromEntries(rows.map((r) => [r.key, Number(r.value)])) as Record<K, number>;
}
