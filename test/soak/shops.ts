/**
 * The soak's town: shops of a few tills each, every one its own organisation with an owner, ten
 * products and plenty of stock. While the tills sell, each owner browses the back office (reports,
 * analytics, the sales list, the catalogue) at their own seeded pace and now and then books a
 * delivery (a stock adjustment, so the adjust path the bench saw drift runs all along).
 */
import { Owner, PASSWORD } from '../chaos/actors.js';
import { Rng } from '../chaos/rng.js';
import { sleep } from '../chaos/till-common.js';

export interface Shop {
  name: string;
  owner: Owner;
  phone: string;
  productIds: string[];
  startStock: Map<string, number>;
  initialPrice: Map<string, number>;
  /** Units the owner's deliveries added, per product. */
  adjustments: Map<string, number>;
  deliveries: number;
}

export async function openShop(urls: string[], seed: number, i: number): Promise<Shop> {
  const owner = new Owner(urls);
  const phone = `075${String((seed * 1_000 + i) % 10_000_000).padStart(7, '0')}`;
  const reg = await owner.call('POST', '/auth/register', {
    first_name: 'Neema',
    last_name: `Soak ${i + 1}`,
    phone,
    email: `owner.${seed}.${i}@soak.test`,
    password: PASSWORD,
    confirm_password: PASSWORD,
    shop: { name: `Duka la ${i + 1}`, business_type: 'retail', region: 'dar-es-salaam', district: 'Ilala' },
  });
  owner.token = reg.data.tokens.access_token;
  owner.identifier = phone;
  const shop: Shop = {
    name: `shop ${i + 1}`,
    owner,
    phone,
    productIds: [],
    startStock: new Map(),
    initialPrice: new Map(),
    adjustments: new Map(),
    deliveries: 0,
  };
  for (let k = 0; k < 10; k++) {
    const price = (k + 1) * 300 + 200 * (k % 3);
    const p = await owner.call('POST', '/inventory/products', {
      name: `Bidhaa ${k + 1}`,
      sku: `SK-${k + 1}`,
      cost_price: Math.round(price * 0.7),
      selling_price: price,
      stock: 1_000_000,
    });
    shop.productIds.push(p.data.id);
    shop.startStock.set(p.data.id, 1_000_000);
    shop.initialPrice.set(p.data.id, price);
  }
  return shop;
}

const localDate = (ms: number) => new Date(ms + 3 * 3_600_000).toISOString().slice(0, 10);

/** What an owner looks at in the back office, one page each. */
const BROWSE: Array<(today: string) => [method: 'GET' | 'POST', path: string, body?: unknown]> = [
  () => ['GET', '/analytics/overview'],
  () => ['GET', '/analytics/summary'],
  (today) => ['GET', `/analytics/dashboard?date_to=${today}`],
  () => ['GET', '/analytics/sales'],
  () => ['GET', '/analytics/products?page=1&page_size=20'],
  () => ['GET', '/analytics/cashflow'],
  () => ['GET', '/pos/transactions?page=1&page_size=20'],
  () => ['GET', '/inventory/products?page=1&page_size=50'],
  () => ['POST', '/reports/generate', { report_type: 'sales', format: 'json', range: '7d' }],
];

/**
 * Browse until `until`, a page every `meanMs` or so (half to one and a half times it), each
 * timed into `observe`; one visit in ten books a delivery instead.
 */
export async function browse(
  shop: Shop,
  seed: number,
  until: number,
  meanMs: number,
  observe: (at: number, ms: number) => void,
  fail: (error: string) => void,
): Promise<void> {
  const rng = new Rng(seed);
  for (;;) {
    await sleep(Math.min(rng.int(Math.floor(meanMs / 2), Math.ceil(meanMs * 1.5)), Math.max(0, until - Date.now())));
    if (Date.now() >= until) return;
    const t0 = performance.now();
    const delivery = rng.chance(0.1);
    const id = rng.pick(shop.productIds);
    const qty = rng.pick([6, 12, 24]);
    const [method, path, body] = rng.pick(BROWSE)(localDate(Date.now()));
    try {
      if (delivery) {
        await shop.owner.call('POST', `/inventory/products/${id}/adjust`, { qty_change: qty, reason: 'delivery' });
        shop.adjustments.set(id, (shop.adjustments.get(id) ?? 0) + qty);
        shop.deliveries++;
      } else {
        await shop.owner.call(method, path, body);
      }
    } catch (err) {
      // A delivery whose answer was lost may or may not be booked: the end check would say which, so stop the owner here.
      fail(`${shop.name}'s owner: ${String(err)}`);
      return;
    }
    observe(Date.now(), performance.now() - t0);
  }
}
