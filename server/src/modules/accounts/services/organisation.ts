import type { Organisation, UpdateOrganisationInput } from '@duka/shared';
import { noteChange } from '../../../db/change-log.js';
import { withTransaction } from '../../../db/transaction.js';
import { recordAudit } from '../../../lib/audit.js';
import type { AuthedContext } from '../../../lib/context.js';
import { requireOrg, requireRole } from '../../../lib/auth/authorize.js';
import { NotFoundError } from '../../../lib/errors.js';
import { normalisePhone } from '../../../lib/phone.js';
import type { Updateable } from 'kysely';
import type { OrganisationTable } from '../../../db/tables/accounts.table.js';
import { findOrganisation, toOrganisation } from '../accounts.queries.js';
import { productIdsOnDefaultAlert } from '../../inventory/inventory.queries.js';

export async function getOrganisation(ctx: AuthedContext): Promise<Organisation> {
  requireRole(ctx, 'owner');
  const org = await findOrganisation(ctx.db, requireOrg(ctx));
  if (!org) throw new NotFoundError('organisation');
  return toOrganisation(org);
}

/** Integration keys are write-only: stored encrypted, answered as `*_set` flags; `null` clears one. */
export async function updateOrganisation(ctx: AuthedContext, input: UpdateOrganisationInput): Promise<Organisation> {
  requireRole(ctx, 'owner');
  const id = requireOrg(ctx);
  const { sms_api_key, aigateway_api_key, phone, ...plain } = input;
  const seal = (v: string | null | undefined) => (v === undefined ? undefined : v === null || v === '' ? null : ctx.keys.encrypt(v));
  const changes: Updateable<OrganisationTable> = {
    ...plain,
    ...(phone !== undefined ? { phone: phone === null ? null : normalisePhone(phone) } : {}),
    sms_api_key_enc: seal(sms_api_key),
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
    await recordAudit(tx, { action: 'organisation.update', description: 'Updated organisation settings', entity: 'organisation', entityId: id });
    noteChange(tx, id, { entity: 'organisation', id });
    // Products without their own window answer the organisation's as theirs: tills pull them again.
    if (before && row.expiry_alert_days !== before.expiry_alert_days) {
      for (const productId of await productIdsOnDefaultAlert(tx.db, id)) noteChange(tx, id, { entity: 'product', id: productId });
    }
    return toOrganisation(row);
  });
}
