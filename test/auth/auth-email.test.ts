import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lastMessage, messageCount, registerOwner, type Session } from '../setup/factories.js';
import { createTestApp, type TestApp } from '../setup/test-app.js';

describe('email confirmation', () => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp()));
  afterAll(() => t.close());

  /** The path (under the base path) of the newest confirmation link mailed to `email`. */
  const linkIn = async (email: string) => {
    const mail = await lastMessage(t, email);
    const url = mail!.body.match(/https?:\/\/\S+\/auth\/confirm-email\?token=\S+/)![0];
    expect(url.startsWith(`http://localhost:${t.config.PORT}${t.config.BASE_PATH}/auth/confirm-email?token=`)).toBe(true);
    return url.slice(url.indexOf('/auth/confirm-email'));
  };
  const verified = async (s: Session) => (await t.request('GET', '/accounts/me', { token: s.token })).body.data.user.email_verified;
  const resend = (token?: string) => t.request('POST', '/auth/resend-confirmation', token ? { token } : {});

  it('confirms the address from the welcome email link and redirects to the site with verified=1', async () => {
    const s = await registerOwner(t);
    expect(await verified(s)).toBe(false);
    const res = await t.request('GET', await linkIn(s.email));
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe(`${t.config.SITE_URL}/login?verified=1`);
    expect(await verified(s)).toBe(true);
    // Opening the link again is harmless.
    const again = await t.request('GET', await linkIn(s.email));
    expect(again.headers.get('location')).toBe(`${t.config.SITE_URL}/login?verified=1`);
  });

  it('redirects with verified=0 for a garbage token and changes nothing', async () => {
    const s = await registerOwner(t);
    for (const token of ['garbage', s.token]) {
      const res = await t.request('GET', `/auth/confirm-email?token=${encodeURIComponent(token)}`);
      expect(res.status).toBe(302);
      expect(res.headers.get('location')).toBe(`${t.config.SITE_URL}/login?verified=0`);
    }
    expect(await verified(s)).toBe(false);
  });

  it('redirects with verified=0 once the link is older than 7 days', async () => {
    const s = await registerOwner(t);
    const path = await linkIn(s.email);
    t.clock.advance(7 * 86_400_000 + 1_000);
    const res = await t.request('GET', path);
    expect(res.headers.get('location')).toBe(`${t.config.SITE_URL}/login?verified=0`);
    expect(
      (
        await t.request('GET', '/accounts/me', {
          token: (await t.request('POST', '/auth/refresh', { body: { refresh_token: s.refresh } })).body.data.access_token,
        })
      ).body.data.user.email_verified,
    ).toBe(false);
  });

  it('answers 400 naming `token` when the token is missing', async () => {
    for (const path of ['/auth/confirm-email', '/auth/confirm-email?token=']) {
      const res = await t.request('GET', path);
      expect(res.status).toBe(400);
      expect(res.body.errors).toEqual([expect.objectContaining({ code: 'VALIDATION_ERROR', field: 'token' })]);
    }
  });

  it('resends a working confirmation email, and says so when the address is already confirmed', async () => {
    const s = await registerOwner(t);
    expect(await messageCount(t, s.email)).toBe(1);
    t.clock.advance(1_000); // so that the new email is unambiguously the newest
    const res = await resend(s.token);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, message: 'confirmation email sent', data: null, errors: null, meta: null });
    expect(await messageCount(t, s.email)).toBe(2);
    expect(await lastMessage(t, s.email)).toMatchObject({ channel: 'email', subject: 'Confirm your email for Duka' });

    const confirm = await t.request('GET', await linkIn(s.email));
    expect(confirm.headers.get('location')).toBe(`${t.config.SITE_URL}/login?verified=1`);
    expect(await verified(s)).toBe(true);

    const after = await resend(s.token);
    expect(after.status).toBe(200);
    expect(after.body.message).toBe('your email address is already confirmed');
    expect(await messageCount(t, s.email)).toBe(2);
  });

  it('refuses resend-confirmation without a token (401)', async () => {
    const res = await resend();
    expect(res.status).toBe(401);
    expect(res.body.errors[0].code).toBe('UNAUTHENTICATED');
  });
});
