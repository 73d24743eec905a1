/**
 * A store switched to fiscalisation as if TRA had registered its device, written straight into the
 * server's database: the till and browser tests need receipts numbered without a TRA to talk to.
 * No certificate or credentials are kept, so the queue cannot build or send anything: point the
 * app's `TRA_TEST_URL` at a closed port (CLOSED_TRA) so nothing could reach the internet anyway.
 */
import type { DeviceRegistration } from '../../server/src/modules/fiscal/fiscal.queries.js';
import type { TestApp } from './test-app.js';

/** A local port nobody listens on (the discard port): a request there is refused at once. */
export const CLOSED_TRA = 'http://127.0.0.1:9';

export const RECEIPT_CODE = '8AD1E3';

export async function fiscaliseStore(t: TestApp, store: { orgId: string; storeId: string }): Promise<void> {
  const now = t.clock.now();
  const registration: DeviceRegistration = {
    regid: 'TZ0100551361',
    efd_serial: '10TZ100781',
    uin: '09VFDWEBAPI-10131758710TZ100781',
    vrn: '40000000K',
    receipt_code: RECEIPT_CODE,
    name: 'DUKA LA MAMA',
    street: 'KARIAKOO',
    mobile: '0713000000',
    city: 'DAR ES SALAAM',
    country: 'TANZANIA',
    tax_office: 'Tax Office Ilala',
    tax_codes: { CODEA: '18', CODEB: '0', CODEC: '0', CODED: '0' },
  };
  await t.deps.db
    .insertInto('fiscal_devices')
    .values({
      store_id: store.storeId,
      org_id: store.orgId,
      enabled: 1,
      environment: 'test',
      tin: '123456789',
      vrn: null,
      cert_key: '10TZ100781',
      cert_serial: '4fd3c2a1',
      certificate_enc: null,
      certificate_password_enc: null,
      registration: JSON.stringify(registration),
      credentials_enc: null,
      registered_at: now,
      token_enc: null,
      token_expires_at: null,
      last_znum: null,
      claimed_at: null,
      stuck_notified_at: null,
      created_at: now,
      updated_at: now,
    })
    .execute();
  await t.deps.db.updateTable('stores').set({ fiscal: 1 }).where('id', '=', store.storeId).execute();
}
