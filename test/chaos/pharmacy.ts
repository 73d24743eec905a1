/**
 * The chaos run's pharmacy: an organisation whose business is `pharmacy`, batch-tracked medicines
 * (one prescription-only, one controlled) received in lots by delivered deliveries, a new lot arriving while the
 * tills are cut off, and the end check of every batch against a model of what the tills sold,
 * refunded and voided.
 *
 * The model. A sale line's lots are the till's allocation when it sent one and none of its lots
 * can have run short, so the server must have kept them as sent: a lot whose received units cover
 * every unit any sale asked of it or was booked on it, or one that never stood at 0 units (a till
 * asking more than a lot holds empties it, so a lot never at 0 never cut a till's request short).
 * Otherwise the line's lots are those the server booked, which must add up to the line. Then, per lot: received − what non-voided sales took from it is its main
 * batch; what a refunded sale took from it is that sale's quarantine row; nothing else exists. And
 * stock = sellable batches = the ledger (`batchDrift`). The products' stock itself (received − what
 * non-voided sales took: refunds are quarantined, not stock) is the shop check's (`check.ts`).
 */
import { createDb } from '../../server/src/db/create-db.js';
import { batchDrift } from '../setup/pharmacy-factories.js';
import { Owner, PASSWORD } from './actors.js';
import type { TillReport, WorkerSale } from './protocol.js';

export interface Medicine {
  id: string;
  name: string;
  schedule: string;
}

export interface Pharmacy {
  owner: Owner;
  phone: string;
  orgId: string;
  medicines: Medicine[];
  /** Units received per medicine. */
  received: Map<string, number>;
  /** Units received per lot, by `${product_id}/${lot_number}`. */
  lots: Map<string, number>;
  deliveries: number;
  supplierId: string;
}

const day = (offsetDays: number) => new Date(Date.now() + 3 * 3_600_000 + offsetDays * 86_400_000).toISOString().slice(0, 10);

/**
 * The pharmacy and its first deliveries. `demand` is about how many units of each medicine the
 * tills will sell: the first-expiring lot holds a quarter of it (so sales span into the next), all
 * lots together 1.7 times it (so nothing is oversold); the first medicine's first lot holds 1.5 times it.
 */
export async function openPharmacy(apis: string[], seed: number, demand: number): Promise<Pharmacy> {
  const owner = new Owner(apis);
  const phone = `067${String(1_000_000 + (seed % 8_999_999)).padStart(7, '0')}`;
  const reg = await owner.call('POST', '/auth/register', {
    first_name: 'Neema',
    last_name: 'Kisanga',
    phone,
    email: `famasia.${seed}@chaos.test`,
    password: PASSWORD,
    confirm_password: PASSWORD,
    shop: { name: 'Famasia ya Chaos', business_type: 'pharmacy', region: 'dar-es-salaam', district: 'Ilala' },
  });
  owner.token = reg.data.tokens.access_token;
  owner.identifier = phone;
  const specs = [
    { name: 'Panadol 500mg', generic_name: 'Paracetamol', strength: '500 mg', dosage_form: 'tablet', schedule: 'otc', selling_price: 500 },
    { name: 'Amoxil 250mg', generic_name: 'Amoxicillin', strength: '250 mg', dosage_form: 'capsule', schedule: 'pom', selling_price: 1500 },
    {
      name: 'ORS Sachet',
      generic_name: 'Oral rehydration salts',
      strength: '20.5 g',
      dosage_form: 'powder',
      schedule: 'otc',
      selling_price: 700,
    },
    {
      name: 'Tramadol 50mg',
      generic_name: 'Tramadol',
      strength: '50 mg',
      dosage_form: 'capsule',
      schedule: 'controlled',
      selling_price: 2000,
    },
  ];
  const medicines: Medicine[] = [];
  for (const s of specs) {
    const p = await owner.call('POST', '/inventory/products', { ...s, cost_price: Math.round(s.selling_price * 0.6) });
    medicines.push({ id: p.data.id, name: p.data.name, schedule: s.schedule });
  }
  const supplier = await owner.call('POST', '/suppliers', { name: 'Medisel Tanzania' });
  const shop: Pharmacy = {
    owner,
    phone,
    orgId: reg.data.org_id,
    medicines,
    received: new Map(),
    lots: new Map(),
    deliveries: 0,
    supplierId: supplier.data.id,
  };
  const size = (share: number) => Math.max(5, Math.round(demand * share));
  // Two deliveries: the lot expiring first arrives in the second, so FEFO is not the order received.
  await deliver(
    shop,
    medicines.flatMap((m, i) => [{ product_id: m.id, lot_number: `L${i + 1}-B`, expiry_date: day(400), qty: size(0.45) }]),
  );
  await deliver(
    shop,
    medicines.flatMap((m, i) => [
      // The first medicine's first lot outlasts all it sells: its lines are kept as the till sent them
      // whatever the timing (the others' first lots run short, so their lines span lots).
      { product_id: m.id, lot_number: `L${i + 1}-A`, expiry_date: day(200), qty: size(i === 0 ? 1.5 : 0.25) },
      { product_id: m.id, lot_number: `L${i + 1}-C`, expiry_date: day(600), qty: size(1) },
    ]),
  );
  return shop;
}

/** A delivered delivery of these lots. */
export async function deliver(shop: Pharmacy, lots: Array<{ product_id: string; lot_number: string; expiry_date: string; qty: number }>) {
  await shop.owner.call('POST', `/suppliers/${shop.supplierId}/deliveries`, {
    status: 'delivered',
    lines: lots.map((l) => ({ ...l, unit_cost: 300 })),
  });
  shop.deliveries++;
  for (const l of lots) {
    shop.received.set(l.product_id, (shop.received.get(l.product_id) ?? 0) + l.qty);
    const key = `${l.product_id}/${l.lot_number}`;
    shop.lots.set(key, (shop.lots.get(key) ?? 0) + l.qty);
  }
}

/** During an outage: a small lot that expires before every other, which tills learn of by pull. */
export async function deliverDuringOutage(shop: Pharmacy, n: number, qty: number) {
  await deliver(
    shop,
    shop.medicines.map((m, i) => ({ product_id: m.id, lot_number: `L${i + 1}-X${n}`, expiry_date: day(100 + n), qty })),
  );
}

interface BatchRow {
  id: string;
  product_id: string;
  lot_number: string;
  status: string;
  qty_on_hand: number;
  source_batch_id: string | null;
  transaction_id: string | null;
}

/** Every batch of the pharmacy against the model, and the stock invariant, read from the server's database. */
export async function checkPharmacy(
  shop: Pharmacy,
  reports: TillReport[],
  period: string,
  dbOpts: { url?: string; sqliteFile?: string },
): Promise<{ failures: string[]; figures: Record<string, number> }> {
  const failures: string[] = [];
  const fail = (msg: string) => failures.length < 50 && failures.push(msg);
  const handle = createDb({ ...dbOpts, poolSize: 2 });
  try {
    const db = handle.db;
    const batches: BatchRow[] = (
      await db
        .selectFrom('batches')
        .select(['id', 'product_id', 'lot_number', 'status', 'qty_on_hand', 'source_batch_id', 'transaction_id'])
        .where('org_id', '=', shop.orgId)
        .execute()
    ).map((b) => ({ ...b, qty_on_hand: Number(b.qty_on_hand) }));
    // A sale's lots are its dispensing lines in the ledger.
    const booked = (
      await db
        .selectFrom('batch_movements as l')
        .select(['l.transaction_id', 'l.product_id', 'l.batch_id', 'l.qty'])
        .where('l.org_id', '=', shop.orgId)
        .where('l.kind', '=', 'dispensed')
        .execute()
    ).map((l) => ({ ...l, transaction_id: l.transaction_id!, qty: -Number(l.qty) }));
    const lotOf = new Map(batches.map((b) => [b.id, b]));
    const bookedOf = new Map<string, Map<string, number>>();
    for (const l of booked) {
      const key = `${l.transaction_id}/${l.product_id}`;
      const m = bookedOf.get(key) ?? new Map<string, number>();
      m.set(l.batch_id, (m.get(l.batch_id) ?? 0) + Number(l.qty));
      bookedOf.set(key, m);
    }

    // Which lots may have run short (see the model above).
    const sales = reports.flatMap((r) => r.sales);
    const demand = new Map<string, number>();
    for (const s of sales) {
      for (const l of s.lines) {
        const b = bookedOf.get(`${s.id}/${l.product_id}`) ?? new Map();
        const sent = new Map((l.batches ?? []).map((x) => [x.batch_id, x.qty]));
        for (const id of new Set([...b.keys(), ...sent.keys()]))
          demand.set(id, (demand.get(id) ?? 0) + Math.max(sent.get(id) ?? 0, b.get(id) ?? 0));
      }
    }
    const receivedOf = (id: string) => {
      const b = lotOf.get(id);
      return b ? (shop.lots.get(`${b.product_id}/${b.lot_number}`) ?? 0) : 0;
    };
    const lowest = await db
      .selectFrom('batch_movements')
      .select((eb) => ['batch_id', eb.fn.min<number>('qty_after').as('n')])
      .where('org_id', '=', shop.orgId)
      .groupBy('batch_id')
      .execute();
    const neverEmpty = new Set(lowest.filter((r) => Number(r.n) > 0).map((r) => r.batch_id));
    const neverShort = (id: string) =>
      lotOf.get(id)?.source_batch_id === null && (receivedOf(id) >= (demand.get(id) ?? 0) || neverEmpty.has(id));

    const figures = {
      'pharmacy lines': 0,
      'lines sent with the till’s lots': 0,
      'kept as the till sent': 0,
      'lines spanning lots': 0,
      'lots a till may have found short': 0,
    };
    const mainLeft = new Map<string, number>();
    for (const b of batches) if (b.source_batch_id === null) mainLeft.set(b.id, receivedOf(b.id));
    const quarantine = new Map<string, number>();
    for (const s of sales) {
      for (const l of s.lines) {
        figures['pharmacy lines']++;
        const b = bookedOf.get(`${s.id}/${l.product_id}`) ?? new Map<string, number>();
        const bookedTotal = [...b.values()].reduce((x, y) => x + y, 0);
        if (bookedTotal !== l.qty) fail(`sale ${s.client_receipt_number}: ${l.qty} sold, ${bookedTotal} booked on lots`);
        let lots = b;
        if (l.batches) {
          figures['lines sent with the till’s lots']++;
          const sentTotal = l.batches.reduce((x, y) => x + y.qty, 0);
          // The server keeps what each of the till's lots still holds and takes only the rest FEFO: a line booked otherwise than sent had a lot run short.
          const sentOn = new Map(l.batches.map((x) => [x.batch_id, x.qty]));
          const differs = b.size !== sentOn.size || [...b].some(([id, q]) => sentOn.get(id) !== q);
          if (sentTotal === l.qty && differs && l.batches.every((x) => (b.get(x.batch_id) ?? 0) >= x.qty))
            fail(
              `sale ${s.client_receipt_number}: the till took ${JSON.stringify(l.batches)}, the server booked ${JSON.stringify([...b])} though no lot of the till's ran short`,
            );
          if (sentTotal === l.qty && l.batches.every((x) => neverShort(x.batch_id))) {
            lots = new Map(l.batches.map((x) => [x.batch_id, x.qty]));
            const same = lots.size === b.size && [...lots].every(([id, q]) => b.get(id) === q);
            if (same) figures['kept as the till sent']++;
            else
              fail(
                `sale ${s.client_receipt_number}: the till took ${JSON.stringify(l.batches)}, lots that never ran short, but the server booked ${JSON.stringify([...b])}`,
              );
          }
        }
        if (lots.size > 1) figures['lines spanning lots']++;
        if (s.reversed === 'void') continue;
        for (const [id, q] of lots) {
          if (!mainLeft.has(id)) mainLeft.set(id, 0);
          mainLeft.set(id, mainLeft.get(id)! - q);
          if (s.reversed === 'refunded') quarantine.set(`${id}/${s.id}`, (quarantine.get(`${id}/${s.id}`) ?? 0) + q);
        }
      }
    }
    figures['lots a till may have found short'] = [...mainLeft.keys()].filter((id) => !neverShort(id)).length;

    // Every row against the model: main batches, then quarantine rows (one per refunded sale and lot).
    for (const b of batches) {
      const name = `${shop.medicines.find((m) => m.id === b.product_id)?.name} lot ${b.lot_number}`;
      if (b.source_batch_id === null) {
        const expected = mainLeft.get(b.id) ?? 0;
        if (b.qty_on_hand !== expected || b.status !== 'sellable')
          fail(`${name}: ${b.status} ${b.qty_on_hand}, expected sellable ${expected}`);
        continue;
      }
      const key = `${b.source_batch_id}/${b.transaction_id}`;
      const expected = quarantine.get(key);
      quarantine.delete(key);
      if (b.qty_on_hand !== expected || b.status !== 'quarantined')
        fail(`${name}: quarantine row of sale ${b.transaction_id} ${b.status} ${b.qty_on_hand}, expected quarantined ${expected}`);
    }
    for (const [key, q] of quarantine) fail(`no quarantine row for ${q} refunded units (lot/sale ${key})`);
    for (const [id, q] of mainLeft)
      if (!lotOf.has(id) && q !== 0) fail(`batch ${id}: the model holds ${q} units the server has no batch for`);

    for (const d of await batchDrift(db, shop.orgId)) fail(`batch invariant: ${d}`);
    const registers = await checkRegisters(shop, sales, bookedOf, period, fail);
    return {
      failures,
      figures: {
        ...figures,
        ...registers,
        'pharmacy batches checked': batches.length,
        'pharmacy quarantine rows': batches.filter((b) => b.source_batch_id !== null).length,
      },
    };
  } finally {
    await handle.close();
  }
}

/**
 * The registers an inspector reads: one prescription entry per sale that carried a prescription
 * (none doubled by a retried push or a killed server), with the patient, the quantities and the lots
 * the sale booked; and the controlled-drug register's closing balance equal to the stock.
 */
async function checkRegisters(
  shop: Pharmacy,
  sales: WorkerSale[],
  bookedOf: Map<string, Map<string, number>>,
  period: string,
  fail: (msg: string) => void,
) {
  const entries = await shop.owner.all(`/pharmacy/prescriptions?${period}`);
  const bySale = new Map<string, any>();
  for (const e of entries) {
    if (bySale.has(e.transaction_id)) fail(`prescription register: two entries for sale ${e.receipt_number}`);
    bySale.set(e.transaction_id, e);
  }
  const schedule = new Map(shop.medicines.map((m) => [m.id, m.schedule]));
  for (const s of sales) {
    const e = bySale.get(s.id);
    bySale.delete(s.id);
    if (!s.patient) {
      if (e) fail(`prescription register: an entry for sale ${s.client_receipt_number}, which sold no prescription medicine`);
      continue;
    }
    if (!e) {
      fail(`prescription register: no entry for sale ${s.client_receipt_number}`);
      continue;
    }
    const status = s.reversed ?? (s.payment_method === 'Credit' ? 'credit' : 'paid');
    if (e.prescription?.patient_name !== s.patient || e.sale_status !== status)
      fail(
        `prescription register, sale ${s.client_receipt_number}: patient ${e.prescription?.patient_name} (${e.sale_status}), expected ${s.patient} (${status})`,
      );
    const expected = s.lines
      .filter((l) => schedule.get(l.product_id) !== 'otc')
      .map((l) => `${l.product_id}×${l.qty}:${lotsText(bookedOf.get(`${s.id}/${l.product_id}`))}`)
      .sort();
    const got = e.items
      .map((i: any) => `${i.product_id}×${i.qty}:${lotsText(new Map(i.lots.map((x: any) => [x.batch_id, x.qty])))}`)
      .sort();
    if (JSON.stringify(got) !== JSON.stringify(expected))
      fail(`prescription register, sale ${s.client_receipt_number}: items ${JSON.stringify(got)}, expected ${JSON.stringify(expected)}`);
  }
  for (const e of bySale.values()) fail(`prescription register: entry for ${e.receipt_number}, a sale no till made`);

  let controlledLines = 0;
  for (const m of shop.medicines.filter((x) => x.schedule === 'controlled')) {
    const r = (await shop.owner.call('GET', `/pharmacy/registers/controlled?product_id=${m.id}&${period}`)).data;
    const stock = (await shop.owner.call('GET', `/inventory/products/${m.id}`)).data.stock;
    const sum = r.lines.reduce((x: number, l: any) => x + l.qty, 0);
    if (r.opening_balance !== 0 || r.closing_balance !== stock || sum !== stock)
      fail(
        `controlled register of ${m.name}: opening ${r.opening_balance}, lines add ${sum}, closing ${r.closing_balance}; stock ${stock}`,
      );
    controlledLines += r.lines.length;
  }
  return { 'prescription register entries': entries.length, 'controlled register lines': controlledLines };
}

const lotsText = (lots: Map<unknown, unknown> | undefined) =>
  [...(lots ?? new Map())]
    .map(([id, q]) => `${id}=${q}`)
    .sort()
    .join(',');
