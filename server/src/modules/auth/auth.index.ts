import type { Context } from 'hono';
import { clientIp } from '../../lib/client-ip.js';
import { createRouter, type Router } from '../../lib/create-router.js';
import { authedCtx, ok, serviceCtx } from '../../lib/route.js';
import * as routes from './auth.routes.js';
import { login, verifyMfaLogin } from './services/login.js';
import { sendOtp, verifyOtp } from './services/otp.js';
import { FORGOT_MESSAGE, forgotPassword, resetPassword } from './services/password.js';
import { registerAccount } from './services/register.js';
import { addressFailed, assertAddressMayTry } from './services/sign-in-guard.js';
import { confirmEmail, logout, resendConfirmation } from './services/session.js';
import { rotateRefreshToken } from './services/tokens.js';

export const authRouter: Router = createRouter();

/*
 * Per address, only what guessing and SMS pumping need (sign-in-guard.ts): routes that check a
 * secret are refused once the address has had its minute's refused sign-ins, and every refusal
 * (401, 423) counts; routes that send a message count each request. Successes never count, and
 * /auth/refresh is limited per sign-in instead, so a shop or a carrier behind one address is not
 * starved by its neighbours.
 */
const address = (c: Context) => clientIp(c, serviceCtx(c).config.TRUST_PROXY);
for (const path of ['/auth/login', '/auth/otp/verify', '/auth/mfa/*', '/auth/password/reset', '/auth/confirm-email']) {
  authRouter.use(path, async (c, next) => {
    const ctx = serviceCtx(c);
    await assertAddressMayTry(ctx, address(c));
    await next();
    if (c.res.status === 401 || c.res.status === 423) await addressFailed(ctx, address(c));
  });
}
for (const path of ['/auth/register', '/auth/otp/send', '/auth/password/forgot']) {
  authRouter.use(path, async (c, next) => {
    await serviceCtx(c).limits.codesByAddress(address(c));
    await next();
  });
}

authRouter
  .openapi(routes.register, async (c) =>
    ok(c, await registerAccount(serviceCtx(c), c.req.valid('json')), { status: 201, message: 'account created' }),
  )
  .openapi(routes.otpSend, async (c) => {
    await sendOtp(serviceCtx(c), c.req.valid('json'));
    return ok(c, null, { message: 'if the number has an account, a code has been sent' });
  })
  .openapi(routes.otpVerify, async (c) => {
    const tokens = await verifyOtp(serviceCtx(c), c.req.valid('json'), address(c));
    return ok(c, tokens, { message: tokens ? 'signed in' : 'code is valid; set the new password with /auth/password/reset' });
  })
  .openapi(routes.login, async (c) => ok(c, await login(serviceCtx(c), c.req.valid('json'), address(c)), { message: 'signed in' }))
  .openapi(routes.mfaVerify, async (c) => ok(c, await verifyMfaLogin(serviceCtx(c), c.req.valid('json')), { message: 'signed in' }))
  .openapi(routes.refresh, async (c) =>
    ok(c, await rotateRefreshToken(serviceCtx(c), c.req.valid('json').refresh_token), { message: 'tokens refreshed' }),
  )
  .openapi(routes.confirmEmail, async (c) => c.redirect(await confirmEmail(serviceCtx(c), c.req.valid('query').token), 302))
  .openapi(routes.forgotPassword, async (c) => {
    await forgotPassword(serviceCtx(c), c.req.valid('json').identifier);
    return ok(c, null, { message: FORGOT_MESSAGE });
  })
  .openapi(routes.resetPassword, async (c) => {
    await resetPassword(serviceCtx(c), c.req.valid('json'), address(c));
    return ok(c, null, { message: 'password changed; sign in with the new password' });
  })
  .openapi(routes.logout, async (c) => {
    await logout(authedCtx(c), (c.req.valid('json') ?? {}).refresh_token);
    return ok(c, null, { message: 'signed out' });
  })
  .openapi(routes.resendConfirmation, async (c) => ok(c, null, { message: await resendConfirmation(authedCtx(c)) }));
