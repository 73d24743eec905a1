/**
 * Issue 49's push shape: a shop's 20 tills all signed in with its ONE account, each till a device
 * of its own with a session of its own (its own sign-in, its own store switch), each pushing its
 * queue of 500 offline sales of 3 lines in batches of 100, all at once; in one store, then over
 * four. An outside benchmark of this shape fell to 241-256 sales/s on PostgreSQL's one store while
 * the plain push rows did not show it (their database had grown before it was analysed): a young
 * table's foreign-key checks (docs/benchmarks.md). A server and database of its own, so that
 * `--only one-account` needs nothing else.
 */
import { sql } from 'kysely';
import { createDb } from '../server/src/db/create-db.js';
import { BENCH_PASSWORD, registerOwner, type Row, startBenchServer, tokenUser } from './lib.js';
import { profilePg } from './pg-profile.js';
import { offlineSales, registerTill, seedProducts, type Till, timePushes } from './push-load.js';

const TILLS = 20;
const SALES_PER_TILL = 500;
const BATCH = 100;
const STORES = 4;
const PHONE = '0754000555';

async function post(base: string, path: string, body: unknown, headers: Record<string, string>) {
  const res = await fetch(`${base}/api/v1${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
  const json = (await res.json()) as { data: any };
  if (!res.ok) throw new Error(`POST ${path} → ${res.status}: ${JSON.stringify(json)}`);
  return json.data;
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}`, 'content-type': 'application/json' });

/** A till as a cashier sets one up: sign in with the shop's account, pick the store, register the device. */
async function tillOf(base: string, storeId: string, name: string): Promise<Omit<Till, 'mutations'>> {
  const signedIn = await post(base, '/auth/login', { identifier: PHONE, password: BENCH_PASSWORD }, { 'content-type': 'application/json' });
  const { tokens } = await post(base, '/accounts/switch-store', { store_id: storeId }, bearer(signedIn.access_token));
  const headers = bearer(tokens.access_token);
  return { id: await registerTill(base, headers, name), headers };
}

export async function oneAccountBenchmarks(database: string): Promise<Row[]> {
  const bench = await startBenchServer(database);
  const { base, dbOpts } = bench;
  const token = await registerOwner(base, PHONE, 'Duka Moja');
  const opened = async (name: string) => ((await post(base, '/stores', { name }, bearer(token))) as { id: string }).id;
  const db = createDb({ ...dbOpts, poolSize: 1 });
  const { org_id: orgId, store_id: home } = await db.db
    .selectFrom('users')
    .select(['org_id', 'store_id'])
    .where('id', '=', tokenUser(token))
    .executeTakeFirstOrThrow();
  const storeIds = [home!];
  for (const name of ['Tawi 2', 'Tawi 3', 'Tawi 4']) storeIds.push(await opened(name));
  const products = await seedProducts(db, orgId!, storeIds, 'MOJA');
  await sql.raw(dbOpts.url ? 'vacuum analyze' : 'analyze').execute(db.db);
  await db.close();

  // Signed in one after another: five sign-ins at once of one account from one address take the
  // sign-in guard's lock (423) by design.
  const tills = async (store: (d: number) => number, prefix: string): Promise<Till[]> => {
    const out: Till[] = [];
    for (let d = 0; d < TILLS; d++) {
      const till = await tillOf(base, storeIds[store(d)]!, `Till ${prefix}${d + 1}`);
      out.push({ ...till, mutations: offlineSales(products, d, SALES_PER_TILL, prefix) });
    }
    return out;
  };
  const oneTills = await tills(() => 0, 'A');
  let one!: Awaited<ReturnType<typeof timePushes>>;
  const timeOne = async () => void (one = await timePushes(base, oneTills, BATCH, bench.process.pid));
  if (process.env.BENCH_PG_STATS && dbOpts.url) await profilePg(dbOpts.url, timeOne);
  else await timeOne();
  const four = await timePushes(base, await tills((d) => d % STORES, 'B'), BATCH, bench.process.pid);
  await bench.stop();

  const sqlite = database === 'sqlite';
  // The push rows' targets (issue 39) stand; issue 49 is done at 2,000/s on PostgreSQL's one store.
  const [oneRate, fourRate, p99] = sqlite ? [4000, 5000, 1000] : [2500, 3000, 1000];
  const what = `${TILLS * SALES_PER_TILL} offline sales (3 lines), ${TILLS} tills of ONE account (a session and device each), batches of ${BATCH}`;
  return [
    {
      scenario: `push ${what}, 1 store`,
      database,
      m: one,
      target: `>= ${oneRate} sales/s${sqlite ? '' : ' (issue 49: >= 2000)'}; push p99 <= ${p99} ms`,
      met: one.errors === 0 && one.rps >= oneRate && one.p99 <= p99,
    },
    {
      scenario: `same, over ${STORES} stores`,
      database,
      m: four,
      target: `>= ${fourRate} sales/s; push p99 <= ${p99} ms`,
      met: four.errors === 0 && four.rps >= fourRate && four.p99 <= p99,
    },
  ];
}
