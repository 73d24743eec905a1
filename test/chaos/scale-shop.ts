/**
 * Issue 51 in the chaos run: a third shop, whose till speaks the newer protocol the SDK till does
 * not yet (docs/testing.md). Through the same faulty network and server kills it pushes sales of
 * sugar and rice by the kilo (decimal quantities, and rice from shop-scale labels via
 * `scale_barcode`) and sales paid part cash, part M-Pesa (`payments`, cash sometimes over the total:
 * change), each push retried as is until the server answers it; and it sells soda by the crate
 * online (`POST /pos/sale` with `pack_id`: packs are not in the push protocol yet), each retried
 * with the sale's own id. All in one shift, opened by REST before selling. Its check: every sale
 * once with its total, its parts each once, receipt numbers gapless, stock exact to the gram and
 * the piece, and the shift's expected cash and M-Pesa each counting only their parts.
 */
import { lineAmount, newId, toCount, type Unit } from '@duka/shared';
import { Owner, PASSWORD } from './actors.js';
import { Rng } from './rng.js';
import { persist, sleep } from './till-common.js';

const SCALES = { enabled: true, rules: [{ prefix: '21', item_digits: 5, value: 'weight', value_digits: 5, decimals: 3 }] };
const OPENING_FLOAT = 50_000;
const TYPED_KILOS = [0.25, 0.5, 0.75, 1.5, 2.125, 0.333];
const LABEL_GRAMS = [1250, 500, 2375, 815];

interface Item {
  id: string;
  unit: Unit;
  /** TZS per unit. */
  price: number;
  /** Counts at the start. */
  stock: number;
}

interface ScaleSale {
  id: string;
  kind: 'weighed' | 'split' | 'pack';
  /** Counts taken from each product. */
  counts: Array<{ product_id: string; counts: number }>;
  /** TZS, as worked out by the shared rule. */
  total: number;
  /** The parts the sale should hold (method → TZS), in the order sent. */
  parts: Record<string, number>;
}

export interface ScaleShop {
  owner: Owner;
  items: { sugar: Item; rice: Item; soda: Item; soap: Item };
  crateId: string;
  shiftId: string;
}

/** An EAN-13 label of the rule above: item code, then the weight in grams, then the check digit. */
export function weightLabel(item: string, grams: number): string {
  const digits = `21${item}${String(grams).padStart(5, '0')}`;
  const sum = [...digits].reduce((n, d, i) => n + Number(d) * (i % 2 ? 3 : 1), 0);
  return `${digits}${(10 - (sum % 10)) % 10}`;
}

/** The shop, straight to the servers: products by the kilo and the piece, a crate of soda, the scales' layout, an open shift. */
export async function openScaleShop(apis: string[], seed: number): Promise<ScaleShop> {
  const owner = new Owner(apis);
  const phone = `065${String(1_000_000 + (seed % 8_999_999)).padStart(7, '0')}`;
  const reg = await owner.call('POST', '/auth/register', {
    first_name: 'Neema',
    last_name: 'Mizani',
    phone,
    email: `mizani.${seed}@chaos.test`,
    password: PASSWORD,
    confirm_password: PASSWORD,
    shop: { name: 'Duka la Mizani', business_type: 'retail', region: 'dar-es-salaam', district: 'Ilala' },
  });
  owner.token = reg.data.tokens.access_token;
  owner.identifier = phone;
  await owner.call('PATCH', '/accounts/organisation', { scale_barcodes: SCALES });
  const product = async (body: Record<string, unknown>): Promise<{ item: Item; packs: Array<{ id: string }> }> => {
    const p = (await owner.call('POST', '/inventory/products', body)).data;
    return { item: { id: p.id, unit: p.unit, price: p.selling_price, stock: toCount(p.stock, p.unit) }, packs: p.packs };
  };
  const sugar = await product({ name: 'Sukari', unit: 'kg', selling_price: 3200, cost_price: 2750, stock: 900.5 });
  const rice = await product({ name: 'Mchele', unit: 'kg', selling_price: 2850, cost_price: 2300, stock: 700, scale_code: '00043' });
  const soap = await product({ name: 'Sabuni', selling_price: 1500, cost_price: 1100, stock: 2000 });
  const soda = await product({
    name: 'Soda 500ml',
    selling_price: 1000,
    cost_price: 700,
    stock: 4800,
    packs: [{ name: 'Kreti', units: 24, selling_price: 22_000 }],
  });
  const shift = (await owner.call('POST', '/pos/shifts', { opening_float: OPENING_FLOAT })).data;
  return {
    owner,
    items: { sugar: sugar.item, rice: rice.item, soda: soda.item, soap: soap.item },
    crateId: soda.packs[0]!.id,
    shiftId: shift.id,
  };
}

/**
 * The shop's till: `count` sales over `durationMs` through `api` (a route of the chaos proxy),
 * each retried until the server has it. Answers what it sold, for `checkScaleShop`.
 */
export async function sellScaleShop(shop: ScaleShop, api: string, seed: number, count: number, durationMs: number): Promise<ScaleSale[]> {
  const rng = new Rng(seed);
  const till = new Owner([api]);
  till.identifier = shop.owner.identifier;
  await persist('scale till sign-in', async () => {
    till.token = (await till.call('POST', '/auth/login', { identifier: till.identifier, password: PASSWORD })).data.access_token;
  });
  const deviceId = newId();
  await persist('scale till device', () => till.call('POST', '/sync/devices', { device_id: deviceId, name: 'Mizani 1' }));
  const { sugar, rice, soda, soap } = shop.items;
  const amount = (item: Item, counts: number) => lineAmount(item.price * 100, counts, item.unit) / 100;
  const sales: ScaleSale[] = [];
  let seq = 0;
  const push = async (payload: Record<string, unknown>) => {
    const mutation = { id: newId(), seq: ++seq, type: 'sale.create', created_at: new Date().toISOString(), payload };
    const res = await persist('scale till push', () => till.call('POST', '/sync/push', { device_id: deviceId, mutations: [mutation] }));
    const result = res.data.results[0];
    if (result.status !== 'applied' && result.status !== 'duplicate')
      throw new Error(`scale till: sale ${payload.client_receipt_number} ${result.status}: ${JSON.stringify(result.error)}`);
  };
  for (let n = 1; n <= count; n++) {
    await sleep(rng.int(0, Math.ceil((2 * durationMs) / count)));
    const kind = rng.weighted({ weighed: 40, split: 35, pack: 25 });
    const id = newId();
    if (kind === 'pack') {
      const crates = rng.int(1, 2);
      await persist('scale till pack sale', () =>
        till.call('POST', '/pos/sale', {
          id,
          lines: [{ product_id: soda.id, pack_id: shop.crateId, qty: crates }],
          payment_method: 'Cash',
        }),
      );
      sales.push({
        id,
        kind,
        counts: [{ product_id: soda.id, counts: 24 * crates }],
        total: 22_000 * crates,
        parts: { Cash: 22_000 * crates },
      });
      continue;
    }
    const lines: Array<Record<string, unknown>> = [];
    const counts: ScaleSale['counts'] = [];
    let total = 0;
    const line = (item: Item, qty: number, extra: Record<string, unknown> = {}) => {
      const c = toCount(qty, item.unit);
      lines.push({ product_id: item.id, qty, unit_price: item.price, ...extra });
      counts.push({ product_id: item.id, counts: c });
      total += amount(item, c);
    };
    if (kind === 'weighed') {
      line(sugar, rng.pick(TYPED_KILOS));
      if (rng.chance(0.5)) {
        const grams = rng.pick(LABEL_GRAMS);
        line(rice, grams / 1000, { scale_barcode: weightLabel('00043', grams) });
      }
    } else {
      line(soap, rng.int(1, 3));
      if (rng.chance(0.5)) line(sugar, rng.pick(TYPED_KILOS));
    }
    const mpesa = kind === 'split' ? Math.max(1, Math.floor(total * rng.pick([0.3, 0.5, 0.8]))) : 0;
    // Cash handed over beyond the total is change: the cash part is what is left after M-Pesa.
    const handed = total - mpesa + (kind === 'split' ? rng.pick([0, 0, 500]) : 0);
    await push({
      id,
      client_receipt_number: `MZ-${n}`,
      lines,
      ...(kind === 'split'
        ? {
            payments: [
              { method: 'M-Pesa', amount: mpesa, reference: `MZ${seed}P${n}`, phone: '0754000999' },
              { method: 'Cash', amount: handed },
            ],
          }
        : { payment_method: 'Cash' }),
    });
    sales.push({ id, kind, counts, total, parts: mpesa ? { 'M-Pesa': mpesa, Cash: total - mpesa } : { Cash: total } });
  }
  return sales;
}

/** What the owner of the scale shop checks at the end, as a list of what does not hold, and its figures. */
export async function checkScaleShop(shop: ScaleShop, sales: ScaleSale[], period: string) {
  const failures: string[] = [];
  const fail = (m: string) => failures.length < 30 && failures.push(m);
  const { owner } = shop;
  const listed = await owner.all(`/pos/transactions?${period}`);
  if (listed.length !== sales.length) fail(`scale shop: ${sales.length} sales sold, ${listed.length} on the server`);
  if (new Set(listed.map((t) => t.id)).size !== listed.length) fail('scale shop: a sale listed twice');
  const numbers = listed.map((t) => t.number).sort((a, b) => a - b);
  if (numbers.some((x, i) => x !== i + 1)) fail(`scale shop: receipt numbers are not 1..${listed.length}`);
  const byId = new Map(listed.map((t) => [t.id, t]));
  for (const s of sales) {
    if (!byId.has(s.id)) {
      fail(`scale shop: ${s.kind} sale ${s.id} never reached the server`);
      continue;
    }
    const t = (await owner.call('GET', `/pos/transactions/${s.id}`)).data;
    if (t.total !== s.total) fail(`scale shop: ${s.kind} sale ${t.receipt_number}: total ${t.total}, sold for ${s.total}`);
    if (t.status !== 'paid') fail(`scale shop: ${s.kind} sale ${t.receipt_number} is ${t.status}`);
    const parts = Object.fromEntries(t.payments.map((p: { method: string; amount: number }) => [p.method, p.amount]));
    if (t.payments.length !== Object.keys(s.parts).length || JSON.stringify(parts) !== JSON.stringify({ ...parts, ...s.parts }))
      fail(`scale shop: sale ${t.receipt_number} has parts ${JSON.stringify(t.payments)}, paid ${JSON.stringify(s.parts)}`);
    const method = Object.keys(s.parts).length > 1 ? 'Mixed' : 'Cash';
    if (t.payment_method !== method) fail(`scale shop: sale ${t.receipt_number} is ${t.payment_method}, not ${method}`);
  }
  // Stock in counts: a gram of a kilo product, a piece of soda.
  const products = await owner.all('/inventory/products');
  for (const item of Object.values(shop.items)) {
    const sold = sales
      .flatMap((s) => s.counts)
      .filter((c) => c.product_id === item.id)
      .reduce((n, c) => n + c.counts, 0);
    const p = products.find((x) => x.id === item.id);
    if (toCount(p.stock, p.unit) !== item.stock - sold)
      fail(`scale shop: ${p.name} stock ${p.stock} ${p.unit}, expected ${item.stock - sold} counts`);
  }
  // The shift: each method's sales are its parts only (cash less the change); expected cash is the float and the cash parts.
  const report = (await owner.call('GET', `/pos/shifts/${shop.shiftId}`)).data.report;
  const per = (method: string) => sales.reduce((n, s) => n + (s.parts[method] ?? 0), 0);
  // A sale counts once, under its first part's method (shifts.queries.ts).
  const count = (method: string) => sales.filter((s) => Object.keys(s.parts)[0] === method).length;
  for (const method of ['Cash', 'M-Pesa']) {
    const m = report.methods.find((x: { method: string }) => x.method === method);
    const expected = method === 'Cash' ? OPENING_FLOAT + per('Cash') : per('M-Pesa');
    if (m?.sales !== per(method) || m?.sales_count !== count(method) || m?.expected !== expected)
      fail(
        `scale shop: shift ${method}: sales ${m?.sales} (${m?.sales_count}), expected ${m?.expected}; the parts make ${per(method)} (${count(method)}), expected ${expected}`,
      );
  }
  return {
    failures,
    figures: {
      'scale shop sales': sales.length,
      'scale shop weighed sales': sales.filter((s) => s.kind === 'weighed').length,
      'scale shop scale-label lines': sales.filter((s) => s.counts.some((c) => c.product_id === shop.items.rice.id)).length,
      'scale shop split-tender sales': sales.filter((s) => s.kind === 'split').length,
      'scale shop pack sales': sales.filter((s) => s.kind === 'pack').length,
      'scale shop shift cash sales': per('Cash'),
      'scale shop shift M-Pesa sales': per('M-Pesa'),
    },
  };
}
