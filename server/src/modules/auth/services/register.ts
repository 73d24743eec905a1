/**
 * Registration: a new owner with an organisation and its first store, signed in at once. Creates
 * no OTP and no subscription; sends a welcome email with a confirmation link when an email is given.
 */
import { newId } from '@duka/shared';
import type { RegisterInput, RegisterResult } from '@duka/shared';
import { uniqueViolationField } from '../../../db/dialect.js';
import { noteChange } from '../../../db/change-log.js';
import { withTransaction } from '../../../db/transaction.js';
import { recordAudit } from '../../../lib/audit.js';
import type { ServiceContext } from '../../../lib/context.js';
import { hashSecret } from '../../../lib/crypto.js';
import { DuplicateError } from '../../../lib/errors.js';
import { normalisePhone } from '../../../lib/phone.js';
import { normaliseLocation } from '../../meta/meta.exports.js';
import { insertStore, insertUser, permissionColumns } from '../../tenancy/tenancy.exports.js';
import { startOnFree } from '../../billing/billing.exports.js';
import { insertOrganisation } from '../auth.queries.js';
import { sendConfirmationEmail } from './session.js';
import { issueTokens } from './tokens.js';

/** 409 DUPLICATE naming the field if the phone or email already has an account. */
export async function assertIdentityFree(ctx: ServiceContext, phone: string | null, email: string | null, exceptUserId?: string) {
  for (const [field, value] of [
    ['phone', phone],
    ['email', email],
  ] as const) {
    if (!value) continue;
    const hit = await ctx.db.selectFrom('users').select('id').where(field, '=', value).executeTakeFirst();
    if (hit && hit.id !== exceptUserId) throw new DuplicateError(field, `an account with this ${field} already exists`);
  }
}

/** Turn a unique-index race into the same 409 the pre-check gives. */
export function rethrowDuplicate(err: unknown): never {
  const field = uniqueViolationField(err);
  if (field) throw new DuplicateError(field, `an account with this ${field} already exists`);
  throw err;
}

export async function registerAccount(ctx: ServiceContext, input: RegisterInput): Promise<RegisterResult> {
  const phone = normalisePhone(input.phone);
  const email = input.email ?? null;
  await ctx.limits.authByIdentifier(phone);
  await assertIdentityFree(ctx, phone, email);
  const passwordHash = await hashSecret(input.password);
  const { region, district } = normaliseLocation(input.shop.region, input.shop.district);

  try {
    return await withTransaction(ctx, async (tx) => {
      const now = tx.clock.now();
      const orgId = newId();
      const userId = newId();
      const { shop } = input;
      await insertOrganisation(
        tx.db,
        {
          id: orgId,
          name: shop.name,
          business_type: shop.business_type,
          region,
          district,
          ward: shop.ward ?? null,
          street: shop.street ?? null,
          address: shop.address ?? null,
          latitude: shop.latitude ?? null,
          longitude: shop.longitude ?? null,
          phone,
          email,
        },
        now,
      );
      const store = await insertStore(tx, orgId, {
        name: shop.name,
        phone,
        email,
        address: shop.address ?? null,
        area: district,
        latitude: shop.latitude ?? null,
        longitude: shop.longitude ?? null,
      });
      const user = await insertUser(
        tx.db,
        {
          id: userId,
          org_id: orgId,
          store_id: store.id,
          first_name: input.first_name,
          last_name: input.last_name,
          phone,
          email,
          password_hash: passwordHash,
          role: 'owner',
          shift: 'full_day',
          occupation: input.occupation ?? null,
          ...permissionColumns(() => true),
          last_login_at: now,
        },
        now,
      );
      await startOnFree(tx.db, orgId, now);
      noteChange(tx, orgId, { entity: 'organisation', id: orgId });
      await recordAudit(tx, { action: 'account.register', description: `Registered ${shop.name}`, userId, orgId, storeId: store.id });
      await sendConfirmationEmail(tx, user, true);
      const tokens = await issueTokens(tx, user, { storeId: store.id, amr: ['pwd'] });
      return { user_id: userId, org_id: orgId, store_id: store.id, tokens, status: 'active' as const };
    });
  } catch (err) {
    rethrowDuplicate(err);
  }
}
