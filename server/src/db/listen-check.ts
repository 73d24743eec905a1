/**
 * Whether this process's LISTEN hears a NOTIFY: the websockets' pokes of every instance come that
 * way (sync/ws/realtime.ts). Through a pooler in transaction mode (PgBouncer) a LISTEN succeeds but
 * lasts one transaction on some server connection, and nothing is ever heard; the pokes would stop
 * without a word. The check subscribes to a channel of its own, publishes on it through the pool as
 * any sale does, and waits for its own message.
 */
import { randomBytes } from 'node:crypto';
import type { DbHandle } from './handle.js';

export async function listenHearsNotify(bus: Pick<DbHandle, 'subscribe' | 'publish'>, timeoutMs = 5_000): Promise<boolean> {
  const channel = `duka_listen_check_${randomBytes(6).toString('hex')}`;
  const token = randomBytes(12).toString('hex');
  let heard!: (yes: boolean) => void;
  const outcome = new Promise<boolean>((resolve) => (heard = resolve));
  // Started first, and not unref'd: at boot nothing else may hold the process up meanwhile.
  const timer = setTimeout(() => heard(false), timeoutMs);
  const unsubscribe = await bus.subscribe(channel, (payload) => payload === token && heard(true));
  try {
    await bus.publish(channel, token);
    return await outcome;
  } finally {
    clearTimeout(timer);
    await unsubscribe();
  }
}
