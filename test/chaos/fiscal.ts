/**
 * The chaos run's fiscal store: the retail shop is registered with a local fake TRA (which checks
 * every signature, counter and byte as TRA would) before its tills open, so every sale the tills
 * push through the chaos is numbered for TRA in its own transaction, and sent while servers are
 * killed mid-send. The end check is what a TRA auditor would ask: every sale has exactly one
 * receipt number, the numbers run 1..N without a gap, and TRA acknowledged a gapless run of them,
 * each once with one set of bytes and the sale's own total. It does not ask that TRA has every
 * receipt by then: a server killed mid-send holds the store's queue for up to a minute.
 */
import { TraFake } from '../fakes/tra-fake.js';
import { makeTraCertificate, type TraCertificate, traAnswerKeyPair } from '../setup/tra-cert.js';
import type { Owner } from './actors.js';

export interface FiscalShop {
  tra: TraFake;
  cert: TraCertificate;
  /** What the servers need to reach the fake and check its answers. */
  env: Record<string, string>;
}

const TIN = '100200399';
const CERT_KEY = '10TZ100799';

export async function startFiscalTra(): Promise<FiscalShop> {
  const cert = makeTraCertificate();
  const tra = new TraFake({ tin: TIN, certSerial: cert.serial, certKey: CERT_KEY, publicKeyPem: cert.publicKeyPem });
  await tra.start();
  // The servers check TRA's answers against its key, as a careful operator sets them up.
  return { tra, cert, env: { TRA_TEST_URL: tra.url, TRA_ANSWER_CERT: traAnswerKeyPair().publicKeyPem, TRA_TIMEOUT_MS: '5000' } };
}

/** The owner's three steps: save the settings with the certificate, register with TRA, switch on. */
export async function fiscalise(owner: Owner, storeId: string, { cert }: FiscalShop): Promise<void> {
  const settings = { tin: TIN, vrn: '40000000K', cert_key: CERT_KEY, cert_serial: cert.serial, environment: 'test' };
  await owner.call('PUT', `/stores/${storeId}/fiscal`, { ...settings, certificate: cert.pfxBase64, certificate_password: cert.password });
  await owner.call('POST', `/stores/${storeId}/fiscal/register`);
  await owner.call('PUT', `/stores/${storeId}/fiscal`, { ...settings, enabled: true });
}

export function checkFiscal(transactions: any[], shop: FiscalShop): { failures: string[]; figures: Record<string, number> } {
  const failures: string[] = [];
  const fail = (msg: string) => failures.length < 20 && failures.push(`fiscal: ${msg}`);
  const byGc = new Map<number, any>();
  for (const t of transactions) {
    if (!t.fiscal) {
      fail(`sale ${t.client_receipt_number ?? t.id} has no fiscal receipt`);
      continue;
    }
    if (byGc.has(t.fiscal.gc)) fail(`GC ${t.fiscal.gc} given to two sales`);
    byGc.set(t.fiscal.gc, t);
  }
  const numbered = byGc.size;
  for (let gc = 1; gc <= numbered; gc++) if (!byGc.has(gc)) fail(`GC ${gc} missing: the numbers are not gapless`);
  const device = shop.tra.device(shop.cert.serial);
  device.receipts.forEach((r, i) => {
    if (r.gc !== i + 1) fail(`TRA's ${i + 1}th acknowledged receipt is GC ${r.gc}`);
    const sale = byGc.get(r.gc);
    if (!sale) fail(`TRA acknowledged GC ${r.gc}, which no sale has`);
    else if (r.totalInclCents !== Math.round(sale.total * 100))
      fail(`GC ${r.gc}: TRA has ${r.totalInclCents / 100}, the sale ${sale.total}`);
    if (sale && r.rctvnum !== sale.fiscal.rctvnum) fail(`GC ${r.gc}: TRA has RCTVNUM ${r.rctvnum}, the sale ${sale.fiscal.rctvnum}`);
  });
  for (const v of shop.tra.violations.slice(0, 10)) fail(`TRA saw: ${v}`);
  const issued = transactions.filter((t) => t.fiscal?.status === 'issued').length;
  return {
    failures,
    figures: {
      'fiscal receipts numbered': numbered,
      'fiscal receipts acknowledged by TRA': device.receipts.length,
      'fiscal receipts the till sees issued': issued,
      'fiscal resends after a lost or cut reply': device.resends,
    },
  };
}
