/**
 * The caller's address, as proxy-addr reads it: X-Forwarded-For is walked from the right (the
 * hop our own proxy appended) towards the left, and only through proxies TRUST_PROXY trusts; the
 * first address not trusted is the client. The leftmost value, which the client itself writes, is
 * never taken unless every hop after it is trusted. With no trusted proxy the header is ignored.
 */
import type { IncomingMessage } from 'node:http';
import type { Context } from 'hono';
import proxyaddr from 'proxy-addr';
import type { Config } from '../env.js';

type Trust = (addr: string, hop: number) => boolean;
const compiled = new Map<string, Trust>();

/** TRUST_PROXY as proxy-addr's trust function, compiled once per setting. */
function trustOf(setting: Config['TRUST_PROXY']): Trust {
  const key = JSON.stringify(setting);
  let trust = compiled.get(key);
  if (!trust) {
    // A number of hops trusts the socket's peer and the hops - 1 entries to its left, whatever they say.
    trust = typeof setting === 'number' ? (_addr, hop) => hop < setting : proxyaddr.compile(setting);
    compiled.set(key, trust);
  }
  return trust;
}

export function clientIp(c: Context, trustProxy: Config['TRUST_PROXY']): string {
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  // In-process requests (app.request in tests and tools) have no socket: their peer is unknown,
  // trusted by a hop count but by no address list.
  const req =
    incoming ??
    ({
      headers: { 'x-forwarded-for': c.req.header('x-forwarded-for') },
      socket: { remoteAddress: undefined },
    } as unknown as IncomingMessage);
  if (trustProxy === 0) return req.socket.remoteAddress ?? 'in-process';
  return proxyaddr(req, trustOf(trustProxy)) ?? 'in-process';
}
