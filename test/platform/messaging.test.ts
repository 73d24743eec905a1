/** Email through SMTP (nodemailer) to a real SMTP server on loopback, and the outbox's record of it. */
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lastMessage, registerOwner } from '../setup/factories.js';
import { createTestApp, type TestApp } from '../setup/test-app.js';
import { freePort } from '../setup/free-port.js';

interface Received {
  from: string;
  to: string[];
  raw: string;
}

/** Undo quoted-printable soft line breaks and escaped `=` so the text can be searched. */
const unfold = (raw: string) => raw.replace(/=\r\n/g, '').replace(/=3D/g, '=');

describe('email delivery over SMTP', () => {
  const received: Received[] = [];
  let smtp: SMTPServer;
  let t: TestApp;

  beforeAll(async () => {
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onData(stream, session, done) {
        let raw = '';
        stream.on('data', (d) => (raw += d));
        stream.on('end', () => {
          received.push({
            from: String(session.envelope.mailFrom && session.envelope.mailFrom.address),
            to: session.envelope.rcptTo.map((r) => r.address),
            raw: unfold(raw),
          });
          done();
        });
      },
    });
    const port = await freePort();
    await new Promise<void>((resolve) => smtp.listen(port, '127.0.0.1', resolve));
    t = await createTestApp({ config: { SMTP_URL: `smtp://127.0.0.1:${port}`, EMAIL_FROM: 'Duka <hello@duka.test>' } });
  });
  afterAll(async () => {
    await t.close();
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
  });

  async function until(check: () => Promise<boolean> | boolean) {
    for (let i = 0; i < 100 && !(await check()); i++) await new Promise((r) => setTimeout(r, 50));
  }

  it('sends the welcome email after registration commits, and marks it sent', async () => {
    const owner = await registerOwner(t);
    await until(() => received.some((m) => m.to.includes(owner.email)));
    const mail = received.find((m) => m.to.includes(owner.email))!;
    expect(mail.from).toBe('hello@duka.test');
    expect(mail.raw).toContain('Subject: Welcome to Duka: confirm your email');
    expect(mail.raw).toContain('/api/v1/auth/confirm-email?token=');
    await until(async () => (await lastMessage(t, owner.email))?.status === 'sent');
    expect(await lastMessage(t, owner.email)).toMatchObject({ status: 'sent', attempts: 1, last_error: null });
  });

  it('redacts a delivered code from the outbox, and records failures for retry', async () => {
    const owner = await registerOwner(t);
    await until(async () => (await lastMessage(t, owner.email))?.status === 'sent');
    // An email-only reset code: the account's phone is removed so the code goes by email.
    await t.db.db.updateTable('users').set({ phone: null }).where('id', '=', owner.userId).execute();
    await t.request('POST', '/auth/password/forgot', { body: { identifier: owner.email } });
    const resetMail = () =>
      t.db.db
        .selectFrom('outbox')
        .selectAll()
        .where('recipient', '=', owner.email)
        .where('subject', '=', 'Your Duka password reset code')
        .executeTakeFirst();
    await until(async () => (await resetMail())?.status === 'sent');
    const sent = await resetMail();
    expect(sent).toMatchObject({ status: 'sent', body: '[redacted after delivery]' });
    expect(received.find((m) => m.to.includes(owner.email) && m.raw.includes('password reset code'))!.raw).toMatch(/code is \d{6}/);

    await new Promise<void>((resolve) => smtp.close(() => resolve()));
    const other = await registerOwner(t);
    await until(async () => (await lastMessage(t, other.email))?.status === 'failed');
    expect(await lastMessage(t, other.email)).toMatchObject({ status: 'failed', attempts: 1 });
  });
});
