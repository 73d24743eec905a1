import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { newId } from '@duka/shared';
import { afterAll, describe, expect, it } from 'vitest';
import { LOCAL_MIGRATIONS, migrateLocal, openLocalDb, sqliteFile, Till, TillError } from '@duka/client-sdk';

describe('Till.open: the local replica', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'duka-till-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const open = (dbPath: string) => Till.open({ baseUrl: 'http://127.0.0.1:9/api/v1', dbPath, deviceName: 'Counter 1', autoSync: false });

  it('creates the replica with a device id that survives a restart', async () => {
    const file = path.join(dir, 'till.db');
    const first = await open(file);
    expect(first.deviceId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7/);
    expect(first.status()).toMatchObject({ online: false, pending: 0, bootstrapped: false, authRequired: true });
    await first.close();
    const again = await open(file);
    expect(again.deviceId).toBe(first.deviceId);
    await again.close();
  });

  it('migrates a till database of an older SDK in place, keeping its device and queue', async () => {
    const file = path.join(dir, 'old.db');
    const old = openLocalDb(sqliteFile(file));
    expect(await migrateLocal(old, '0001_replica_and_queue')).toEqual(['0001_replica_and_queue']);
    const deviceId = newId();
    await old
      .insertInto('meta')
      .values({ key: 'device_id', value: JSON.stringify(deviceId) })
      .execute();
    await old
      .insertInto('queue')
      .values({
        id: newId(),
        seq: 1,
        type: 'stock.adjust',
        payload: '{}',
        created_at: new Date().toISOString(),
        state: 'pending',
        error_code: null,
        error_message: null,
        result: null,
        acked_at: null,
        undo: null,
      })
      .execute();
    await old.destroy();

    const till = await open(file);
    expect(till.deviceId).toBe(deviceId);
    expect(till.status().pending).toBe(1);
    expect(await till.conflicts()).toEqual([]);
    await till.close();
    const check = openLocalDb(sqliteFile(file));
    const applied = await check
      .selectFrom('kysely_migration' as never)
      .select('name' as never)
      .execute();
    expect(applied.map((r) => (r as { name: string }).name)).toEqual(Object.keys(LOCAL_MIGRATIONS));
    await check.destroy();
  });

  it('refuses to sell before it has ever synced its shop', async () => {
    const till = await open(':memory:');
    await expect(till.sell({ lines: [{ product_id: newId(), qty: 1 }], payment_method: 'Cash' })).rejects.toMatchObject({
      code: 'NOT_READY',
    });
    await expect(till.syncNow()).rejects.toBeInstanceOf(TillError);
    await expect(till.syncNow()).rejects.toMatchObject({ code: 'AUTH_REQUIRED' });
    await till.close();
    await expect(till.sell({ lines: [{ product_id: newId(), qty: 1 }], payment_method: 'Cash' })).rejects.toMatchObject({ code: 'CLOSED' });
  });
});
