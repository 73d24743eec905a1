/**
 * A store's fiscal settings (owner only): the taxpayer's identity and certificate, registration
 * with TRA, and switching fiscalisation on or off. The certificate and its password are sealed with
 * the server key and never returned; TRA's username and password from the registration likewise.
 */
import type { FiscalSettings, FiscalSettingsInput } from '@duka/shared';
import { requireOrg, requireRole } from '../../../lib/auth/authorize.js';
import type { AuthedContext, ServiceContext } from '../../../lib/context.js';
import { iso, isoOrNull } from '../../../lib/clock.js';
import { BusinessRuleError, NotFoundError, ValidationError } from '../../../lib/errors.js';
import { recordAudit } from '../../../lib/audit.js';
import { withTransaction } from '../../../db/transaction.js';
import type { FiscalDeviceRow } from '../../../db/tables/fiscal.table.js';
import { findStore, updateStoreRow } from '../../tenancy/tenancy.exports.js';
import { deviceScope, findDevice, firstWaitingReceipt, insertDevice, registrationOf, waitingReceiptCounts } from '../fiscal.queries.js';
import { CertificateError, openCertificate } from '../tra/certificate.js';

/** The store of the caller's organisation, or 404 (another organisation's id included). */
export async function ownStore(ctx: AuthedContext, storeId: string): Promise<{ orgId: string }> {
  requireRole(ctx, 'owner');
  const orgId = requireOrg(ctx);
  if (!(await findStore(ctx.db, orgId, storeId))) throw new NotFoundError('store');
  return { orgId };
}

export async function getFiscalSettings(ctx: AuthedContext, storeId: string): Promise<FiscalSettings> {
  const { orgId } = await ownStore(ctx, storeId);
  const device = await findDevice(ctx.db, { orgId, storeId });
  if (!device) throw new NotFoundError('fiscal settings');
  return showSettings(ctx, device);
}

export async function saveFiscalSettings(ctx: AuthedContext, storeId: string, input: FiscalSettingsInput): Promise<FiscalSettings> {
  const { orgId } = await ownStore(ctx, storeId);
  const before = await findDevice(ctx.db, { orgId, storeId });
  if (input.certificate !== undefined && input.certificate_password === undefined)
    throw new ValidationError('certificate_password', 'is required with the certificate');
  if (input.certificate === undefined && !before?.certificate_enc)
    throw new ValidationError('certificate', 'is required: the .pfx TRA issued, base64');
  if (input.certificate !== undefined) {
    try {
      await openCertificate(input.certificate, input.certificate_password!);
    } catch (err) {
      if (err instanceof CertificateError) throw new ValidationError('certificate', err.message.replace(/^certificate: /, ''));
      throw err;
    }
  }
  const registered = before?.registration != null;
  if (registered && (input.tin !== before.tin || input.cert_serial !== before.cert_serial || input.environment !== before.environment)) {
    throw new BusinessRuleError(
      'the device is registered with TRA for this TIN, certificate and environment; they cannot change (set up a new store for another taxpayer)',
      'BUSINESS_RULE',
      'tin',
    );
  }
  if (input.enabled && !registered)
    throw new BusinessRuleError('register the device with TRA first (POST /stores/{id}/fiscal/register)', 'BUSINESS_RULE', 'enabled');
  const now = ctx.clock.now();
  const sealed =
    input.certificate === undefined
      ? {}
      : { certificate_enc: ctx.keys.encrypt(input.certificate), certificate_password_enc: ctx.keys.encrypt(input.certificate_password!) };
  const fields = {
    tin: input.tin,
    vrn: input.vrn ?? null,
    cert_key: input.cert_key,
    cert_serial: input.cert_serial,
    environment: input.environment,
    ...sealed,
    ...(input.enabled === undefined ? {} : { enabled: input.enabled ? 1 : 0 }),
    updated_at: now,
  };
  await withTransaction(ctx, async (tx) => {
    if (before) await tx.db.updateTable('fiscal_devices').set(fields).where('org_id', '=', orgId).where('store_id', '=', storeId).execute();
    else await insertDevice(tx.db, storeId, orgId, now, fields);
    // The Store shape says whether the store fiscalises; its tills learn it through the change log.
    if (input.enabled !== undefined && input.enabled !== (before?.enabled === 1))
      await updateStoreRow(tx, orgId, storeId, { fiscal: input.enabled ? 1 : 0 });
    const what = input.enabled === undefined ? 'Updated' : input.enabled ? 'Switched on' : 'Switched off';
    await recordAudit(tx, {
      action: 'fiscal.settings',
      description: `${what} fiscal receipts settings (TIN ${input.tin}, ${input.environment})`,
      entity: 'store',
      entityId: storeId,
    });
  });
  return showSettings(ctx, (await findDevice(ctx.db, { orgId, storeId }))!);
}

export async function showSettings(ctx: ServiceContext, device: FiscalDeviceRow): Promise<FiscalSettings> {
  const registration = registrationOf(device);
  const [counts, head] = await Promise.all([
    waitingReceiptCounts(ctx.db, deviceScope(device)),
    // The receipt the queue waits on, and why.
    firstWaitingReceipt(ctx.db, deviceScope(device), ['last_error']),
  ]);
  const oldest = counts.reduce<number | null>(
    (min, c) => (c.oldest !== null && (min === null || Number(c.oldest) < min) ? Number(c.oldest) : min),
    null,
  );
  return {
    store_id: device.store_id,
    enabled: device.enabled === 1,
    environment: device.environment,
    tin: device.tin,
    vrn: device.vrn,
    cert_key: device.cert_key,
    cert_serial: device.cert_serial,
    has_certificate: device.certificate_enc !== null,
    registration: registration
      ? {
          regid: registration.regid,
          efd_serial: registration.efd_serial,
          uin: registration.uin,
          receipt_code: registration.receipt_code,
          name: registration.name,
          tax_office: registration.tax_office,
          registered_at: iso(Number(device.registered_at)),
          tax_codes: registration.tax_codes,
        }
      : null,
    last_gc: Number(device.last_gc),
    queue: {
      pending: counts.reduce((n, c) => n + Number(c.n), 0),
      failed: Number(counts.find((c) => c.status === 'failed')?.n ?? 0),
      oldest_pending_at: isoOrNull(oldest),
      last_error: head?.last_error ?? null,
    },
  };
}
