/**
 * One-time codes (design §3): 6 digits, valid 10 minutes, 5 tries, a new one no sooner than 60 s
 * after the last; stored as a keyed hash; purposes `login` and `reset`.
 */
import { newId } from '@duka/shared';
import type { OtpPurpose, OtpSendInput, OtpVerifyInput, TokenPair } from '@duka/shared';
import type { ServiceContext } from '../../../lib/context.js';
import { randomDigits, safeEqual } from '../../../lib/crypto.js';
import { UnauthenticatedError } from '../../../lib/errors.js';
import { normalisePhone } from '../../../lib/phone.js';
import type { UserRow } from '../../../db/tables/accounts.table.js';
import { activeStoreFor, issueTokens } from './tokens.js';

export const OTP_TTL_MS = 10 * 60_000;
export const OTP_MAX_TRIES = 5;
export const OTP_RESEND_MS = 60_000;

const otpDigest = (ctx: ServiceContext, userId: string, purpose: OtpPurpose, code: string) => ctx.keys.digest(`otp:${userId}:${purpose}:${code}`);

/** Milliseconds until a new code may be sent, 0 when it may be sent now. */
async function resendWait(ctx: ServiceContext, userId: string, purpose: OtpPurpose): Promise<number> {
  const last = await ctx.db
    .selectFrom('otps')
    .select('created_at')
    .where('user_id', '=', userId)
    .where('purpose', '=', purpose)
    .orderBy('created_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  return last ? Math.max(0, last.created_at + OTP_RESEND_MS - ctx.clock.now()) : 0;
}

/** Create a code (replacing any earlier one) and send it by SMS, or by email to a phone-less user. */
export async function issueOtp(ctx: ServiceContext, user: UserRow, purpose: OtpPurpose): Promise<void> {
  const now = ctx.clock.now();
  const code = randomDigits(6);
  await ctx.db.updateTable('otps').set({ consumed_at: now }).where('user_id', '=', user.id).where('purpose', '=', purpose).where('consumed_at', 'is', null).execute();
  await ctx.db
    .insertInto('otps')
    .values({ id: newId(), user_id: user.id, purpose, code_hash: otpDigest(ctx, user.id, purpose, code), expires_at: now + OTP_TTL_MS, consumed_at: null, created_at: now })
    .execute();
  const what = purpose === 'login' ? 'sign-in' : 'password reset';
  const body = `Duka: your ${what} code is ${code}. It expires in 10 minutes. / Msimbo wako wa Duka ni ${code}. Unaisha baada ya dakika 10.`;
  const to = user.phone ?? user.email;
  if (!to) return;
  await ctx.messenger.send(ctx, { channel: user.phone ? 'sms' : 'email', to, subject: `Your Duka ${what} code`, body, sensitive: true, orgId: user.org_id });
}

/** Send a code unless one went out less than a minute ago. */
export async function issueOtpUnlessRecent(ctx: ServiceContext, user: UserRow, purpose: OtpPurpose): Promise<number> {
  const wait = await resendWait(ctx, user.id, purpose);
  if (wait === 0) await issueOtp(ctx, user, purpose);
  return wait;
}

/**
 * Check `code` against the user's live code. A wrong code counts a try; each statement commits on
 * its own so that a failed check still counts.
 */
export async function checkOtp(ctx: ServiceContext, userId: string, purpose: OtpPurpose, code: string, consume: boolean): Promise<void> {
  const now = ctx.clock.now();
  const otp = await ctx.db
    .selectFrom('otps')
    .selectAll()
    .where('user_id', '=', userId)
    .where('purpose', '=', purpose)
    .where('consumed_at', 'is', null)
    .orderBy('created_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (!otp || otp.expires_at <= now) throw new UnauthenticatedError('code has expired or was never sent; request a new one', 'INVALID_CREDENTIALS');
  if (otp.attempts >= OTP_MAX_TRIES) throw new UnauthenticatedError('too many wrong codes; request a new one', 'INVALID_CREDENTIALS');
  const claim = await ctx.db
    .updateTable('otps')
    .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
    .where('id', '=', otp.id)
    .where('attempts', '<', OTP_MAX_TRIES)
    .where('consumed_at', 'is', null)
    .executeTakeFirst();
  if (Number(claim.numUpdatedRows) === 0) throw new UnauthenticatedError('too many wrong codes; request a new one', 'INVALID_CREDENTIALS');
  if (!safeEqual(otp.code_hash, otpDigest(ctx, userId, purpose, code))) {
    throw new UnauthenticatedError('code is wrong', 'INVALID_CREDENTIALS');
  }
  if (!consume) {
    await ctx.db.updateTable('otps').set((eb) => ({ attempts: eb('attempts', '-', 1) })).where('id', '=', otp.id).execute();
    return;
  }
  const used = await ctx.db.updateTable('otps').set({ consumed_at: now }).where('id', '=', otp.id).where('consumed_at', 'is', null).executeTakeFirst();
  if (Number(used.numUpdatedRows) === 0) throw new UnauthenticatedError('code was already used; request a new one', 'INVALID_CREDENTIALS');
}

function userByPhone(ctx: ServiceContext, phone: string) {
  return ctx.db.selectFrom('users').selectAll().where('phone', '=', normalisePhone(phone)).where('is_active', '=', 1).executeTakeFirst();
}

/**
 * Every phone gets the same answer, so the route cannot be used to find accounts: an unknown one
 * gets no message, and a known one asking again within a minute gets none either (the code sent
 * a moment ago still works for 10 minutes). Asking too often is limited per phone, known or not.
 */
export async function sendOtp(ctx: ServiceContext, input: OtpSendInput): Promise<void> {
  await ctx.limits.authByIdentifier(input.phone);
  const user = await userByPhone(ctx, input.phone);
  if (user) await issueOtpUnlessRecent(ctx, user, input.purpose);
}

/** `login` codes sign in; `reset` codes are only checked here (the reset itself consumes them). */
export async function verifyOtp(ctx: ServiceContext, input: OtpVerifyInput): Promise<TokenPair | null> {
  await ctx.limits.authByIdentifier(input.phone);
  const user = await userByPhone(ctx, input.phone);
  if (!user) throw new UnauthenticatedError('code has expired or was never sent; request a new one', 'INVALID_CREDENTIALS');
  await checkOtp(ctx, user.id, input.purpose, input.code, input.purpose === 'login');
  if (input.purpose === 'reset') return null;
  const storeId = await activeStoreFor(ctx, user, user.store_id);
  return issueTokens(ctx, user, { storeId, amr: ['otp'] });
}
