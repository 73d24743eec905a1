/**
 * A process holding many of the soak's tills (the SDK, each with its own replica file), driven by
 * the soak run over IPC. Each till signs in, loads its shop, then sells at a shop's rhythm (seeded
 * pauses, now and then a void or a refund of its own sale) with the SDK syncing in the background
 * and holding its websocket, like a real till. Its network goes down and comes back on its own
 * seeded schedule: every till reaches the server through a proxy of its own (the chaos run's, with
 * no faults), and an outage cuts its connections, websocket included, and refuses new ones.
 * Asked, the pool answers what happened since the last sample: sales, the sale and push latencies
 * and every till's queue. At the end it drains every queue and reports what each till recorded.
 */
import { type FetchLike, HttpConnector, Till } from '@duka/client-sdk';
import type { TillReport, WorkerSale } from '../chaos/protocol.js';
import { ChaosProxy, NO_FAULTS } from '../chaos/proxy.js';
import { Rng } from '../chaos/rng.js';
import { persist, sleep, tillReport } from '../chaos/till-common.js';
import type { FromPool, PoolSample, PoolTill, Rhythm, ToPool } from './protocol.js';

const send = (m: FromPool) => process.send!(m);
const emptySample = (): PoolSample => ({ sales: 0, saleMs: [], pushMs: [], tills: [] });
let sample = emptySample();
let stopped = false;

/**
 * Fetch that times every push the server accepted (until its answer's headers: the body follows
 * in the same write) and tells `onPush`: each answered push is the queue moving.
 */
const timedFetch =
  (onPush: () => void): FetchLike =>
  async (input, init) => {
    const t0 = performance.now();
    const res = await fetch(input, init);
    if (res.ok && input.includes('/sync/push')) {
      sample.pushMs.push([Date.now(), performance.now() - t0]);
      onPush();
    }
    return res;
  };

const between = (rng: Rng, mean: number) => rng.int(Math.floor(mean / 2), Math.ceil(mean * 1.5));

class SoakTill {
  till!: Till;
  readonly proxy: ChaosProxy;
  online = true;
  /** Pushes the server has answered so far (each answers a batch of the queue): the queue's progress. */
  acked = 0;
  readonly sales: WorkerSale[] = [];
  readonly counts: TillReport['counts'] = {
    sales: 0,
    lotRefusals: 0,
    refunds: 0,
    voids: 0,
    payments: 0,
    paymentsRefused: 0,
    relogins: 0,
    syncErrors: 0,
    conflictEvents: 0,
    rejectedEvents: 0,
  };

  constructor(readonly o: PoolTill) {
    this.proxy = new ChaosProxy(o.seed, NO_FAULTS);
  }

  async open(serverPort: number): Promise<void> {
    const route = await this.proxy.listen([serverPort]);
    this.till = await Till.open({
      connector: new HttpConnector({
        baseUrl: `http://127.0.0.1:${route.port}/api/v1`,
        fetch: timedFetch(() => this.acked++),
        timeoutMs: 30_000,
      }),
      dbPath: this.o.dbPath,
      deviceName: this.o.deviceName,
      autoSync: true,
      syncIntervalMs: 15_000,
      // Back within a few seconds of the network: a queue held longer than that is the server's doing.
      backoff: { baseMs: 250, maxMs: 3_000 },
    });
    this.till.on('auth-required', () => {
      this.counts.relogins++;
      void persist('login again', () => this.till.login(this.o.identifier, this.o.password));
    });
    this.till.on('conflict', () => this.counts.conflictEvents++);
    this.till.on('rejected', () => this.counts.rejectedEvents++);
    await persist('login', () => this.till.login(this.o.identifier, this.o.password));
    await persist('first sync', () => this.till.syncNow());
  }

  /** Sell until `until`, pausing at the shop's rhythm. */
  async sell(until: number, rhythm: Rhythm): Promise<void> {
    const rng = new Rng(this.o.seed);
    while (Date.now() < until && !stopped) {
      await sleep(between(rng, rhythm.paceMs));
      if (Date.now() >= until) break;
      const move = rng.weighted({ sale: 93, void: 4, refund: 3 });
      const open = this.sales.filter((s) => s.reversed === null);
      if (move !== 'sale' && open.length) {
        const target = rng.pick(open.slice(-20));
        const receipt =
          move === 'void'
            ? await this.till.void(target.id, 'rung up by mistake')
            : await this.till.refund(target.id, 'customer returned it');
        target.reversed = receipt.status as 'refunded' | 'void';
        this.counts[move === 'void' ? 'voids' : 'refunds']++;
        continue;
      }
      const products = [...this.o.productIds];
      const lines: Array<{ product_id: string; qty: number }> = [];
      for (let n = rng.int(1, 3); n > 0; n--)
        lines.push({ product_id: products.splice(rng.int(0, products.length - 1), 1)[0]!, qty: rng.int(1, 3) });
      const method = rng.weighted({ Cash: 60, 'M-Pesa': 25, 'Tigo Pesa': 8, Bank: 7 });
      const t0 = performance.now();
      const receipt = await this.till.sell({
        lines,
        payment_method: method,
        ...(method === 'M-Pesa' ? { payment_reference: `MP${this.counts.sales}` } : {}),
      });
      sample.saleMs.push([Date.now(), performance.now() - t0]);
      sample.sales++;
      this.sales.push({
        id: receipt.id,
        client_receipt_number: receipt.client_receipt_number!,
        created_at: receipt.created_at,
        payment_method: method,
        total: receipt.total,
        lines: receipt.lines.map((l) => ({ product_id: l.product_id, qty: l.qty, unit_price: l.unit_price })),
        reversed: null,
      });
      this.counts.sales++;
    }
  }

  /** The network drops and comes back on the till's own schedule until `until`. */
  async outages(until: number, rhythm: Rhythm): Promise<void> {
    const rng = new Rng(this.o.seed + 7);
    for (;;) {
      await sleep(Math.min(between(rng, rhythm.outageEveryMs), Math.max(0, until - Date.now())));
      if (Date.now() >= until || stopped) return;
      this.online = false;
      this.proxy.down();
      await sleep(Math.min(between(rng, rhythm.outageMs), Math.max(0, until - Date.now())));
      this.proxy.up();
      this.online = true;
    }
  }

  /** Network up; sync until the queue is empty and a sync finished cleanly. */
  async drain(timeoutMs: number): Promise<void> {
    this.proxy.up();
    this.online = true;
    await persist(
      `${this.o.name}: drain`,
      async () => {
        try {
          await this.till.syncNow();
        } catch (err) {
          this.counts.syncErrors++;
          throw err;
        }
        const s = this.till.status();
        if (s.pending > 0 || s.authRequired) throw new Error(`still ${s.pending} pending`);
      },
      timeoutMs,
    );
  }

  async report(): Promise<TillReport & { name: string }> {
    const r = await tillReport(this.till, { productIds: this.o.productIds, sales: this.sales, payments: [], counts: this.counts });
    await this.till.close();
    await this.proxy.close();
    return { ...r, name: this.o.name };
  }
}

let tills: SoakTill[] = [];

async function handle(m: ToPool): Promise<void> {
  if (m.type === 'start') {
    tills = m.tills.map((t) => new SoakTill(t));
    // A few at a time: each sign-in costs the server a password hash.
    for (let i = 0; i < tills.length; i += 4) await Promise.all(tills.slice(i, i + 4).map((t) => t.open(m.serverPort)));
    send({ type: 'ready' });
  } else if (m.type === 'go') {
    const until = Date.now() + m.durationMs;
    await Promise.all(tills.flatMap((t) => [t.sell(until, m.rhythm), t.outages(until, m.rhythm)]));
    send({ type: 'sold' });
  } else if (m.type === 'sample') {
    const s = sample;
    sample = emptySample();
    s.tills = tills.map((t) => {
      const st = t.till.status();
      return { name: t.o.name, pending: st.pending, acked: t.acked, online: t.online, live: st.live };
    });
    send({ type: 'sample', sample: s });
  } else if (m.type === 'drain') {
    await Promise.all(tills.map((t) => t.drain(m.timeoutMs)));
    send({ type: 'drained' });
  } else if (m.type === 'report') {
    const reports = [];
    for (const t of tills) reports.push(await t.report());
    send({ type: 'reports', reports });
  }
}

process.on('message', (m: ToPool) => {
  handle(m).catch((err) => send({ type: 'failed', error: err instanceof Error ? `${err.message}\n${err.stack}` : String(err) }));
});
process.on('disconnect', () => {
  stopped = true;
  process.exit(0);
});
