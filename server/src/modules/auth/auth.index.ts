import { clientIp } from '../../lib/client-ip.js';
import { createRouter, type Router } from '../../lib/create-router.js';
import { authedCtx, ok, serviceCtx } from '../../lib/route.js';
import * as routes from './auth.routes.js';
import { login, verifyMfaLogin } from './services/login.js';
import { sendOtp, verifyOtp } from './services/otp.js';
import { FORGOT_MESSAGE, forgotPassword, resetPassword } from './services/password.js';
import { registerAccount } from './services/register.js';
import { confirmEmail, logout, resendConfirmation } from './services/session.js';
import { rotateRefreshToken } from './services/tokens.js';

export const authRouter: Router = createRouter();

// Password guessing and SMS pumping are limited per IP before any work is done.
for (const path of ['/auth/register', '/auth/otp/*', '/auth/login', '/auth/mfa/*', '/auth/refresh', '/auth/password/*', '/auth/confirm-email']) {
  authRouter.use(path, async (c, next) => {
    const ctx = serviceCtx(c);
    await ctx.limits.authByIp(clientIp(c, ctx.config.TRUST_PROXY));
    await next();
  });
}

authRouter
  .openapi(routes.register, async (c) => ok(c, await registerAccount(serviceCtx(c), c.req.valid('json')), { status: 201, message: 'account created' }))
  .openapi(routes.otpSend, async (c) => {
    await sendOtp(serviceCtx(c), c.req.valid('json'));
    return ok(c, null, { message: 'if the number has an account, a code has been sent' });
  })
  .openapi(routes.otpVerify, async (c) => {
    const tokens = await verifyOtp(serviceCtx(c), c.req.valid('json'));
    return ok(c, tokens, { message: tokens ? 'signed in' : 'code is valid; set the new password with /auth/password/reset' });
  })
  .openapi(routes.login, async (c) => ok(c, await login(serviceCtx(c), c.req.valid('json')), { message: 'signed in' }))
  .openapi(routes.mfaVerify, async (c) => ok(c, await verifyMfaLogin(serviceCtx(c), c.req.valid('json')), { message: 'signed in' }))
  .openapi(routes.refresh, async (c) => ok(c, await rotateRefreshToken(serviceCtx(c), c.req.valid('json').refresh_token), { message: 'tokens refreshed' }))
  .openapi(routes.confirmEmail, async (c) => c.redirect(await confirmEmail(serviceCtx(c), c.req.valid('query').token), 302))
  .openapi(routes.forgotPassword, async (c) => {
    await forgotPassword(serviceCtx(c), c.req.valid('json').identifier);
    return ok(c, null, { message: FORGOT_MESSAGE });
  })
  .openapi(routes.resetPassword, async (c) => {
    await resetPassword(serviceCtx(c), c.req.valid('json'));
    return ok(c, null, { message: 'password changed; sign in with the new password' });
  })
  .openapi(routes.logout, async (c) => {
    await logout(authedCtx(c), (c.req.valid('json') ?? {}).refresh_token);
    return ok(c, null, { message: 'signed out' });
  })
  .openapi(routes.resendConfirmation, async (c) => ok(c, null, { message: await resendConfirmation(authedCtx(c)) }));
