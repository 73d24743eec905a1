/** The realtime link on sockets that see more or less: a fake socket and a fake session, on fake timers. */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ServerMessage } from '@duka/shared';
import type { AuthSession } from '../auth.js';
import { TillError } from '../errors.js';
import type { SocketEvents, TillSocket } from '../platform.js';
import { RealtimeLink } from './realtime.js';

const NOW = 1_800_000_000_000;
const MIN = 60_000;

/** Sockets the test drives by hand, and a session whose token expires `ttl` after NOW (`signedOut`: its refresh is refused). */
function rig(sees: { pings: boolean; refusals: boolean }, ttl = 15 * MIN, signedOut = false) {
  const dials: Array<{ url: string; token: string; on: SocketEvents; closed: boolean }> = [];
  let token = 'token-1';
  const refreshed: string[] = [];
  const auth = {
    accessToken: async () => token,
    claims: async () => ({ exp: (NOW + ttl) / 1000 }),
    refresh: async (stale: string) => {
      if (signedOut) throw new TillError('AUTH_REQUIRED', 'sign in again to sync');
      refreshed.push(stale);
      token = `token-${refreshed.length + 1}`;
      return token;
    },
  } as unknown as AuthSession;
  const live: boolean[] = [];
  const reachable: boolean[] = [];
  const messages: ServerMessage[] = [];
  let hints = 0;
  const link = new RealtimeLink({
    url: (t) => `ws://server/sync/ws?token=${t}`,
    socket: (url, on) => {
      const d = { url, token: new URL(url).searchParams.get('token')!, on, closed: false };
      dials.push(d);
      const s: TillSocket = { seesPings: sees.pings, seesRefusals: sees.refusals, close: () => void (d.closed = true) };
      return s;
    },
    auth,
    now: () => NOW,
    onHint: () => void hints++,
    onMessage: (m) => void messages.push(m),
    onReachable: (r) => reachable.push(r),
    onLive: (l) => live.push(l),
    backoff: { baseMs: 1000, maxMs: 1000 },
    random: () => 1,
  });
  return { link, dials, refreshed, live, reachable, messages, hints: () => hints, last: () => dials[dials.length - 1]! };
}

describe('the realtime link', () => {
  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => void vi.useRealTimers());
  const settle = () => vi.advanceTimersByTimeAsync(0);

  it('where refusals are hidden, a failed dial refreshes a fresh token only when it fails again, and always waits out the backoff', async () => {
    const r = rig({ pings: false, refusals: false });
    r.link.start();
    await settle();
    expect(r.dials.map((d) => d.token)).toEqual(['token-1']);
    r.last().on.close(1006);
    await settle();
    expect(r.refreshed).toEqual([]);
    // Nothing is said about reachability: a browser cannot tell a refusal from a dead network.
    expect(r.reachable).toEqual([]);
    await vi.advanceTimersByTimeAsync(999);
    expect(r.dials).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(r.dials.map((d) => d.token)).toEqual(['token-1', 'token-1']);
    r.last().on.close(1006);
    await settle();
    expect(r.refreshed).toEqual(['token-1']);
    await vi.advanceTimersByTimeAsync(1000);
    expect(r.dials.map((d) => d.token)).toEqual(['token-1', 'token-1', 'token-2']);
    r.last().on.open();
    expect(r.live).toEqual([false, false, true]);
    r.link.stop();
  });

  it('where refusals are hidden, a token near its expiry is refreshed at the first failed dial', async () => {
    const r = rig({ pings: false, refusals: false }, 4 * MIN);
    r.link.start();
    await settle();
    r.last().on.close(1006);
    await settle();
    expect(r.refreshed).toEqual(['token-1']);
    await vi.advanceTimersByTimeAsync(1000);
    expect(r.dials.map((d) => d.token)).toEqual(['token-1', 'token-2']);
    r.link.stop();
  });

  it('without visible pings, a quiet server is never taken for a dead one', async () => {
    const r = rig({ pings: false, refusals: false });
    r.link.start();
    await settle();
    r.last().on.open();
    await vi.advanceTimersByTimeAsync(10 * MIN);
    expect(r.last().closed).toBe(false);
    r.link.stop();
    expect(r.last().closed).toBe(true);
  });

  it('with visible pings, a server silent for 75 s is dropped and dialled again', async () => {
    const r = rig({ pings: true, refusals: true });
    r.link.start();
    await settle();
    r.last().on.open();
    await vi.advanceTimersByTimeAsync(74_000);
    r.last().on.ping();
    await vi.advanceTimersByTimeAsync(74_000);
    expect(r.last().closed).toBe(false);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(r.last().closed).toBe(true);
    r.last().on.close(1006);
    expect(r.reachable).toEqual([true, false]);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(r.dials).toHaveLength(2);
    r.link.stop();
  });

  it('where refusals show, a 401 refreshes at once and a 429 waits out the backoff', async () => {
    const r = rig({ pings: true, refusals: true });
    r.link.start();
    await settle();
    r.last().on.refused(401);
    await settle();
    expect(r.refreshed).toEqual(['token-1']);
    expect(r.dials.map((d) => d.token)).toEqual(['token-1', 'token-2']);
    r.last().on.refused(429);
    await vi.advanceTimersByTimeAsync(999);
    expect(r.dials).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(r.dials.map((d) => d.token)).toEqual(['token-1', 'token-2', 'token-2']);
    expect(r.refreshed).toEqual(['token-1']);
    r.link.stop();
  });

  it('dials with accept=stocks, and hands a stocks frame on as the stock message of each product, with one hint', async () => {
    const r = rig({ pings: true, refusals: true });
    r.link.start();
    await settle();
    expect(r.last().url).toBe('ws://server/sync/ws?token=token-1&accept=stocks');
    r.last().on.open();
    const hintsAtOpen = r.hints();
    r.last().on.message(JSON.stringify({ type: 'stock', product_id: 'p0', stock: 7 }));
    r.last().on.message(
      JSON.stringify({
        type: 'stocks',
        items: [
          { product_id: 'p1', stock: 12 },
          { product_id: 'p2', stock: 0 },
          { product_id: 'p3', stock: -4 },
        ],
      }),
    );
    expect(r.messages).toEqual([
      { type: 'stock', product_id: 'p0', stock: 7 },
      { type: 'stock', product_id: 'p1', stock: 12 },
      { type: 'stock', product_id: 'p2', stock: 0 },
      { type: 'stock', product_id: 'p3', stock: -4 },
    ]);
    expect(r.hints() - hintsAtOpen).toBe(2);
    r.link.stop();
  });

  it('a failed dial while signed out waits for the next start', async () => {
    const r = rig({ pings: false, refusals: false }, 4 * MIN, true);
    r.link.start();
    await settle();
    r.last().on.close(1006);
    await vi.advanceTimersByTimeAsync(10 * MIN);
    expect(r.dials).toHaveLength(1);
    r.link.stop();
  });
});
