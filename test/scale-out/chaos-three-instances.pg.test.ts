/**
 * Issue 34's proof, the chaos part: three server processes on one PostgreSQL, each reaching it
 * through a real PgBouncer in transaction mode (DATABASE_URL) with a direct connection for LISTEN
 * and migrations (DATABASE_DIRECT_URL), behind a real nginx balancing round robin, with their
 * files in a real S3-compatible server. Each store's
 * tills are pinned to an instance or go through nginx; every instance is SIGKILLed twice in turn
 * while the tills sell through the faults; the end checks are the chaos run's (every sale once,
 * receipt numbers gapless, stock, credit, batches and TRA receipts exact).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectExercised } from '../chaos/short-run.js';
import { runChaos } from '../chaos/scenario.js';
import { startNginx } from '../setup/nginx.js';
import { type PgBouncer, startPgBouncer } from '../setup/pgbouncer.js';
import { type S3Server, startS3Server } from '../setup/s3-server.js';
import { createTestDb, type TestDb } from '../setup/test-db.js';

describe('three instances behind nginx and PgBouncer', () => {
  let db: TestDb;
  let pooler: PgBouncer;
  let s3: S3Server;
  beforeAll(async () => {
    db = await createTestDb();
    pooler = await startPgBouncer(db.url!);
    s3 = await startS3Server();
  });
  afterAll(async () => {
    await pooler?.stop();
    await s3?.stop();
    await db?.drop();
  });

  it('6 tills × 140 sales and 2 pharmacy tills × 70 over three instances, each killed twice: every sale and payment once, numbers gapless, stock and batches exact', {
    timeout: 480_000,
  }, async () => {
    const before = await pooler.stats();
    const result = await runChaos({
      seed: 20261126,
      servers: 3,
      tills: 6,
      sales: 140,
      pharmacyTills: 2,
      pharmacySales: 70,
      durationMs: 35_000,
      databaseUrl: db.url,
      pooledUrl: pooler.pooled(db.url!),
      balancer: startNginx,
      // Their files in the object store, as deployed (the run itself uploads none).
      serverEnv: Object.fromEntries(Object.entries(s3.config).map(([k, v]) => [k, String(v)])),
    });
    expectExercised(result, { sales: 840, pharmacySales: 140 });
    expect(result.figures['server kills']).toBe(6);
    expect(result.figures['tills behind the load balancer']).toBe(2);
    for (const n of [1, 2, 3]) expect(Number(result.figures[`connections to server ${n}`]), `server ${n}`).toBeGreaterThan(0);
    // The servers' work really went through the pooler.
    const after = await pooler.stats();
    expect(after.transactions - before.transactions).toBeGreaterThan(980);
  });
});
