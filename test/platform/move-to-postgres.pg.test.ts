/**
 * `npm run move-to-postgres` end to end: a shop built on an embedded SQLite file through the real
 * app (fiscal sales online and from a till, credit, a delivery, pharmacy batches and the
 * prescription register, a note, an upload; issue 51's sugar by the kilo from a scale label, a
 * carton sold as a pack, a sale paid cash + M-Pesa), stopped, moved by the real command into an empty
 * PostgreSQL, and served from there with the secret the move handed over. The same till, on the
 * same replica file, pushes and pulls on without a new bootstrap; numbers continue where they
 * stopped; the file downloads. The command refuses a server still on the file and a target in use.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, describe, expect, it, inject } from 'vitest';
import { Till } from '@duka/client-sdk';
import { createDb } from '../../server/src/db/create-db.js';
import { fillOrder } from '../../server/src/db/move/target.js';
import { isMoneyColumn } from '../../server/src/db/move/verify.js';
import { fiscalise, fiscalWorld } from '../setup/fiscal.js';
import { ONE_PIXEL_PNG, PASSWORD, registerOwner } from '../setup/factories.js';
import { newMedicine, PRESCRIPTION, pharmacyOwner, receiveLots } from '../setup/pharmacy-factories.js';
import { startScript } from '../setup/processes.js';
import { newDelivery, newSupplier } from '../setup/suppliers-factories.js';
import { createTestApp, listen, type Listening, type TestApp, testClock } from '../setup/test-app.js';
import { type S3Server, startS3Server } from '../setup/s3-server.js';
import { adminQuery, createTestDb } from '../setup/test-db.js';
import { traAnswerKeyPair } from '../setup/tra-cert.js';

const RX = { ...PRESCRIPTION, date_written: '2026-11-19' };
const SCALES = { enabled: true, rules: [{ prefix: '21', item_digits: 5, value: 'weight', value_digits: 5, decimals: 3 }] };
/** Item 00042, 1.250 kg. */
const LABEL_1250_G = '2100042012509';

describe('npm run move-to-postgres', () => {
  const w = fiscalWorld(1);
  const srcDir = mkdtempSync(path.join(tmpdir(), 'duka-move-src-'));
  const dstDir = mkdtempSync(path.join(tmpdir(), 'duka-move-dst-'));
  const dbFile = path.join(srcDir, 'duka.db');
  const tillFile = path.join(srcDir, 'till.db');
  const target = `t_move_${randomBytes(4).toString('hex')}`;
  const url = inject('pgAdminUrl').replace(/\/postgres$/, `/${target}`);
  const clock = testClock(Date.UTC(2026, 10, 20, 7, 0, 0));
  const calls: string[] = [];
  let t: TestApp | undefined;
  let http: Listening | undefined;
  let till: Till | undefined;

  const serve = async (db: Awaited<ReturnType<typeof createTestDb>>, config: Record<string, unknown>) => {
    t = await createTestApp({
      db,
      clock,
      config: { TRA_TEST_URL: w.tra.url, TRA_TIMEOUT_MS: 2_000, TRA_ANSWER_CERT: traAnswerKeyPair().publicKeyPem, ...config },
    });
    http = await listen(t);
  };
  const stop = async () => {
    await t!.deps.fiscal.idle();
    await http!.close();
    await t!.close();
  };
  const openTill = () =>
    Till.open({
      baseUrl: `${http!.origin}/api/v1`,
      dbPath: tillFile,
      deviceName: 'Counter 1',
      autoSync: false,
      fetch: (input: string, init?: RequestInit) => (calls.push(new URL(input).pathname), fetch(input, init)),
    });
  // The PostgreSQL servers keep their files in an object store: the move puts the shop's there.
  let s3: S3Server | undefined;
  const s3Env = () => Object.fromEntries(Object.entries(s3!.config).map(([k, v]) => [k, String(v)]));
  const move = async (args: string[] = []) => {
    s3 ??= await startS3Server();
    const p = startScript('server/src/cli/move-to-postgres.ts', { DATABASE_URL: url, DATA_DIR: dstDir, LOG_LEVEL: 'silent', ...s3Env() }, [
      '--from',
      srcDir,
      ...args,
    ]);
    const code = await p.exited;
    return { code, out: p.output(), err: p.errors() };
  };
  const hash = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

  afterAll(async () => {
    await till?.close();
    await http?.close().catch(() => {});
    await t?.close().catch(() => {});
    await w.tra.stop();
    await s3?.stop();
    await adminQuery(`DROP DATABASE IF EXISTS ${target} WITH (FORCE)`);
    rmSync(srcDir, { recursive: true, force: true });
    rmSync(dstDir, { recursive: true, force: true });
  });

  it('moves a stopped shop with its files and secret; the same till syncs on, numbers continue', async () => {
    await w.tra.start();
    const secret = randomBytes(48).toString('base64url');
    writeFileSync(path.join(srcDir, 'jwt-secret'), `${secret}\n`, { mode: 0o600 });
    await serve(await createTestDb({ dialect: 'sqlite', sqliteFile: dbFile }), { DATA_DIR: srcDir, JWT_SECRET: secret });
    const a = t!;
    const call = async (method: string, p: string, token: string, body?: unknown) => {
      const res = await a.request(method, p, { token, body });
      expect(res.status, res.text).toBeLessThan(300);
      return res.body.data;
    };

    const owner = await registerOwner(a);
    await fiscalise(a, w, owner, 0);
    const soda = await call('POST', '/inventory/products', owner.token, {
      name: 'Soda 500ml',
      selling_price: 1000,
      cost_price: 700,
      stock: 50,
    });
    const customer = await call('POST', '/customers', owner.token, { name: 'Bi. Zuhura', phone: '0713000111' });
    await call('POST', '/pos/sale', owner.token, { lines: [{ product_id: soda.id, qty: 2 }], payment_method: 'Cash' });
    await call('POST', '/pos/sale', owner.token, {
      lines: [{ product_id: soda.id, qty: 3 }],
      payment_method: 'Credit',
      customer_id: customer.id,
    });
    await call('POST', `/credits/customers/${customer.id}/payments`, owner.token, { method: 'M-Pesa', amount: 1500 });
    const supplier = await newSupplier(a, owner);
    await newDelivery(a, owner, supplier.id, { status: 'delivered', lines: [{ product_id: soda.id, qty: 24, unit_cost: 650 }] });
    // Issue 51: a carton of soda sold as a pack; sugar by the kilo, half a kilo typed and 1.25 kg
    // from a scale label, paid part cash and part M-Pesa.
    const [crate] = (
      await call('PATCH', `/inventory/products/${soda.id}`, owner.token, { packs: [{ name: 'Kreti', units: 24, selling_price: 22_000 }] })
    ).packs;
    await call('POST', '/pos/sale', owner.token, { lines: [{ product_id: soda.id, pack_id: crate.id, qty: 1 }], payment_method: 'Cash' });
    await call('PATCH', '/accounts/organisation', owner.token, { scale_barcodes: SCALES });
    const sugar = await call('POST', '/inventory/products', owner.token, {
      name: 'Sukari',
      unit: 'kg',
      selling_price: 3200,
      cost_price: 2750,
      stock: 25.5,
      scale_code: '00042',
    });
    const weighed = await call('POST', '/pos/sale', owner.token, {
      lines: [{ product_id: sugar.id, qty: 0.5 }, { scale_barcode: LABEL_1250_G }],
      payments: [
        { method: 'Cash', amount: 2000 },
        { method: 'M-Pesa', amount: 3600, reference: 'QK51SPLIT1', phone: '0754000222' },
      ],
    });
    expect(weighed.total).toBe(5600);
    expect(weighed.payment_method).toBe('Mixed');
    const sugarBefore = await call('GET', `/inventory/products/${sugar.id}`, owner.token);
    expect(sugarBefore.stock).toBe(23.75);
    expect(await a.db.db.selectFrom('product_stock').select('qty').where('product_id', '=', sugar.id).executeTakeFirst()).toEqual({
      qty: 23_750,
    });
    await call('POST', '/notebook', owner.token, { title: 'Stock take', content: 'Count the sodas on Friday', tags: ['stock'] });
    const form = new FormData();
    form.append('file', new File([ONE_PIXEL_PNG], 'soda.png'));
    form.append('kind', 'image');
    const photo = (await a.request('POST', '/uploads', { token: owner.token, form })).body.data;

    const chemist = await pharmacyOwner(a);
    const amoxil = await newMedicine(a, chemist, {
      name: 'Amoxil 250mg',
      generic_name: 'Amoxicillin',
      strength: '250 mg',
      dosage_form: 'capsule',
      schedule: 'pom',
    });
    await receiveLots(a, chemist, [{ product_id: amoxil.id, lot_number: 'AMX-1', expiry_date: '2028-06-30', qty: 30 }]);
    await call('POST', '/pos/sale', chemist.token, {
      lines: [{ product_id: amoxil.id, qty: 2 }],
      payment_method: 'Cash',
      prescription: RX,
    });

    till = await openTill();
    await till.login(owner.phone, PASSWORD);
    await till.syncNow();
    for (let i = 0; i < 3; i++) await till.sell({ lines: [{ product_id: soda.id, qty: 1 }], payment_method: 'Cash' });
    expect((await till.syncNow()).pushed).toBe(3);
    await a.deps.fiscal.idle();
    // Read once TRA has acknowledged it, as the move finds it.
    const weighedBefore = await call('GET', `/pos/transactions/${weighed.id}`, owner.token);
    const before = await a.db.db.selectFrom('organisations').select('version').where('id', '=', owner.orgId).executeTakeFirstOrThrow();
    const lastReceipt = await a.db.db.selectFrom('stores').select('last_number').where('id', '=', owner.storeId).executeTakeFirstOrThrow();
    expect(w.tra.device(w.certs[0]!.serial).receipts.map((r) => r.gc)).toEqual([1, 2, 3, 4, 5, 6, 7]);

    // Still open, in a process without a pid file: its log gives it away, or else its lock.
    const busy = await move();
    expect(busy.code).toBe(1);
    expect(busy.err).toMatch(
      /duka\.db is in use, or its server was not stopped cleanly \(duka\.db-wal holds changes not yet in the database file\)/,
    );
    await sql`pragma wal_checkpoint(TRUNCATE)`.execute(a.db.db);
    const locked = await move();
    expect(locked.code).toBe(1);
    expect(locked.err).toMatch(/duka\.db is open in another process \(a server\?\); stop it before moving/);
    await till.close();
    till = undefined;
    await stop();
    writeFileSync(path.join(srcDir, 'server.pid'), `${process.pid}\n`);
    const pidded = await move();
    expect(pidded.code).toBe(1);
    expect(pidded.err).toMatch(new RegExp(`a server \\(pid ${process.pid}\\) is running on .*duka\\.db; stop it before moving`));
    rmSync(path.join(srcDir, 'server.pid'));

    await adminQuery(`CREATE DATABASE ${target}`);
    const untouched = hash(dbFile);
    const moved = await move(['--secret-file', path.join(dstDir, 'jwt-secret')]);
    expect(moved.code, moved.err).toBe(0);
    expect(hash(dbFile)).toBe(untouched);
    expect(moved.out).not.toContain(secret);
    expect(readFileSync(path.join(dstDir, 'jwt-secret'), 'utf8')).toBe(`${secret}\n`);
    expect(moved.out).toMatch(/secret: from .*jwt-secret \(sha256:[0-9a-f]{16}\); it opens the [1-9]\d* kind\(s\) of sealed values/);
    expect(moved.out).toMatch(
      /^transactions +8 +8 +subtotal \d+, discount \d+, tax \d+, total \d+, refunded_total \d+, refunded_tax \d+$/m,
    );
    expect(moved.out).toMatch(/^credit_payments +1 +1 +amount 150000$/m);
    expect(moved.out).toMatch(/^prescriptions +1 +1 *$/m);
    expect(moved.out).toMatch(/^batches +1 +1 +cost_price 30000$/m);
    expect(moved.out).toMatch(/^files: 1 \(\d+ bytes\) in s3:\/\/duka-files\/ at 127\.0\.0\.1:\d+$/m);
    expect(await s3!.keys()).toEqual([photo.key]);
    expect(moved.out).not.toMatch(/✗|≠/);
    expect(moved.out).not.toMatch(/products_fts/);

    const again = await move();
    expect(again.code).toBe(1);
    expect(again.err).toMatch(
      /the target database is not empty \(2 organisation\(s\) and 2 user\(s\)\): a move only fills an empty database/,
    );

    const handle = createDb({ url, poolSize: 5 });
    await serve(
      { ...handle, url, drop: () => handle.close() },
      { DATA_DIR: dstDir, JWT_SECRET: readFileSync(path.join(dstDir, 'jwt-secret'), 'utf8').trim(), ...s3!.config },
    );
    const b = t!;
    expect(b.dialect).toBe('postgres');
    // The owner's token from the SQLite server still signs in: same secret.
    const served = await b.app.request(photo.url, { headers: { authorization: `Bearer ${owner.token}` } });
    expect(served.status).toBe(200);
    expect(Buffer.from(await served.arrayBuffer()).equals(ONE_PIXEL_PNG)).toBe(true);

    calls.length = 0;
    till = await openTill();
    for (let i = 0; i < 2; i++) await till.sell({ lines: [{ product_id: soda.id, qty: 1 }], payment_method: 'Cash' });
    const report = await till.syncNow();
    expect(report.pushed).toBe(2);
    expect(calls.filter((c) => c.includes('/bootstrap'))).toEqual([]);
    const online = (
      await b.request('POST', '/pos/sale', {
        token: owner.token,
        body: { lines: [{ product_id: soda.id, qty: 1 }], payment_method: 'Cash' },
      })
    ).body.data;
    await b.deps.fiscal.idle();
    await till.syncNow();

    // 50 - 2 - 3 + 24 - 24 (a crate) - 3 (till) - 2 (till) - 1 (online)
    const sodaAfter = (await b.request('GET', `/inventory/products/${soda.id}`, { token: owner.token })).body.data;
    expect(sodaAfter.stock).toBe(39);
    expect(sodaAfter.packs).toEqual([crate]);
    // The weighed, split sale and the sugar to the gram, as the SQLite server answered them.
    expect((await b.request('GET', `/pos/transactions/${weighed.id}`, { token: owner.token })).body.data).toEqual(weighedBefore);
    expect(weighedBefore.payments.map((p: { method: string; amount: number }) => [p.method, p.amount])).toEqual([
      ['Cash', 2000],
      ['M-Pesa', 3600],
    ]);
    expect(weighedBefore.lines.map((l: { qty: number }) => l.qty)).toEqual([1.75]);
    expect((await b.request('GET', `/inventory/products/${sugar.id}`, { token: owner.token })).body.data).toEqual(sugarBefore);
    expect(await b.db.db.selectFrom('product_stock').select('qty').where('product_id', '=', sugar.id).executeTakeFirst()).toEqual({
      qty: 23_750,
    });
    expect((await b.request('GET', '/accounts/organisation', { token: owner.token })).body.data.scale_barcodes).toEqual(SCALES);
    expect(till.status().pending).toBe(0);
    const store = await b.db.db.selectFrom('stores').select('last_number').where('id', '=', owner.storeId).executeTakeFirstOrThrow();
    // The till's two, then the online sale: numbered on from where the SQLite server stopped.
    expect(Number(store.last_number)).toBe(Number(lastReceipt.last_number) + 3);
    expect(online.receipt_number).toMatch(new RegExp(`\\D0*${Number(lastReceipt.last_number) + 3}$`));
    const versions = (
      await b.db.db
        .selectFrom('change_log')
        .select('version')
        .where('org_id', '=', owner.orgId)
        .where('version', '>', before.version)
        .orderBy('version')
        .execute()
    ).map((r) => Number(r.version));
    expect(versions[0]).toBe(Number(before.version) + 1);
    expect(versions).toEqual(versions.map((_, i) => Number(before.version) + 1 + i));
    // TRA's counters continue: the fake refuses a gap or a repeat.
    expect(w.tra.device(w.certs[0]!.serial).receipts.map((r) => r.gc)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(w.tra.violations).toEqual([]);
    expect(await till.stock(soda.id)).toBe(39);
  }, 90_000);

  it('fills parents before children and refuses a cycle; knows money from rates, counts and times', () => {
    const parents = (o: Record<string, string[]>) => new Map(Object.entries(o).map(([k, v]) => [k, new Set(v)]));
    expect(fillOrder(parents({ lines: ['sales', 'products'], sales: ['stores'], products: ['stores'], stores: [] }))).toEqual([
      'stores',
      'products',
      'sales',
      'lines',
    ]);
    expect(() => fillOrder(parents({ a: ['b'], b: ['a'], c: [] }))).toThrow('these tables refer to each other in a cycle: a, b');
    const money = [
      'amount',
      'subtotal',
      'total',
      'cost_price',
      'refund_total',
      'price_monthly',
      'cost_cents',
      'credit_limit',
      'total_value',
    ];
    const notMoney = ['tax_rate', 'discount_pct', 'paid_at', 'refund_count', 'last_number', 'version', 'wholesale_min_qty'];
    expect(money.filter((c) => isMoneyColumn(c, 'bigint'))).toEqual(money);
    expect(notMoney.filter((c) => isMoneyColumn(c, 'bigint'))).toEqual([]);
    expect(isMoneyColumn('amount', 'text')).toBe(false);
  });
});
