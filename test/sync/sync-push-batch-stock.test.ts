/**
 * A store's pushes written together (issue 49): their sales' stock moves are written once for the
 * shared transaction, not once a push (pos/sale/deferred-stock.ts), and every figure stays exact: a
 * later sale in the batch sells from the stock the earlier ones left, a savepoint rolled back (a
 * push refused) drops the moves it kept, and a push with anything but sales (a stock adjustment
 * judging the level) finds the batch's earlier sales written. Statements are seen at Kysely's `log` hook, as
 * test/pos/sale-statements.test.ts sees them.
 */
import { Envelope, newId, PushResponse } from '@duka/shared';
import type { LogEvent } from 'kysely';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Session } from '../setup/factories.js';
import type { TestApp } from '../setup/test-app.js';

const stockWrites: string[] = [];

vi.mock('../../server/src/db/statement-count.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../server/src/db/statement-count.js')>();
  return {
    ...real,
    countStatement(event: LogEvent) {
      if (/update "product_stock"/.test(event.query.sql)) stockWrites.push(event.query.sql);
      real.countStatement(event);
    },
  };
});

describe('sync: the stock of pushes written together', () => {
  let t: TestApp;
  /** A gate the next transaction waits at (so that pushes sent meanwhile queue behind it). */
  let gate: Promise<void> | undefined;

  beforeEach(async () => {
    // The setup file has loaded the database modules already: loaded afresh, the app takes the mock above.
    vi.resetModules();
    const { createTestApp } = await import('../setup/test-app.js');
    const { createTestDb } = await import('../setup/test-db.js');
    const db = await createTestDb({ countStatements: true });
    const transact = db.transact;
    db.transact = ((fn) => {
      const waitFor = gate;
      gate = undefined;
      return waitFor ? waitFor.then(() => transact(fn)) : transact(fn);
    }) as typeof transact;
    t = await createTestApp({ db, config: { COUNT_STATEMENTS: true } });
  });
  afterEach(() => t.close());

  async function shop(stock: number, devices: number) {
    const { registerOwner } = await import('../setup/factories.js');
    const owner = await registerOwner(t);
    const product = await t.request('POST', '/inventory/products', {
      token: owner.token,
      body: { name: 'Soda', selling_price: 1000, stock },
    });
    const ids = Array.from({ length: devices }, () => newId());
    for (const [i, device_id] of ids.entries()) {
      const reg = await t.request('POST', '/sync/devices', { token: owner.token, body: { device_id, name: `Till ${i + 1}` } });
      expect(reg.status, reg.text).toBe(200);
    }
    return { owner, productId: product.body.data.id as string, devices: ids };
  }

  const sales = (first: number, count: number, productId: string, qty = 1) =>
    Array.from({ length: count }, (_, i) => ({
      id: newId(),
      seq: first + i,
      type: 'sale.create',
      created_at: new Date(t.clock.now() - 600_000 + i * 1000).toISOString(),
      payload: {
        id: newId(),
        client_receipt_number: `R-${newId().slice(-8)}`,
        lines: [{ product_id: productId, qty, unit_price: 1000 }],
        payment_method: 'Cash',
      },
    }));
  const push = (s: Session, device_id: string, mutations: unknown[]) =>
    t.request('POST', '/sync/push', { token: s.token, body: { device_id, mutations } });
  const answer = (res: { status: number; body: unknown; text: string }) => {
    expect(res.status, res.text).toBe(200);
    return Envelope(PushResponse).parse(res.body).data;
  };
  const stockOf = async (s: Session, id: string) =>
    (await t.request('GET', `/inventory/products/${id}`, { token: s.token })).body.data.stock as number;

  /**
   * The first push is held at its transaction's start while the others are sent one after another,
   * so they queue behind it in that order and are written together, in one transaction after it.
   */
  async function together(sends: Array<() => Promise<{ status: number; body: unknown; text: string }>>) {
    let open!: () => void;
    gate = new Promise<void>((resolve) => (open = resolve));
    const sent = [];
    for (const send of sends) {
      sent.push(send());
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    open();
    return Promise.all(sent);
  }

  it('writes the stock rows once for the pushes of a shared transaction, each sale selling from what the last left', async () => {
    const { owner, productId, devices } = await shop(100, 4);
    stockWrites.length = 0;
    const answers = await together(devices.map((device_id, d) => () => push(owner, device_id, sales(1, 5, productId, d + 1))));
    // One write for the first push, one for the three that queued behind it and shared a transaction.
    expect(stockWrites).toHaveLength(2);
    for (const res of answers) expect(answer(res).results.map((r) => r.status)).toEqual(Array(5).fill('applied'));
    // 5 sales of 1, 2, 3 and 4: 50 sold, and no sale was oversold (each saw the stock the last left).
    expect(await stockOf(owner, productId)).toBe(50);
    const conflicts = await t.request('GET', '/sync/conflicts', { token: owner.token });
    expect(conflicts.body.meta?.total ?? conflicts.body.data.length).toBe(0);
  }, 60_000);

  it('refuses a push beside them alone, and judges a stock adjustment after the batch’s sales by the stock they left', async () => {
    const { owner, productId, devices } = await shop(10, 4);
    const [first, seller, wrongSeq, adjuster] = devices as [string, string, string, string];
    const adjust = {
      id: newId(),
      seq: 1,
      type: 'stock.adjust',
      created_at: new Date(t.clock.now()).toISOString(),
      payload: { product_id: productId, qty_change: -5, reason: 'damaged' },
    };
    const [alone, sold, refused, adjusted] = await together([
      () => push(owner, first, sales(1, 1, productId)),
      () => push(owner, seller, sales(1, 2, productId, 4)),
      // Seq 3 for a device that has applied nothing: refused as a whole, its sales of 4 kept nowhere.
      () => push(owner, wrongSeq, sales(3, 1, productId, 4)),
      () => push(owner, adjuster, [adjust]),
    ]);
    expect(answer(alone!).last_applied_seq).toBe(1);
    expect(answer(sold!).results.map((r) => [r.status, r.error?.message])).toEqual([
      ['applied', undefined],
      ['applied', undefined],
    ]);
    expect(refused!.status, refused!.text).toBe(409);
    // 10 - 1 - 8 leaves 1: taking 5 away is refused, as it would be pushed alone after them.
    expect(answer(adjusted!).results.map((r) => [r.status, r.error?.code])).toEqual([['rejected', 'INSUFFICIENT_STOCK']]);
    expect(await stockOf(owner, productId)).toBe(1);
  }, 60_000);

  it('drops the stock moves kept inside a savepoint rolled back, and keeps those kept before it', async () => {
    const { withSavepoint, withTransaction } = await import('../../server/src/db/transaction.js');
    const { deferSaleStock } = await import('../../server/src/modules/pos/pos.exports.js');
    const move = (add: number) => ({ orgId: newId(), storeId: newId(), productId: newId(), add, now: t.clock.now() });
    const [kept, dropped] = [move(-1), move(-4)];
    await withTransaction(t.serviceCtx(), async (tx) => {
      deferSaleStock(tx);
      tx.pending.stock!.push(kept);
      const refused = withSavepoint(tx, async () => {
        tx.pending.stock!.push(dropped);
        throw new Error('a push refused');
      });
      await expect(refused).rejects.toThrow('a push refused');
      expect(tx.pending.stock).toEqual([kept]);
      // Nothing of these made-up rows is written.
      delete tx.pending.stock;
    });
  });
});
