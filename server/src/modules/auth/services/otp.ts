/**
 * One-time codes (design §3): 6 digits, valid 10 minutes, 5 tries, a new one no sooner than 60 s
 * after the last; stored as a keyed hash; purposes `login` and `reset`.
 */
import type { OtpPurpose, OtpSendInput, OtpVerifyInput, TokenPair } from '@duka/shared';
import type { ServiceContext } from '../../../lib/context.js';
import { randomDigits, safeEqual } from '../../../lib/crypto.js';
import { UnauthenticatedError } from '../../../lib/errors.js';
import { normalisePhone } from '../../../lib/phone.js';
import type { UserRow } from '../../../db/tables/accounts.table.js';
import { findNewestUnusedOtp, insertOtp, lastOtpSent } from '../auth.queries.js';
import { proved } from './sign-in-guard.js';
import { activeStoreFor, issueTokens } from './tokens.js';

export const OTP_TTL_MS = 10 * 60_000;
export const OTP_MAX_TRIES = 5;
export const OTP_RESEND_MS = 60_000;

const otpDigest = (ctx: ServiceContext, userId: string, purpose: OtpPurpose, code: string) =>
  ctx.keys.digest(`otp:${userId}:${purpose}:${code}`);

/** Milliseconds until a new code may be sent, 0 when it may be sent now. */
async function resendWait(ctx: ServiceContext, userId: string, purpose: OtpPurpose): Promise<number> {
  const last = await lastOtpSent(ctx.db, userId, purpose);
  return last ? Math.max(0, last.created_at + OTP_RESEND_MS - ctx.clock.now()) : 0;
}

/** Create a code (replacing any earlier one) and send it by SMS, or by email to a phone-less user. */
export async function issueOtp(ctx: ServiceContext, user: UserRow, purpose: OtpPurpose): Promise<void> {
  const now = ctx.clock.now();
  const code = randomDigits(6);
  await ctx.db
    .updateTable('otps')
    .set({ consumed_at: now })
    .where('user_id', '=', user.id)
    .where('purpose', '=', purpose)
    .where('consumed_at', 'is', null)
    .execute();
  await insertOtp(ctx.db, { userId: user.id, purpose, codeHash: otpDigest(ctx, user.id, purpose, code), expiresAt: now + OTP_TTL_MS }, now);
  const what = purpose === 'login' ? 'sign-in' : 'password reset';
  const body = `Duka: your ${what} code is ${code}. It expires in 10 minutes. / Msimbo wako wa Duka ni ${code}. Unaisha baada ya dakika 10.`;
  const to = user.phone ?? user.email;
  if (!to) return;
  await ctx.messenger.send(ctx, {
    channel: user.phone ? 'sms' : 'email',
    to,
    subject: `Your Duka ${what} code`,
    body,
    sensitive: true,
    orgId: user.org_id,
  });
}

/**
 * Send a code unless one went out less than a minute ago, after the answer: the caller's answer
 * waits for the same steps whatever the name (the rate limit and the account look-up), so its
 * timing tells nothing. `user` undefined (a name no account has): the same look-up, nothing sent.
 */
export function issueOtpAfterAnswer(ctx: ServiceContext, user: UserRow | undefined, purpose: OtpPurpose): void {
  ctx.afterAnswer.run(`otp:${purpose}`, async () => {
    const wait = await resendWait(ctx, user?.id ?? NO_USER, purpose);
    if (wait === 0 && user) await issueOtp(ctx, user, purpose);
  });
}

/**
 * One answer for every code that does not work (wrong, expired, used, never sent, tried too often,
 * or for a name no account has), so that the answer never tells whether an account exists.
 */
export const codeRefused = () => new UnauthenticatedError('code is wrong or has expired; request a new one', 'INVALID_CREDENTIALS');

/** Codes of a name no account has are looked for under an id no user has, so the work is the same. */
const NO_USER = '00000000-0000-0000-0000-000000000000';

/**
 * Check `code` against the user's live code (`userId` undefined: a name no account has). A wrong
 * code counts a try; each statement commits on its own so that a failed check still counts.
 */
export async function checkOtp(
  ctx: ServiceContext,
  userId: string | undefined,
  purpose: OtpPurpose,
  code: string,
  consume: boolean,
): Promise<void> {
  const now = ctx.clock.now();
  const forUser = userId ?? NO_USER;
  const otp = await findNewestUnusedOtp(ctx.db, forUser, purpose);
  const live = otp && otp.expires_at > now && otp.attempts < OTP_MAX_TRIES ? otp : undefined;
  // A try is counted even where there is no live code (an update that finds nothing), and the
  // code's digest is worked out either way: a missing code costs what a wrong one does.
  const claim = await ctx.db
    .updateTable('otps')
    .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
    .where('id', '=', live?.id ?? NO_USER)
    .where('attempts', '<', OTP_MAX_TRIES)
    .where('consumed_at', 'is', null)
    .executeTakeFirst();
  const matches = safeEqual(live?.code_hash ?? '', otpDigest(ctx, forUser, purpose, code));
  if (!live || !userId || Number(claim.numUpdatedRows) === 0 || !matches) throw codeRefused();
  if (!consume) {
    await ctx.db
      .updateTable('otps')
      .set((eb) => ({ attempts: eb('attempts', '-', 1) }))
      .where('id', '=', live.id)
      .execute();
    return;
  }
  const used = await ctx.db
    .updateTable('otps')
    .set({ consumed_at: now })
    .where('id', '=', live.id)
    .where('consumed_at', 'is', null)
    .executeTakeFirst();
  if (Number(used.numUpdatedRows) === 0) throw codeRefused();
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
  issueOtpAfterAnswer(ctx, user, input.purpose);
}

/** `login` codes sign in; `reset` codes are only checked here (the reset itself consumes them). */
export async function verifyOtp(ctx: ServiceContext, input: OtpVerifyInput, address: string): Promise<TokenPair | null> {
  await ctx.limits.authByIdentifier(input.phone);
  const user = await userByPhone(ctx, input.phone);
  await checkOtp(ctx, user?.id, input.purpose, input.code, input.purpose === 'login');
  if (!user) throw codeRefused();
  if (input.purpose === 'reset') return null;
  // The owner proved the account from here: a lock someone else's guessing left on this address lifts.
  await proved(ctx, address, user);
  const storeId = await activeStoreFor(ctx, user, user.store_id);
  return issueTokens(ctx, user, { storeId, amr: ['otp'] });
}
