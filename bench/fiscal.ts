/**
 * Selling in a store that fiscalises, beside the plain sale row: each sale is also numbered for
 * TRA inside its transaction, and after commit the queue signs it and posts it to TRA (here a
 * local fake in the bench process that verifies every signature and counter). The row is the
 * sale's own throughput; the scenario says how long after the load every receipt was acknowledged.
 */
import { makeTraCertificate } from '../test/setup/tra-cert.js';
import { TraFake } from '../test/fakes/tra-fake.js';
import { measure, type Row, statementsPer } from './lib.js';
import { within25 } from './pharmacy.js';

const TAXPAYER = { tin: '100200300', certKey: '10TZ100781' };

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

export async function fiscalSaleBenchmark(
  base: string,
  database: string,
  seconds: number,
  bench: Awaited<ReturnType<typeof startBenchTra>>,
  plain: Row,
): Promise<Row> {
  const account = { phone: '0754000555', password: 'benchmark5' };
  const reg = await call(base, 'POST', '/auth/register', null, {
    first_name: 'Fiscal',
    last_name: 'Bench',
    ...account,
    confirm_password: account.password,
    shop: { name: 'Fiscal Duka' },
  });
  const token = reg.tokens.access_token as string;
  const storeId = reg.store_id as string;
  await call(base, 'PATCH', `/stores/${storeId}`, token, { vat_enabled: true });
  const identity = { tin: TAXPAYER.tin, cert_key: TAXPAYER.certKey, cert_serial: bench.cert.serial, environment: 'test' };
  await call(base, 'PUT', `/stores/${storeId}/fiscal`, token, {
    ...identity,
    certificate: bench.cert.pfxBase64,
    certificate_password: bench.cert.password,
  });
  await call(base, 'POST', `/stores/${storeId}/fiscal/register`, token);
  await call(base, 'PUT', `/stores/${storeId}/fiscal`, token, { ...identity, enabled: true });
  const products = [];
  for (const [name, price] of [
    ['Sukari 1kg', 3500],
    ['Unga 2kg', 6500],
    ['Mafuta 1l', 5500],
  ] as const)
    products.push(await call(base, 'POST', '/inventory/products', token, { name, selling_price: price, stock: 100_000_000 }));

  const url = `${base}/api/v1/pos/sale`;
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const body = JSON.stringify({ lines: products.map((p) => ({ product_id: p.id, qty: 1 })), payment_method: 'Cash' });
  const m = await measure({ url, method: 'POST', headers, body, connections: 32, seconds });
  const statements = await statementsPer(5, () => fetch(url, { method: 'POST', headers, body }));
  const loadEnded = Date.now();
  let queue = { pending: -1 };
  while (Date.now() - loadEnded < 120_000 && queue.pending !== 0) {
    await new Promise((r) => setTimeout(r, 250));
    queue = (await call(base, 'GET', `/stores/${storeId}/fiscal`, token)).queue;
  }
  const device = bench.tra.device();
  const drained =
    queue.pending === 0
      ? `all ${device.receipts.length} receipts acknowledged ${((Date.now() - loadEnded) / 1000).toFixed(1)} s after the load`
      : `${queue.pending} receipts still waiting 120 s after the load`;
  const clean = bench.tra.violations.length === 0 && queue.pending === 0;
  const { target, enough } = within25(plain);
  return {
    scenario: `POST /pos/sale, 3 lines, fiscalising store (TRA a local fake; ${drained}${bench.tra.violations.length ? `; ${bench.tra.violations.length} TRA violations` : ''}), 32 conn`,
    database,
    m,
    target,
    met: m.errors === 0 && enough(m.rps) && clean,
    statements,
  };
}
