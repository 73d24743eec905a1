/**
 * Registering the till (POST /sync/devices): once per device id, answered with its till code, which
 * numbers its offline receipts. The answer also carries the server's last applied seq: lower than
 * what this till has seen acknowledged means the server was restored from a backup, and the till
 * sends again what it still holds from there.
 */
import type { RegisteredDevice } from '../connector.js';
import { setMeta } from '../local/meta.js';
import { lastAckedSeq, resendFrom } from '../queue.js';
import type { SyncCtx } from './context.js';

export async function registerDevice(ctx: SyncCtx): Promise<RegisteredDevice> {
  const data = await ctx.auth.authed(({ api }, token, signal) =>
    api.registerDevice(token, { device_id: ctx.deviceId, name: ctx.deviceName }, signal),
  );
  await ctx.db.transaction().execute(async (trx) => {
    await setMeta(trx, 'till_code', data.till_code);
    await setMeta(trx, 'store_id', data.store_id);
  });
  await serverWentBack(ctx, data.last_applied_seq + 1);
  return data;
}

/**
 * The server expects `expected` next. At or below what it acknowledged to this till, it has lost
 * acknowledged mutations (a restore): say so and make the queue start there again. Answers whether
 * the queue moved.
 */
export async function serverWentBack(ctx: SyncCtx, expected: number): Promise<boolean> {
  const acked = await lastAckedSeq(ctx.db);
  if (expected > acked) return false;
  await ctx.db.transaction().execute((trx) => resendFrom(trx, expected));
  ctx.events.emit('server-restored', { expected_seq: expected, last_acked_seq: acked });
  return true;
}
