/**
 * Selling in a store that fiscalises, beside the same sale in a twin store that does not (same
 * products, same run, one after the other): each fiscal sale is also numbered for TRA inside its
 * transaction, and after commit the queue signs it and posts it to TRA (here a local fake in the
 * bench process that verifies every signature and counter). The row is the sale's own throughput
 * and its share of the twin's; beside it, where the time goes: the server's CPU and statements per
 * sale of each, and how far the queue had got when the load ended.
 */
import { makeTraCertificate } from '../test/setup/tra-cert.js';
import { TraFake } from '../test/fakes/tra-fake.js';
import { cpuMs, type Measured, measure, type Row, statementsPer } from './lib.js';

const TAXPAYER = { tin: '100200300', certKey: '10TZ100781' };
/** Issue 39: a fiscal sale within 25 % of a plain one. */
const TARGET_SHARE = 0.75;

/** The fake TRA the bench server is pointed at (TRA_TEST_URL), with the certificate it knows. */
export async function startBenchTra() {
  const cert = makeTraCertificate();
  const tra = new TraFake({ ...TAXPAYER, certSerial: cert.serial, publicKeyPem: cert.publicKeyPem });
  await tra.start();
  return { tra, cert };
}

async function call(base: string, method: string, path: string, token: string | null, body?: unknown) {
  const res = await fetch(`${base}/api/v1${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await res.json()) as { data: any };
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
  return json.data;
}

/** A shop of 3 products (`phone` its owner's); returns how to sell them and where. */
async function openShop(base: string, phone: string, name: string) {
  const account = { phone, password: 'benchmark5' };
  const reg = await call(base, 'POST', '/auth/register', null, {
    first_name: 'Fiscal',
    last_name: 'Bench',
    ...account,
    confirm_password: account.password,
    shop: { name },
  });
  const token = reg.tokens.access_token as string;
  const storeId = reg.store_id as string;
  await call(base, 'PATCH', `/stores/${storeId}`, token, { vat_enabled: true });
  const products = [];
  for (const [product, price] of [
    ['Sukari 1kg', 3500],
    ['Unga 2kg', 6500],
    ['Mafuta 1l', 5500],
  ] as const)
    products.push(await call(base, 'POST', '/inventory/products', token, { name: product, selling_price: price, stock: 100_000_000 }));
  const body = JSON.stringify({ lines: products.map((p) => ({ product_id: p.id, qty: 1 })), payment_method: 'Cash' });
  return { token, storeId, body, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' } };
}

/** Sales at saturation for `seconds`, with the server's CPU per sale, then the statements of one sale. */
async function sell(base: string, shop: Awaited<ReturnType<typeof openShop>>, seconds: number, serverPid: number) {
  const url = `${base}/api/v1/pos/sale`;
  const cpuFrom = cpuMs(serverPid);
  const m: Measured = await measure({ url, method: 'POST', headers: shop.headers, body: shop.body, connections: 32, seconds });
  const cpu = (cpuMs(serverPid) - cpuFrom) / Math.max(1, m.rps * seconds);
  const statements = await statementsPer(5, () => fetch(url, { method: 'POST', headers: shop.headers, body: shop.body }));
  return { m, cpu, statements };
}

export async function fiscalSaleBenchmark(
  base: string,
  database: string,
  seconds: number,
  bench: Awaited<ReturnType<typeof startBenchTra>>,
  serverPid: number,
): Promise<Row> {
  const twin = await openShop(base, '0754000556', 'Plain Duka');
  const shop = await openShop(base, '0754000555', 'Fiscal Duka');
  const identity = { tin: TAXPAYER.tin, cert_key: TAXPAYER.certKey, cert_serial: bench.cert.serial, environment: 'test' };
  await call(base, 'PUT', `/stores/${shop.storeId}/fiscal`, shop.token, {
    ...identity,
    certificate: bench.cert.pfxBase64,
    certificate_password: bench.cert.password,
  });
  await call(base, 'POST', `/stores/${shop.storeId}/fiscal/register`, shop.token);
  await call(base, 'PUT', `/stores/${shop.storeId}/fiscal`, shop.token, { ...identity, enabled: true });

  const plain = await sell(base, twin, seconds, serverPid);
  const fiscal = await sell(base, shop, seconds, serverPid);
  const loadEnded = Date.now();
  const sentInLoad = bench.tra.device().receipts.length;
  let queue = { pending: -1 };
  while (Date.now() - loadEnded < 120_000 && queue.pending !== 0) {
    await new Promise((r) => setTimeout(r, 250));
    queue = (await call(base, 'GET', `/stores/${shop.storeId}/fiscal`, shop.token)).queue;
  }
  const device = bench.tra.device();
  const drained =
    queue.pending === 0
      ? `all ${device.receipts.length} acknowledged ${((Date.now() - loadEnded) / 1000).toFixed(1)} s after the load, ${sentInLoad} during it`
      : `${queue.pending} receipts still waiting 120 s after the load`;
  const clean = bench.tra.violations.length === 0 && queue.pending === 0;
  const share = fiscal.m.rps / Math.max(1, plain.m.rps);
  const cpu = (c: number) => c.toFixed(2);
  return {
    scenario: `POST /pos/sale, 3 lines, fiscalising store (TRA a local fake; ${drained}${bench.tra.violations.length ? `; ${bench.tra.violations.length} TRA violations` : ''}), 32 conn`,
    database,
    m: fiscal.m,
    target: `>= ${Math.round(TARGET_SHARE * 100)} % of plain (>= ${Math.round(plain.m.rps * TARGET_SHARE)}/s)`,
    met: fiscal.m.errors === 0 && plain.m.errors === 0 && share >= TARGET_SHARE && clean,
    statements: fiscal.statements,
    // Where the time goes, fiscal against plain: the server's CPU and statements a sale.
    ofCeiling: `${Math.round(share * 100)} % of plain ${plain.m.rps}/s (twin shop); server CPU ${cpu(fiscal.cpu)} / ${cpu(plain.cpu)} ms, statements ${fiscal.statements} / ${plain.statements} a sale`,
  };
}
