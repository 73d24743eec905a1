/**
 * Fiscal receipts in the tests: a local fake TRA knowing one taxpayer per scenario (each with its
 * own test certificate made here), and the owner's three steps to switch a store on: save the
 * settings, register with TRA, enable.
 */
import type { Transaction } from '@duka/shared';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { TraFake } from '../fakes/tra-fake.js';
import type { Session } from './factories.js';
import { createTestApp, type TestApp, testClock } from './test-app.js';
import { makeTraCertificate, type TraCertificate, traAnswerKeyPair } from './tra-cert.js';

export interface FiscalWorld {
  tra: TraFake;
  certs: TraCertificate[];
  tin(i: number): string;
  certKey(i: number): string;
}

export function fiscalWorld(taxpayers: number): FiscalWorld {
  const certs = Array.from({ length: taxpayers }, () => makeTraCertificate());
  const tin = (i: number) => `1002003${String(i).padStart(2, '0')}`;
  const certKey = (i: number) => `10TZ1007${String(80 + i)}`;
  const tra = new TraFake(certs.map((c, i) => ({ tin: tin(i), certSerial: c.serial, certKey: certKey(i), publicKeyPem: c.publicKeyPem })));
  return { tra, certs, tin, certKey };
}

/** The settings body for taxpayer `i`, with the certificate. */
export function settingsBody(w: FiscalWorld, i: number, extra: Record<string, unknown> = {}) {
  const c = w.certs[i]!;
  return {
    tin: w.tin(i),
    vrn: '40000000K',
    cert_key: w.certKey(i),
    cert_serial: c.serial,
    certificate: c.pfxBase64,
    certificate_password: c.password,
    environment: 'test',
    ...extra,
  };
}

/** Save, register and enable the owner's store as taxpayer `i`. */
export async function fiscalise(t: TestApp, w: FiscalWorld, owner: Session, i: number, storeId = owner.storeId) {
  const saved = await t.request('PUT', `/stores/${storeId}/fiscal`, { token: owner.token, body: settingsBody(w, i) });
  expect(saved.status, saved.text).toBe(200);
  const registered = await t.request('POST', `/stores/${storeId}/fiscal/register`, { token: owner.token });
  expect(registered.status, registered.text).toBe(200);
  const { certificate: _c, certificate_password: _p, ...rest } = settingsBody(w, i);
  const enabled = await t.request('PUT', `/stores/${storeId}/fiscal`, { token: owner.token, body: { ...rest, enabled: true } });
  expect(enabled.status, enabled.text).toBe(200);
  expect(enabled.body.data).toMatchObject({
    enabled: true,
    registration: { receipt_code: w.tra.device(w.certs[i]!.serial).taxpayer.receiptCode },
  });
  return enabled.body.data;
}

/** 2026-11-20 10:00 in Dar es Salaam: in the past, as TRA refuses receipts dated in the future. */
export const DAY_START = Date.UTC(2026, 10, 20, 7, 0, 0);

/**
 * A describe block's app and fake TRA: started before its tests, the fake's violations checked
 * after each (once the queue is idle), both stopped after. `t` is the app once started.
 */
export function fiscalSuite(taxpayers: number, config: Record<string, unknown> = {}) {
  const w = fiscalWorld(taxpayers);
  const suite = {
    w,
    t: undefined as unknown as TestApp,
    async product(s: Session, body: Record<string, unknown>) {
      const res = await suite.t.request('POST', '/inventory/products', { token: s.token, body: { stock: 1000, ...body } });
      expect(res.status, res.text).toBe(200);
      return res.body.data as { id: string };
    },
    async sell(s: Session, body: Record<string, unknown>) {
      const res = await suite.t.request('POST', '/pos/sale', { token: s.token, body });
      expect(res.status, res.text).toBe(201);
      return res.body.data as Transaction;
    },
  };
  beforeAll(async () => {
    await w.tra.start();
    // TRA's answers are checked against its key in every fiscal suite, as a careful operator sets it up.
    suite.t = await createTestApp({
      clock: testClock(DAY_START),
      config: { TRA_TEST_URL: w.tra.url, TRA_TIMEOUT_MS: 2_000, TRA_ANSWER_CERT: traAnswerKeyPair().publicKeyPem, ...config },
    });
  });
  afterEach(async () => {
    await suite.t.deps.fiscal.idle();
    expect(w.tra.violations).toEqual([]);
  });
  afterAll(async () => {
    await suite.t.deps.fiscal.idle();
    await suite.t.close();
    await w.tra.stop();
  });
  return suite;
}
