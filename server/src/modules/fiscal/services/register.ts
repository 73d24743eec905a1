/**
 * Registering a store's device with TRA (a one-time request, TRA rule 1): `REGDATA` signed with the
 * certificate's key. TRA's answer is kept: the REGID, serial, UIN, receipt code and tax codes in the
 * device row, the token username and password sealed, and the device's counter starts after the
 * `GC` TRA reports (0 for a new device).
 */
import type { FiscalSettings } from '@duka/shared';
import { withTransaction } from '../../../db/transaction.js';
import type { AuthedContext } from '../../../lib/context.js';
import { recordAudit } from '../../../lib/audit.js';
import { BusinessRuleError, NotFoundError, ServiceError } from '../../../lib/errors.js';
import type { DeviceRegistration } from '../fiscal.queries.js';
import { findDevice, saveRegistration } from '../fiscal.queries.js';
import { signPayload } from '../tra/certificate.js';
import { type TraGateway, TraRefused, TraUnreachable } from '../tra/tra-gateway.js';
import { elements, envelope, wrap } from '../tra/xml.js';
import { endpointOf, signingKey } from './device-session.js';
import { ownStore, showSettings } from './settings.js';

const text = (v: unknown) => (v === undefined || v === null ? '' : String(v));

export async function registerDevice(ctx: AuthedContext, gateway: TraGateway, storeId: string): Promise<FiscalSettings> {
  const { orgId } = await ownStore(ctx, storeId);
  const device = await findDevice(ctx.db, { orgId, storeId });
  if (!device) throw new NotFoundError('fiscal settings');
  if (device.registration) throw new BusinessRuleError('the device is already registered with TRA', 'BUSINESS_RULE');
  const payload = wrap(
    'REGDATA',
    elements([
      ['TIN', device.tin],
      ['CERTKEY', device.cert_key],
    ]),
  );
  const body = envelope(payload, await signPayload(await signingKey(ctx, device), payload));
  let answer;
  try {
    answer = await gateway.register(endpointOf(ctx, device), body);
  } catch (err) {
    if (err instanceof TraUnreachable)
      throw new ServiceError('SERVICE_UNAVAILABLE', `${err.message}; try again later`, { headers: { 'Retry-After': '60' } });
    if (err instanceof TraRefused) throw new BusinessRuleError(err.message);
    throw err;
  }
  if (answer.ackCode !== '0') throw new BusinessRuleError(`TRA refused the registration (ACKCODE ${answer.ackCode}): ${answer.ackMessage}`);
  const f = answer.fields;
  const codes = (f.TAXCODES ?? {}) as Record<string, unknown>;
  const registration: DeviceRegistration = {
    regid: text(f.REGID),
    efd_serial: text(f.SERIAL),
    uin: text(f.UIN),
    vrn: text(f.VRN),
    receipt_code: text(f.RECEIPTCODE),
    name: text(f.NAME),
    street: text(f.STREET),
    mobile: text(f.MOBILE),
    city: text(f.CITY),
    country: text(f.COUNTRY),
    tax_office: text(f.TAXOFFICE),
    tax_codes: Object.fromEntries(Object.entries(codes).map(([k, v]) => [k, text(v)])),
  };
  if (!registration.regid || !registration.receipt_code || !f.USERNAME || !f.PASSWORD)
    throw new BusinessRuleError('TRA answered the registration without a REGID, receipt code or credentials');
  const now = ctx.clock.now();
  await withTransaction(ctx, async (tx) => {
    await saveRegistration(
      tx.db,
      { orgId, storeId },
      {
        registration: JSON.stringify(registration),
        credentialsEnc: ctx.keys.encrypt(JSON.stringify({ username: text(f.USERNAME), password: text(f.PASSWORD) })),
        lastGc: Number(f.GC ?? 0) || 0,
        now,
      },
    );
    await recordAudit(tx, {
      action: 'fiscal.register',
      description: `Registered the fiscal device with TRA: REGID ${registration.regid}, serial ${registration.efd_serial}`,
      entity: 'store',
      entityId: storeId,
    });
  });
  return showSettings(ctx, (await findDevice(ctx.db, { orgId, storeId }))!);
}
