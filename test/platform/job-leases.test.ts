/**
 * Background jobs across server instances (issue 34): two instances (two sets of dependencies) on
 * one database run the timer's jobs at the same moment, and each effect happens once; a lease
 * holder that stalls past its lease cannot commit; on Postgres a lease is judged by the database's
 * clock, so an instance whose clock is off does not steal it.
 */
import { newId } from '@duka/shared';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AppDeps, createDeps } from '../../server/src/app.js';
import { backgroundJobs } from '../../server/src/background-jobs.js';
import { withTransaction } from '../../server/src/db/transaction.js';
import { LeaseLost } from '../../server/src/lib/leases.js';
import { createNotification } from '../../server/src/modules/notifications/services/create-notification.js';
import { runScheduledReports } from '../../server/src/modules/reports/services/scheduler.js';
import { NextSmsFake } from '../fakes/nextsms-fake.js';
import { e164, registerOwner, type Session, uniqueEmail, uniquePhone } from '../setup/factories.js';
import { signIn } from '../setup/reports-factories.js';
import { createTestApp, type TestApp, type TestClock, testClock } from '../setup/test-app.js';

const NEXT = { username: 'duka-next', password: 'next-pass-5c1e', senderIds: ['DUKA'] };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('background jobs across two server instances on one database', () => {
  const next = new NextSmsFake(NEXT);
  let t: TestApp;
  let other: AppDeps;
  let owner: Session;
  const instance = (clock: TestClock = t.clock) => createDeps(t.config, t.db, pino({ level: 'silent' }), clock);

  beforeAll(async () => {
    await next.start();
    t = await createTestApp({
      config: {
        SMS_PROVIDER: 'nextsms',
        SMS_API_KEY: NEXT.username,
        SMS_API_SECRET: NEXT.password,
        SMS_SENDER_ID: 'DUKA',
        SMS_NEXTSMS_URL: next.url,
        SMS_TIMEOUT_MS: 1_000,
      },
    });
    other = instance();
    owner = await registerOwner(t);
  });
  afterAll(async () => {
    await t.close();
    await next.stop();
  });

  /** Let a lease of `ms` lapse: the process clock judges it on SQLite, the database's on Postgres. */
  const lapse = async (ms: number) => {
    t.clock.advance(ms + 1);
    if (t.dialect === 'postgres') await sleep(ms + 50);
  };
  /** Every job's period over, for both instances (on Postgres, by the database's clock). */
  const periodsOver = async () => {
    t.clock.advance(60_000);
    await t.db.db.updateTable('job_leases').set({ expires_at: 0 }).where('name', 'like', 'job:%').execute();
  };
  const lowStockEvent = async () => {
    const id = newId();
    const line = {
      product_id: newId(),
      product_name: `Sukari ${id.slice(-8)}`,
      qty: 3,
      stock_after: 4,
      reorder_point: 5,
      is_service: false,
    };
    await t.db.db
      .insertInto('events')
      .values({
        id,
        org_id: owner.orgId,
        store_id: owner.storeId,
        type: 'transaction.created',
        payload: JSON.stringify({ transaction_id: newId(), lines: [line] }),
        occurred_at: t.clock.now() - 10_000,
        delivered: 0,
      })
      .execute();
    return { id, title: `Low stock: ${line.product_name}` };
  };
  const notices = (title: string) =>
    t.db.db.selectFrom('notifications').select('id').where('store_id', '=', owner.storeId).where('title', '=', title).execute();
  const dueReport = async (recipient: string) => {
    owner = await signIn(t, owner);
    // Only this one is due: an earlier test's schedule is switched off.
    await t.db.db.updateTable('scheduled_reports').set({ is_enabled: 0 }).execute();
    const res = await t.request('POST', '/reports/scheduled', {
      token: owner.token,
      body: { report_type: 'sales', name: `Daily ${recipient}`, frequency: 'daily', date_range_preset: '7d', recipients: [recipient] },
    });
    expect(res.status, res.text).toBe(200);
    t.clock.advance(Date.parse(res.body.data.next_run_at) + 60_000 - t.clock.now());
    return res.body.data.id as string;
  };
  /** Files each instance renders (report exports are written to storage before the send commits). */
  const countRenders = (deps: AppDeps) => {
    const counter = { n: 0 };
    const put = deps.storage.put.bind(deps.storage);
    deps.storage = { ...deps.storage, put: (key, body) => (counter.n++, put(key, body)) };
    return counter;
  };
  const mails = (to: string) => t.db.db.selectFrom('outbox').select('id').where('recipient', '=', to).execute();
  const reportPolls = () => next.requests.filter((r) => r.url.includes('/api/sms/v1/reports')).length;

  it('a lease is taken by one instance at a time, renewed while held, and free again once released', async () => {
    const name = `unit:${newId()}`;
    const mine = (await t.deps.leases.take(name, 60_000))!;
    expect(mine.token).toBe(1);
    expect(await other.leases.take(name)).toBeNull();
    expect(await t.deps.leases.take(name)).toBeNull();
    expect(await mine.renew(60_000)).toBe(true);
    await mine.release();
    const theirs = (await other.leases.take(name))!;
    expect(theirs.token).toBe(2);
    expect(await mine.renew()).toBe(false);
  });

  it('a holder that stalls past its lease while another instance takes over commits nothing (fencing)', async () => {
    const name = `unit:${newId()}`;
    const stalled = (await t.deps.leases.take(name, 300))!;
    await lapse(300);
    const taker = (await other.leases.take(name, 300))!;
    expect(taker.token).toBe(stalled.token + 1);
    const write = (deps: AppDeps, lease: typeof stalled, title: string) =>
      withTransaction({ ...deps, actor: null, requestId: 'fence-test' }, async (tx) => {
        await createNotification(tx, { orgId: owner.orgId, storeId: owner.storeId, category: 'system', title, body: 'b' });
        await lease.fence(tx.db);
      });
    await expect(write(t.deps, stalled, `late ${name}`)).rejects.toBeInstanceOf(LeaseLost);
    await write(other, taker, `on time ${name}`);
    expect(await notices(`late ${name}`)).toHaveLength(0);
    expect(await notices(`on time ${name}`)).toHaveLength(1);
    // Lapsed and not taken over is lost too: the work's owner must be live when it commits.
    await lapse(300);
    await expect(write(other, taker, `lapsed ${name}`)).rejects.toBeInstanceOf(LeaseLost);
  });

  it("an event's subscriber runs once when both instances deliver and retry it at the same moment", async () => {
    const { id, title } = await lowStockEvent();
    await Promise.all([
      t.deps.events.deliver({ id, org_id: owner.orgId }),
      other.events.deliver({ id, org_id: owner.orgId }),
      t.deps.events.retryPending(),
      other.events.retryPending(),
    ]);
    await Promise.all([t.deps.events.retryPending(), other.events.retryPending()]);
    expect(await notices(title)).toHaveLength(1);
    expect(await t.db.db.selectFrom('events').select('delivered').where('id', '=', id).executeTakeFirstOrThrow()).toEqual({ delivered: 1 });
  });

  it('a due scheduled report is claimed before rendering: rendered and emailed once by two instances at once', async () => {
    const to = uniqueEmail('lease-report');
    await dueReport(to);
    const [a, b] = [countRenders(t.deps), countRenders(other)];
    const sent = await Promise.all([
      runScheduledReports(t.deps),
      runScheduledReports(other),
      runScheduledReports(t.deps),
      runScheduledReports(other),
    ]);
    expect(sent.reduce((x, y) => x + y, 0)).toBe(1);
    expect(a.n + b.n).toBe(1);
    expect(await mails(to)).toHaveLength(1);
  });

  it("the timer's jobs ticking on both instances together: one notification, one report, one question to the SMS gateway", async () => {
    await periodsOver();
    await withTransaction(t.serviceCtx(), (tx) => tx.messenger.send(tx, { channel: 'sms', to: e164(uniquePhone()), body: 'Habari' }));
    t.clock.advance(61_000);
    const pendingSms = await t.db.db
      .selectFrom('outbox')
      .select('id')
      .where('provider', '=', 'nextsms')
      .where('delivery_status', '=', 'pending')
      .execute();
    expect(pendingSms.length).toBeGreaterThan(0);
    const { title } = await lowStockEvent();
    const to = uniqueEmail('lease-tick');
    await dueReport(to);
    const [a, b] = [countRenders(t.deps), countRenders(other)];
    const polled = reportPolls();

    await Promise.all([backgroundJobs(t.deps).tick(), backgroundJobs(other).tick(), backgroundJobs(t.deps).tick()]);
    expect(await notices(title)).toHaveLength(1);
    expect(a.n + b.n).toBe(1);
    expect(await mails(to)).toHaveLength(1);
    expect(reportPolls() - polled).toBe(pendingSms.length);

    // Within the period nobody runs them again; after it, one instance does.
    await Promise.all([backgroundJobs(t.deps).tick(), backgroundJobs(other).tick()]);
    expect(reportPolls() - polled).toBe(pendingSms.length);
    await periodsOver();
    await Promise.all([backgroundJobs(t.deps).tick(), backgroundJobs(other).tick()]);
    expect(reportPolls() - polled).toBe(2 * pendingSms.length);
  });

  it.runIf(process.env.DUKA_TEST_DIALECT === 'postgres')(
    'on Postgres, an instance whose clock is ten minutes ahead does not take a live lease: the database clock judges it',
    async () => {
      const name = `unit:${newId()}`;
      const ahead = instance(testClock(t.clock.now() + 10 * 60_000));
      const behind = instance(testClock(t.clock.now() - 10 * 60_000));
      const held = (await behind.leases.take(name, 60_000))!;
      expect(held).not.toBeNull();
      expect(await ahead.leases.take(name)).toBeNull();
      // Nor does the holder's own slow clock make it lapse early or late: it renews and fences as usual.
      expect(await held.renew(60_000)).toBe(true);
      await withTransaction({ ...behind, actor: null, requestId: 'clock-test' }, (tx) => held.fence(tx.db));
      const row = await t.db.db
        .selectFrom('job_leases')
        .select(['holder', 'expires_at'])
        .where('name', '=', name)
        .executeTakeFirstOrThrow();
      expect(row.holder).toBe(behind.leases.holder);
      expect(Math.abs(Number(row.expires_at) - 60_000 - Date.now())).toBeLessThan(5_000);
    },
  );
});
