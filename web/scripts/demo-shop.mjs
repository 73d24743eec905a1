// A demo shop on a running server, to try the till with (`node web/scripts/demo-shop.mjs [http://localhost:8080]`):
// registers an owner, adds products with barcodes and two customers, and prints how to sign in.
const origin = (process.argv[2] ?? 'http://localhost:8080').replace(/\/$/, '');
const api = `${origin}/api/v1`;

async function call(method, path, body, token) {
  const res = await fetch(`${api}${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = await res.json();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
  return json.data;
}

const phone = `07${[1, 5, 6, 8][Math.floor(Math.random() * 4)]}${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`;
const password = 'kariakoo2026';
const registered = await call('POST', '/auth/register', {
  first_name: 'Asha',
  last_name: 'Mushi',
  phone,
  email: `asha.${Date.now()}@duka.test`,
  password,
  confirm_password: password,
  occupation: 'Shopkeeper',
  shop: { name: 'Mama Asha Duka', business_type: 'retail', region: 'dar-es-salaam', district: 'Kinondoni' },
});
const token = registered.tokens.access_token;

const PRODUCTS = [
  ['Coca-Cola 500ml', '6161100000017', 1000, 48],
  ['Unga wa Sembe 2kg', '6161100000024', 4200, 20],
  ['Mchele 1kg', '6161100000031', 3500, 30],
  ['Sukari 1kg', '6161100000048', 3200, 25],
  ['Mafuta ya Kupikia 1L', '6161100000055', 6500, 12],
  ['Chumvi 1kg', '6161100000062', 800, 40],
  ['Sabuni ya Kipande', '6161100000079', 1500, 36],
  ['Maji Kilimanjaro 1.5L', '6161100000086', 1200, 60],
  ['Chai Bruk 100g', '6161100000093', 2800, 15],
  ['Maziwa Tanga Fresh 500ml', '6161100000109', 1800, 24],
  ['Mkate wa Boflo', '6161100000116', 2000, 10],
  ['Betri AA (2)', '6161100000123', 1500, 3],
];
for (const [name, barcode, selling_price, stock] of PRODUCTS) {
  await call('POST', '/inventory/products', { name, barcode, selling_price, cost_price: Math.round(selling_price * 0.75), stock }, token);
}
for (const name of ['Neema Joseph', 'Juma Kassim']) await call('POST', '/customers', { name }, token);

console.log(`Demo shop ready. Open ${origin}/till/ and sign in with ${phone} / ${password}`);
console.log(JSON.stringify({ phone, password, token }));
