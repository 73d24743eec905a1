/**
 * A pharmacy till's lots, for the chaos run, kept outside the SDK (whose source this run does not
 * change). The till's connector is wrapped: what bootstrap and pull bring of entity `batch` is the
 * till's last-known shelf; a sale takes its lots from that shelf with the shared `allocateFefo` and
 * the wrapper sends them as `lines[].batches` (and the sale's prescription) on every push of that
 * sale, retries included. An SDK that sends lots or a prescription itself is left as it is.
 */
import { allocateFefo, type Batch, type BootstrapResponse, type Change, type LineBatchInput, type Prescription, type PullResponse, type PushRequest } from '@duka/shared';
import type { TillConnector } from '../../client-sdk/src/index.js';

interface SaleExtras {
  batches: Map<string, LineBatchInput[]>;
  prescription?: Prescription;
}

export class PharmacyShelf {
  /** Main batches of the till's store, as last pulled and since decremented by its own sales. */
  private readonly batches = new Map<string, Batch>();
  private readonly extras = new Map<string, SaleExtras>();
  private selling: Promise<void> = Promise.resolve();

  /**
   * Hold pushes while a sale is being rung up, until its lots are registered: the SDK may push the
   * sale before `sell` has returned its id to the caller.
   */
  async ringUp<T>(fn: () => Promise<T>): Promise<T> {
    let done!: () => void;
    const before = this.selling;
    this.selling = new Promise((r) => (done = r));
    await before;
    try {
      return await fn();
    } finally {
      done();
    }
  }

  /** The till's FEFO over its shelf for one line, taken off the shelf. */
  allocate(productId: string, productName: string, qty: number, index: number, today: string): LineBatchInput[] {
    const own = [...this.batches.values()].filter((b) => b.product_id === productId);
    const { allocations } = allocateFefo({
      index,
      product: { product_id: productId, name: productName },
      qty,
      today,
      batches: own.map((b) => ({ batch_id: b.id, lot_number: b.lot_number, expiry_date: b.expiry_date, qty_on_hand: b.qty_on_hand, status: b.status, received_at: Date.parse(b.received_at) })),
    });
    for (const a of allocations) {
      const b = this.batches.get(a.batch_id)!;
      this.batches.set(b.id, { ...b, qty_on_hand: b.qty_on_hand - a.qty });
    }
    return allocations.map((a) => ({ batch_id: a.batch_id, qty: a.qty }));
  }

  register(saleId: string, extras: SaleExtras): void {
    this.extras.set(saleId, extras);
  }

  /** A pull replaces the till's copy of a batch with the server's. */
  private learn(changes: Change[]): void {
    for (const c of changes) {
      if (c.entity !== 'batch') continue;
      const b = c.data as Batch | null;
      if (c.op === 'delete' || !b || b.source_batch_id !== null) this.batches.delete(c.id);
      else this.batches.set(c.id, b);
    }
  }

  private async dress(req: PushRequest): Promise<PushRequest> {
    await this.selling;
    const mutations = req.mutations.map((m) => {
      const extras = m.type === 'sale.create' ? this.extras.get(String(m.payload.id)) : undefined;
      if (!extras) return m;
      const lines = (m.payload.lines as Array<Record<string, unknown>>).map((l) => {
        const batches = extras.batches.get(String(l.product_id));
        return batches && !l.batches ? { ...l, batches } : l;
      });
      const prescription = m.payload.prescription ?? extras.prescription;
      return { ...m, payload: { ...m.payload, lines, ...(prescription ? { prescription } : {}) } };
    });
    return { ...req, mutations };
  }

  /** `inner` with the shelf learning from bootstrap and pull, and pushes carrying the lots. */
  wrap(inner: TillConnector): TillConnector {
    return {
      login: (i, s) => inner.login(i, s),
      requestOtp: (p, s) => inner.requestOtp(p, s),
      verifyOtp: (p, c, s) => inner.verifyOtp(p, c, s),
      refresh: (t, s) => inner.refresh(t, s),
      logout: (a, r, s) => inner.logout(a, r, s),
      registerDevice: (t, d, s) => inner.registerDevice(t, d, s),
      realtimeUrl: (t) => inner.realtimeUrl(t),
      push: async (t, req, s) => inner.push(t, await this.dress(req), s),
      pull: async (t, q, s) => {
        const res: PullResponse = await inner.pull(t, q, s);
        this.learn(res.changes);
        return res;
      },
      bootstrap: async (t, q, s) => {
        const res: BootstrapResponse = await inner.bootstrap(t, q, s);
        // A new snapshot: forget what the old one said, page by page as the till applies it.
        if (!q.page_token) this.batches.clear();
        this.learn(res.rows);
        return res;
      },
    };
  }
}
