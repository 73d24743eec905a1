import { mkdtempSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { text } from 'node:stream/consumers';
import { Envelope, ScheduledReport, ScheduledReportDispatch, UploadResult } from '@duka/shared';
import pino from 'pino';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, createDeps } from '../../server/src/app.js';
import { createDb } from '../../server/src/db/create-db.js';
import { type Config, testConfig } from '../../server/src/env.js';
import { storageFromConfig } from '../../server/src/lib/storage-config.js';
import { StorageError } from '../../server/src/lib/storage.js';
import { ONE_PIXEL_PNG, registerOwner, type Session, uniqueEmail } from '../setup/factories.js';
import { freePort } from '../setup/free-port.js';
import { startS3Server, type S3Server } from '../setup/s3-server.js';
import { createTestApp, listen, type Listening, type TestApp } from '../setup/test-app.js';
import { DIALECT } from '../setup/test-db.js';

/** Another server instance on the same database (its own pool on Postgres), with a DATA_DIR of its own, served on a real port. */
async function secondInstance(t: TestApp, config: Partial<Config>) {
  const db = DIALECT === 'postgres' ? createDb({ url: t.db.url!, poolSize: 2 }) : t.db;
  const deps = createDeps(
    { ...t.config, DATA_DIR: mkdtempSync(path.join(tmpdir(), 'duka-second-')), ...config },
    db,
    pino({ level: 'silent' }),
    t.clock,
  );
  const http = await listen({ app: createApp(deps, db.ping) });
  return {
    deps,
    http,
    async close() {
      await http.close();
      if (db !== t.db) await db.close();
    },
  };
}

describe('files in an S3-compatible store', () => {
  let s3: S3Server;
  let t: TestApp;
  let http: Listening;
  let owner: Session;
  const received: string[] = [];
  let smtpRefusals = 0;
  let smtp: SMTPServer;

  beforeAll(async () => {
    s3 = await startS3Server();
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onData(stream, _session, done) {
        let raw = '';
        stream.on('data', (d) => (raw += d));
        stream.on('end', () => {
          if (smtpRefusals-- > 0) return done(Object.assign(new Error('try again later'), { responseCode: 451 }));
          received.push(raw);
          done();
        });
      },
    });
    const smtpPort = await freePort();
    await new Promise<void>((resolve) => smtp.listen(smtpPort, '127.0.0.1', resolve));
    t = await createTestApp({ config: { ...s3.config, SMTP_URL: `smtp://127.0.0.1:${smtpPort}` } });
    http = await listen(t);
    owner = await registerOwner(t);
  });
  afterAll(async () => {
    await http?.close();
    await t?.close();
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
    await s3?.stop();
  });

  const upload = async (origin: string, bytes: Buffer, kind: string) => {
    const form = new FormData();
    form.append('file', new File([bytes], 'photo.png', { type: 'image/png' }));
    form.append('kind', kind);
    const res = await fetch(`${origin}${t.config.BASE_PATH}/uploads`, {
      method: 'POST',
      body: form,
      headers: { authorization: `Bearer ${owner.token}` },
    });
    expect(res.status, await res.clone().text()).toBe(201);
    return Envelope(UploadResult).parse(await res.json()).data;
  };
  const download = async (origin: string, url: string, token?: string) => {
    const res = await fetch(`${origin}${url}`, token ? { headers: { authorization: `Bearer ${token}` } } : undefined);
    return { status: res.status, bytes: Buffer.from(await res.arrayBuffer()) };
  };

  it('uploads into the bucket and serves the file back over HTTP; signed links work until tampered or expired; delete removes the object', async () => {
    const file = await upload(http.origin, ONE_PIXEL_PNG, 'receipt');
    expect(await s3.keys()).toContain(file.key);
    expect(await download(http.origin, file.url, owner.token)).toEqual({ status: 200, bytes: ONE_PIXEL_PNG });
    expect((await download(http.origin, file.url)).status).toBe(401);
    expect(await download(http.origin, file.signed_url!)).toEqual({ status: 200, bytes: ONE_PIXEL_PNG });
    expect(
      (
        await download(
          http.origin,
          file.signed_url!.replace(/expires=(\d+)/, (_, e: string) => `expires=${Number(e) + 3600}`),
        )
      ).status,
    ).toBe(401);
    t.clock.advance(15 * 60_000 + 1000);
    expect((await download(http.origin, file.signed_url!)).status).toBe(401);
    owner = {
      ...owner,
      token: (await t.request('POST', '/auth/refresh', { body: { refresh_token: owner.refresh } })).body.data.access_token,
    };

    const removed = await fetch(`${http.origin}${t.config.BASE_PATH}/uploads`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${owner.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ key: file.key }),
    });
    expect(removed.status).toBe(200);
    expect(await s3.keys()).not.toContain(file.key);
    expect((await download(http.origin, file.url, owner.token)).status).toBe(404);
  });

  it('a file uploaded through one instance downloads through a second one on the same bucket (and not through one on its own disk)', async () => {
    const file = await upload(http.origin, ONE_PIXEL_PNG, 'receipt');
    const second = await secondInstance(t, {});
    const onDisk = await secondInstance(t, { STORAGE_DRIVER: 'local' });
    try {
      expect(await download(second.http.origin, file.url, owner.token)).toEqual({ status: 200, bytes: ONE_PIXEL_PNG });
      expect(await download(second.http.origin, file.signed_url!)).toEqual({ status: 200, bytes: ONE_PIXEL_PNG });
      expect((await download(onDisk.http.origin, file.url, owner.token)).status).toBe(404);
    } finally {
      await second.close();
      await onDisk.close();
    }
  });

  it('writes report exports to the bucket; a report email that failed is retried by another instance with its attachment', async () => {
    const generated = await t.request('POST', '/reports/generate', { token: owner.token, body: { report_type: 'sales', format: 'csv' } });
    expect(generated.status, generated.text).toBe(200);
    const exported = (await t.request('GET', '/reports/exports', { token: owner.token })).body.data[0];
    expect(await s3.keys()).toContain(`${owner.orgId}/exports/${exported.id}.csv`);

    const to = uniqueEmail('s3');
    const schedule = await t.request('POST', '/reports/scheduled', {
      token: owner.token,
      body: { report_type: 'sales', name: 'Wiki', frequency: 'daily', date_range_preset: '7d', recipients: [to] },
    });
    expect(schedule.status, schedule.text).toBe(200);
    smtpRefusals = 1;
    const sent = await t.request('POST', `/reports/scheduled/${Envelope(ScheduledReport).parse(schedule.body).data.id}/send`, {
      token: owner.token,
    });
    expect(sent.status, sent.text).toBe(200);
    const dispatch = Envelope(ScheduledReportDispatch).parse(sent.body).data;
    const outbox = () =>
      t.db.db.selectFrom('outbox').select(['status', 'last_error']).where('recipient', '=', to).executeTakeFirstOrThrow();
    expect(await outbox()).toMatchObject({ status: 'failed' });

    const second = await secondInstance(t, {});
    try {
      t.clock.advance(60_000);
      await second.deps.messenger.retryFailed();
      expect(await outbox()).toEqual({ status: 'sent', last_error: null });
      const res = await fetch(`${second.http.origin}${dispatch.export.file_url}`, { headers: { authorization: `Bearer ${owner.token}` } });
      expect(res.status).toBe(200);
      const csv = await res.text();
      expect(received.at(-1)!.replace(/\s+/g, '')).toContain(Buffer.from(csv).toString('base64'));
    } finally {
      await second.close();
    }
  });

  it('when the store goes down: readiness says so (200, degraded), uploads and downloads answer 503 with Retry-After and keep no row', async () => {
    // A store of its own, stopped halfway: the real server, not a fake, goes away.
    const own = await startS3Server('duka-down');
    const down = await createTestApp({ config: { ...own.config, S3_TIMEOUT_MS: 1_000 } });
    try {
      const someone = await registerOwner(down);
      const upload = () => {
        const form = new FormData();
        form.append('file', new File([ONE_PIXEL_PNG], 'photo.png', { type: 'image/png' }));
        form.append('kind', 'image');
        return down.request('POST', '/uploads', { token: someone.token, form });
      };
      const ready = async () => {
        const res = await down.app.request('/health/ready');
        return { status: res.status, body: await res.json() };
      };
      const before = await upload();
      expect(before.status).toBe(201);
      expect(await ready()).toEqual({ status: 200, body: { status: 'ok', database: 'ok', files: 'ok' } });

      await own.stop();
      expect(await ready()).toEqual({
        status: 200,
        body: {
          status: 'degraded',
          database: 'ok',
          files: 'unreachable',
          problems: ['the file store (object store) is unreachable: uploads, downloads and report exports answer 503'],
        },
      });
      const res = await upload();
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toBe('30');
      expect(res.body.errors[0]).toEqual({
        code: 'SERVICE_UNAVAILABLE',
        message: 'file storage is unreachable; send it again after Retry-After',
      });
      expect(res.text).not.toMatch(/127\.0\.0\.1|duka-down|S3|ECONNREFUSED/);
      const download = await down.app.request(before.body.data.url);
      expect(download.status).toBe(503);
      expect(download.headers.get('retry-after')).toBe('30');
      const rows = await down.db.db.selectFrom('uploads').select('key').where('org_id', '=', someone.orgId).execute();
      expect(rows).toEqual([{ key: before.body.data.key }]);
    } finally {
      await down.close();
      await own.stop().catch(() => {});
    }
  });
});

describe('the S3 storage driver', () => {
  let s3: S3Server;
  beforeAll(async () => (s3 = await startS3Server('duka-driver')));
  afterAll(() => s3?.stop());

  const storage = (config: Partial<Config> = {}) => storageFromConfig(testConfig({ ...s3.config, ...config }));
  async function* lines(n: number) {
    for (let i = 0; i < n; i++) yield `${'x'.repeat(1023)}\n`;
  }

  it('reads a missing key as null, overwrites, streams a body bigger than one part, and deletes only what is there', async () => {
    const st = storage({ S3_PREFIX: 'shop/prod' });
    expect(await st.get('org-1/none.png')).toBeNull();
    expect(await st.put('org-1/a.txt', Buffer.from('first'))).toBe(5);
    expect(await st.put('org-1/a.txt', Buffer.from('second'))).toBe(6);
    const got = await st.get('org-1/a.txt');
    expect(got!.size).toBe(6);
    expect(await text(got!.stream)).toBe('second');

    const big = 6 * 1024 + 7;
    expect(await st.put('org-1/big.csv', lines(big))).toBe(big * 1024);
    const read = await st.get('org-1/big.csv');
    expect(read!.size).toBe(big * 1024);
    expect((await text(read!.stream)).length).toBe(big * 1024);
    expect(await s3.keys()).toEqual(['shop/prod/org-1/a.txt', 'shop/prod/org-1/big.csv']);

    expect(await st.delete('org-1/a.txt')).toBe(true);
    expect(await st.delete('org-1/a.txt')).toBe(false);
    expect(await st.get('org-1/a.txt')).toBeNull();
  });

  it('fails with a StorageError, not a hang, when the store refuses connections or never answers', async () => {
    const refused = storage({ S3_ENDPOINT: `http://127.0.0.1:${await freePort()}`, S3_TIMEOUT_MS: 300 });
    await expect(refused.get('org-1/a.txt')).rejects.toThrowError(StorageError);
    await expect(refused.put('org-1/a.txt', Buffer.from('x'))).rejects.toThrowError(StorageError);

    const sockets: Socket[] = [];
    const silent: Server = createServer((s) => void sockets.push(s));
    const port = await freePort();
    await new Promise<void>((resolve) => silent.listen(port, '127.0.0.1', resolve));
    try {
      const hanging = storage({ S3_ENDPOINT: `http://127.0.0.1:${port}`, S3_TIMEOUT_MS: 300 });
      const started = Date.now();
      const err = await hanging.get('org-1/a.txt').catch((e: unknown) => e);
      expect(err).toBeInstanceOf(StorageError);
      expect((err as Error).message).not.toContain('S3RVER');
      expect(Date.now() - started).toBeLessThan(10_000);
      await expect(hanging.delete('org-1/a.txt')).rejects.toThrowError(StorageError);
    } finally {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });
});
