import { type Organisation, toCents, type UpdateOrganisationInput } from '@duka/shared';
import { noteChange } from '../../../db/change-log.js';
import { withTransaction } from '../../../db/transaction.js';
import { recordAudit } from '../../../lib/audit.js';
import type { AuthedContext } from '../../../lib/context.js';
import { requireOrg, requireRole } from '../../../lib/auth/authorize.js';
import { NotFoundError, ValidationError } from '../../../lib/errors.js';
import { normalisePhone } from '../../../lib/phone.js';
import type { Updateable } from 'kysely';
import type { OrganisationRow, OrganisationTable } from '../../../db/tables/accounts.table.js';
import { findOrganisation, toOrganisation } from '../../tenancy/tenancy.exports.js';
import { productIdsOnDefaultAlert } from '../../inventory/inventory.exports.js';

export async function getOrganisation(ctx: AuthedContext): Promise<Organisation> {
  requireRole(ctx, 'owner');
  const org = await findOrganisation(ctx.db, requireOrg(ctx));
  if (!org) throw new NotFoundError('organisation');
  return toOrganisation(org);
}

/**
 * An organisation's own SMS account is on while its key is set, and then it must be whole: a key
 * without its gateway, secret and sender id could only fail at the first reminder, so it is
 * refused here, where the owner is. Clearing the key sends through the platform again.
 */
function checkSmsAccount(row: OrganisationRow): void {
  if (!row.sms_api_key_enc) return;
  const parts = { sms_provider: row.sms_provider, sms_api_secret: row.sms_api_secret_enc, sms_sender_id: row.sms_sender_id };
  const missing = Object.entries(parts)
    .filter(([, v]) => !v)
    .map(([k]) => k);
  if (missing.length)
    throw new ValidationError(
      missing[0]!,
      `is needed with sms_api_key for the organisation's own SMS account (set sms_provider, sms_api_secret and sms_sender_id too, or clear sms_api_key to send through the platform)`,
    );
}

/** Integration keys are write-only: stored encrypted, answered as `*_set` flags; `null` clears one. */
export async function updateOrganisation(ctx: AuthedContext, input: UpdateOrganisationInput): Promise<Organisation> {
  requireRole(ctx, 'owner');
  const id = requireOrg(ctx);
  const { sms_api_key, sms_api_secret, aigateway_api_key, phone, shift_shortfall_alert, scale_barcodes, ...plain } = input;
  const seal = (v: string | null | undefined) => (v === undefined ? undefined : v === null || v === '' ? null : ctx.keys.encrypt(v));
  const changes: Updateable<OrganisationTable> = {
    ...plain,
    ...(phone !== undefined ? { phone: phone === null ? null : normalisePhone(phone) } : {}),
    ...(shift_shortfall_alert !== undefined ? { shift_shortfall_alert: toCents(shift_shortfall_alert) } : {}),
    ...(scale_barcodes !== undefined ? { scale_barcodes: JSON.stringify(scale_barcodes) } : {}),
    sms_api_key_enc: seal(sms_api_key),
    sms_api_secret_enc: seal(sms_api_secret),
    aigateway_api_key_enc: seal(aigateway_api_key),
  };
  return withTransaction(ctx, async (tx) => {
    const now = tx.clock.now();
    const before = await findOrganisation(tx.db, id);
    const row = await tx.db
      .updateTable('organisations')
      .set({ ...changes, updated_at: now })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
    if (!row) throw new NotFoundError('organisation');
    checkSmsAccount(row);
    await recordAudit(tx, {
      action: 'organisation.update',
      description: 'Updated organisation settings',
      entity: 'organisation',
      entityId: id,
    });
    noteChange(tx, id, { entity: 'organisation', id });
    // Products without their own window answer the organisation's as theirs: tills pull them again.
    if (before && row.expiry_alert_days !== before.expiry_alert_days) {
      for (const productId of await productIdsOnDefaultAlert(tx.db, id)) noteChange(tx, id, { entity: 'product', id: productId });
    }
    return toOrganisation(row);
  });
}
