import { Envelope, ScheduledReport, ScheduledReportDispatch } from '@duka/shared';
import pino from 'pino';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDeps } from '../../server/src/app.js';
import { runScheduledReports } from '../../server/src/modules/reports/services/scheduler.js';
import { addDays, localDate } from '../../server/src/lib/time.js';
import { registerOwner, type Session, uniqueEmail } from '../setup/factories.js';
import { csvRecords, localAt, moveClock, signIn, TZ } from '../setup/reports-factories.js';
import { createTestApp, type TestApp } from '../setup/test-app.js';
import { freePort } from '../setup/free-port.js';

interface Received {
  to: string[];
  raw: string;
}

/** The decoded attachment of a raw MIME message, with its file name. */
function attachmentOf(raw: string): { fileName: string; content: string } | null {
  const boundary = raw.match(/boundary="?([^";\r\n]+)"?/)?.[1];
  if (!boundary) return null;
  for (const part of raw.split(`--${boundary}`)) {
    const [head, ...rest] = part.split('\r\n\r\n');
    const headers = (head ?? '').replace(/\r\n[ \t]+/g, ' ');
    if (!/Content-Disposition: attachment/i.test(headers)) continue;
    expect(headers).toMatch(/Content-Transfer-Encoding: base64/i);
    const fileName = headers.match(/filename="?([^";\r\n]+)"?/)![1]!;
    return { fileName, content: Buffer.from(rest.join('\r\n\r\n').replace(/\s+/g, ''), 'base64').toString('utf8') };
  }
  return null;
}

describe('scheduled reports: CRUD, send now, and the scheduler across instances and restarts', () => {
  const received: Received[] = [];
  let smtp: SMTPServer;
  let t: TestApp;
  let owner: Session;
  const [alice, bob] = [uniqueEmail('alice'), uniqueEmail('bob')];

  beforeAll(async () => {
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onData(stream, session, done) {
        let raw = '';
        stream.on('data', (d) => (raw += d));
        stream.on('end', () => {
          received.push({ to: session.envelope.rcptTo.map((r) => r.address), raw });
          done();
        });
      },
    });
    const port = await freePort();
    await new Promise<void>((resolve) => smtp.listen(port, '127.0.0.1', resolve));
    t = await createTestApp({ config: { SMTP_URL: `smtp://127.0.0.1:${port}`, EMAIL_FROM: 'Duka <hello@duka.test>' } });
    owner = await registerOwner(t);
  });
  afterAll(async () => {
    await t.close();
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
  });

  const call = (method: string, path: string, body?: unknown, s: { token: string } = owner) =>
    t.request(method, path, { token: s.token, body });
  const mailsTo = (email: string, subject: string) => received.filter((m) => m.to.includes(email) && m.raw.includes(subject));
  const outboxRows = async (email: string, subject: string) =>
    (await t.db.db.selectFrom('outbox').select(['status', 'subject']).where('recipient', '=', email).execute()).filter((r) =>
      r.subject?.startsWith(subject),
    );

  // For owners only (staff and managers 403): test/api/access-rules.test.ts.
  it('validates its input; next send at 07:00 local (daily), Monday (weekly), the 1st (monthly)', async () => {
    const bad = await call('POST', '/reports/scheduled', {
      report_type: 'sales',
      name: 'Daily',
      frequency: 'hourly',
      date_range_preset: '7d',
      recipients: ['not-an-email'],
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(['frequency', 'recipients.0']);

    const res = await call('POST', '/reports/scheduled', {
      report_type: 'sales',
      name: 'Mauzo ya wiki',
      frequency: 'daily',
      date_range_preset: '7d',
      recipients: [alice, bob],
    });
    expect(res.status, res.text).toBe(200);
    const created = Envelope(ScheduledReport).parse(res.body).data;
    const now = t.clock.now();
    const today = localDate(now, TZ);
    const firstRun = localAt(today, '07:00:00') > now ? localAt(today, '07:00:00') : localAt(addDays(today, 1), '07:00:00');
    expect(created).toMatchObject({
      report_type: 'sales',
      name: 'Mauzo ya wiki',
      frequency: 'daily',
      date_range_preset: '7d',
      recipients: [alice, bob],
      is_enabled: true,
      last_run_at: null,
      store_id: owner.storeId,
    });
    expect(created.next_run_at).toBe(new Date(firstRun).toISOString());

    const weekly = (await call('PATCH', `/reports/scheduled/${created.id}`, { frequency: 'weekly' })).body.data as ScheduledReport;
    const weekDay = new Date(`${localDate(Date.parse(weekly.next_run_at), TZ)}T00:00:00Z`).getUTCDay();
    expect([weekDay, new Date(weekly.next_run_at).toISOString().slice(11, 19)]).toEqual([1, '04:00:00']);
    const monthly = (await call('PATCH', `/reports/scheduled/${created.id}`, { frequency: 'monthly', name: 'Mauzo' })).body
      .data as ScheduledReport;
    expect(localDate(Date.parse(monthly.next_run_at), TZ).slice(8)).toBe('01');
    expect(monthly.name).toBe('Mauzo');
    const back = (await call('PATCH', `/reports/scheduled/${created.id}`, { frequency: 'daily', name: 'Mauzo ya wiki' })).body
      .data as ScheduledReport;
    expect(back.next_run_at).toBe(created.next_run_at);

    const list = await call('GET', '/reports/scheduled');
    expect(list.body.data.map((s: ScheduledReport) => s.id)).toEqual([created.id]);

    // Another organisation's schedule by id (change, delete, send): test/api/access-rules.test.ts.
    const other = await registerOwner(t);
    expect((await call('GET', '/reports/scheduled', undefined, other)).body.data).toEqual([]);

    const doomed = (
      await call('POST', '/reports/scheduled', {
        report_type: 'credit',
        name: 'Madeni',
        frequency: 'weekly',
        date_range_preset: '30d',
        recipients: [alice],
      })
    ).body.data;
    expect((await call('DELETE', `/reports/scheduled/${doomed.id}`)).status).toBe(200);
    expect((await call('GET', '/reports/scheduled')).body.data).toHaveLength(1);
  });

  it('sends now: each recipient gets the CSV attached, the same bytes as the export; the schedule is unchanged', async () => {
    const product = (await call('POST', '/inventory/products', { name: 'Chai, "Simba"', selling_price: 1500, stock: 10 })).body.data;
    const sale = await call('POST', '/pos/sale', { lines: [{ product_id: product.id, qty: 2 }], payment_method: 'Cash' });
    expect(sale.status).toBe(201);
    const schedule = (await call('GET', '/reports/scheduled')).body.data[0] as ScheduledReport;
    // The period ends yesterday: move a day on so that today's sale is in it.
    moveClock(t, t.clock.now() + 86_400_000);
    owner = await signIn(t, owner);

    const res = await call('POST', `/reports/scheduled/${schedule.id}/send`);
    expect(res.status, res.text).toBe(200);
    const dispatch = Envelope(ScheduledReportDispatch).parse(res.body).data;
    const yesterday = addDays(localDate(t.clock.now(), TZ), -1);
    expect(dispatch).toMatchObject({ scheduled_report_id: schedule.id, recipients: [alice, bob], queued: 2, delivered: true });
    expect(dispatch.export).toMatchObject({
      report_type: 'sales',
      format: 'csv',
      date_from: addDays(yesterday, -6),
      date_to: yesterday,
      scheduled_report_id: schedule.id,
    });

    const download = await call('GET', `/reports/exports/${dispatch.export.id}/download`);
    expect(csvRecords(download.text).records.map((r) => [r.status, r.total])).toEqual([['paid', '3000.00']]);
    for (const to of [alice, bob]) {
      const mails = mailsTo(to, 'Mauzo ya wiki');
      expect(mails).toHaveLength(1);
      expect(mails[0]!.raw).toContain(`Subject: Mauzo ya wiki: Sales report ${addDays(yesterday, -6)} to ${yesterday}`);
      const attached = attachmentOf(mails[0]!.raw)!;
      expect(attached.fileName).toBe(dispatch.export.file_name);
      expect(attached.content).toBe(download.text);
    }
    expect(await outboxRows(alice, 'Mauzo ya wiki')).toEqual([expect.objectContaining({ status: 'sent' })]);
    expect((await call('GET', '/reports/scheduled')).body.data[0]).toMatchObject({
      next_run_at: schedule.next_run_at,
      last_export_id: dispatch.export.id,
    });
  });

  it('a due report is sent exactly once by concurrent scheduler ticks on two instances, and not again after a restart until the next day', async () => {
    const schedule = (await call('GET', '/reports/scheduled')).body.data[0] as ScheduledReport;
    const due = Date.parse(schedule.next_run_at);
    // Fast forward to a minute after it is due (the clock is already past it: it is due now).
    if (t.clock.now() < due) moveClock(t, due + 60_000);
    const sentBefore = mailsTo(alice, 'Mauzo ya wiki').length;
    const second = createDeps(t.config, t.db, pino({ level: 'silent' }), t.clock);
    const runs = await Promise.all([
      runScheduledReports(t.deps),
      runScheduledReports(second),
      runScheduledReports(t.deps),
      runScheduledReports(second),
    ]);
    expect(runs.reduce((a, b) => a + b, 0)).toBe(1);
    expect(mailsTo(alice, 'Mauzo ya wiki')).toHaveLength(sentBefore + 1);
    expect(mailsTo(bob, 'Mauzo ya wiki')).toHaveLength(sentBefore + 1);
    expect(await outboxRows(alice, 'Mauzo ya wiki')).toHaveLength(2);
    const scheduledExports = await t.db.db
      .selectFrom('report_exports')
      .select('id')
      .where('scheduled_report_id', '=', schedule.id)
      .where('created_by', 'is', null)
      .execute();
    expect(scheduledExports).toHaveLength(1);
    // The attachment of the scheduled email is the recorded export.
    const mail = mailsTo(alice, 'Mauzo ya wiki').at(-1)!;
    const file = await call('GET', `/reports/exports/${scheduledExports[0]!.id}/download`);
    expect(attachmentOf(mail.raw)!.content).toBe(file.text);

    const after = (await call('GET', '/reports/scheduled')).body.data[0] as ScheduledReport;
    const today = localDate(t.clock.now(), TZ);
    const next = localAt(today, '07:00:00') > t.clock.now() ? localAt(today, '07:00:00') : localAt(addDays(today, 1), '07:00:00');
    expect(after).toMatchObject({ next_run_at: new Date(next).toISOString(), last_export_id: scheduledExports[0]!.id });

    // A restart: fresh instances over the same database send nothing more today...
    const restarted = createDeps(t.config, t.db, pino({ level: 'silent' }), t.clock);
    expect(await runScheduledReports(restarted)).toBe(0);
    moveClock(t, next - 60_000);
    expect(await runScheduledReports(restarted)).toBe(0);
    expect(await outboxRows(alice, 'Mauzo ya wiki')).toHaveLength(2);
    // ...and send the next day's at 07:00.
    moveClock(t, next);
    expect(await runScheduledReports(restarted)).toBe(1);
    expect(await runScheduledReports(t.deps)).toBe(0);
    expect(await outboxRows(alice, 'Mauzo ya wiki')).toHaveLength(3);
  });

  it('a disabled report is not sent; switching it back on schedules the next send from now', async () => {
    owner = await signIn(t, owner);
    const schedule = (await call('GET', '/reports/scheduled')).body.data[0] as ScheduledReport;
    expect((await call('PATCH', `/reports/scheduled/${schedule.id}`, { is_enabled: false })).body.data.is_enabled).toBe(false);
    moveClock(t, Date.parse(schedule.next_run_at) + 86_400_000 * 3);
    expect(await runScheduledReports(t.deps)).toBe(0);
    owner = await signIn(t, owner);
    const on = (await call('PATCH', `/reports/scheduled/${schedule.id}`, { is_enabled: true })).body.data as ScheduledReport;
    expect(Date.parse(on.next_run_at)).toBeGreaterThan(t.clock.now());
    expect(await runScheduledReports(t.deps)).toBe(0);
  });
});
