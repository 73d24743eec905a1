/**
 * A loopback TCP proxy that stands between the tills and the server and breaks the network the
 * way a shop's network breaks: it refuses connections, cuts a request half-sent, cuts a
 * connection after the server got the request but before its reply arrives, delays bytes, and
 * can go fully down. Every decision comes from one seeded generator, so a run's faults are
 * replayable by its seed (the interleaving still depends on timing).
 *
 * Each till gets a route of its own (a listening port): to one server, or, with several servers,
 * to any of them picked per connection, as a load balancer without stickiness does. A route counts
 * its connections per server, so the run can tell which till reached which server.
 */
import { createServer, type Server, type Socket, connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { Rng } from './rng.js';

export interface Faults {
  /** Chance a new connection is closed at once. */
  refuse: number;
  /** Chance, per chunk the till sends, that only part of it gets through before the cut. */
  cutRequest: number;
  /** Chance, per chunk the server sends back, that it is dropped and the connection cut. */
  cutReply: number;
  /** Chance a chunk is held back for up to `maxDelayMs`. */
  delay: number;
  maxDelayMs: number;
}

export const NO_FAULTS: Faults = { refuse: 0, cutRequest: 0, cutReply: 0, delay: 0, maxDelayMs: 0 };

export interface ProxyCounts {
  connections: number;
  refused: number;
  refusedWhileDown: number;
  cutRequest: number;
  cutReply: number;
  delayed: number;
}

/** One till's way to the servers. */
export interface Route {
  port: number;
  targets: number[];
  /** Connections forwarded, per target port. */
  connections: Map<number, number>;
  /** Connections that went to another server than the route's connection before. */
  switches: number;
}

export class ChaosProxy {
  readonly counts: ProxyCounts = { connections: 0, refused: 0, refusedWhileDown: 0, cutRequest: 0, cutReply: 0, delayed: 0 };
  private readonly rng: Rng;
  private readonly servers: Server[] = [];
  private readonly open = new Set<Socket>();
  private isDown = false;

  constructor(
    seed: number,
    private faults: Faults,
  ) {
    this.rng = new Rng(seed);
  }

  /** A new route to `targets` (server ports): one is a pinned till, several a till behind a load balancer. */
  async listen(targets: number[]): Promise<Route> {
    let last: number | undefined;
    const route: Route = { port: 0, targets, connections: new Map(), switches: 0 };
    const server = createServer((client) => {
      const target = targets.length === 1 ? targets[0]! : this.rng.pick(targets);
      if (this.accept(client, target)) {
        route.connections.set(target, (route.connections.get(target) ?? 0) + 1);
        if (last !== undefined && last !== target) route.switches++;
        last = target;
      }
    });
    this.servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    route.port = (server.address() as AddressInfo).port;
    return route;
  }

  /** Cut every open connection and refuse new ones until `up()`. */
  down(): void {
    this.isDown = true;
    for (const s of this.open) s.destroy();
  }
  up(): void {
    this.isDown = false;
  }
  setFaults(f: Faults): void {
    this.faults = f;
  }
  /** No more faults from now on. */
  heal(): void {
    this.faults = NO_FAULTS;
    this.isDown = false;
  }

  async close(): Promise<void> {
    for (const s of this.open) s.destroy();
    await Promise.all(this.servers.map((server) => new Promise((resolve) => server.close(resolve))));
  }

  private track(s: Socket) {
    this.open.add(s);
    s.on('close', () => this.open.delete(s));
    s.on('error', () => s.destroy());
  }

  /** Forward `client` to `target` through the faults; false when the connection is refused. */
  private accept(client: Socket, target: number): boolean {
    this.counts.connections++;
    if (this.isDown) {
      this.counts.refusedWhileDown++;
      client.destroy();
      return false;
    }
    if (this.rng.chance(this.faults.refuse)) {
      this.counts.refused++;
      client.destroy();
      return false;
    }
    const upstream = connect(target, '127.0.0.1');
    this.track(client);
    this.track(upstream);
    const cut = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
    this.pipe(client, upstream, 'request', cut);
    this.pipe(upstream, client, 'reply', cut);
    return true;
  }

  /** Forward `from` → `to` chunk by chunk, in order, each chunk meeting its fate. */
  private pipe(from: Socket, to: Socket, way: 'request' | 'reply', cut: () => void) {
    let chain = Promise.resolve();
    from.on('data', (chunk: Buffer) => {
      const f = this.faults;
      const cutHere = this.rng.chance(way === 'request' ? f.cutRequest : f.cutReply);
      const wait = !cutHere && this.rng.chance(f.delay) ? this.rng.int(1, Math.max(1, f.maxDelayMs)) : 0;
      chain = chain.then(async () => {
        if (to.destroyed) return;
        if (cutHere) {
          if (way === 'request') {
            this.counts.cutRequest++;
            // Part of the request reaches the server, then the line dies.
            to.write(chunk.subarray(0, Math.floor(chunk.length / 2)), () => cut());
          } else {
            this.counts.cutReply++;
            cut();
          }
          return;
        }
        if (wait) {
          this.counts.delayed++;
          await new Promise((r) => setTimeout(r, wait));
          if (to.destroyed) return;
        }
        to.write(chunk);
      });
    });
    from.on('end', () => {
      chain = chain.then(() => {
        if (!to.destroyed) to.end();
      });
    });
  }
}
