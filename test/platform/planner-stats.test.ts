/**
 * Lookups by id must not depend on the planner's statistics. On SQLite, statistics taken while
 * each organisation (or store) had one row make an index that leads with `org_id` look as
 * selective as the primary key, and the planner then walks every row of the organisation for
 * one id: the bench's 20,000 stock adjusts ran at 30 a second on a 50,000-product catalogue that
 * way (docs/operations.md, "The adjust drift"). The hot lookups go by primary key alone and check
 * the organisation on the row; here their plans are read under exactly those statistics.
 */
import SQLite from 'better-sqlite3';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Compilable } from 'kysely';
import { describe, expect, it } from 'vitest';
import { createDb } from '../../server/src/db/create-db.js';
import { migrateToLatest } from '../../server/src/db/migrate.js';
import { customerQuery } from '../../server/src/modules/customers/customers.queries.js';
import { productQuery } from '../../server/src/modules/inventory/inventory.queries.js';
import { storeTransactionQuery } from '../../server/src/modules/pos/pos.queries.js';
import { recordedMutationsQuery } from '../../server/src/sync/push/push.queries.js';
import { DIALECT } from '../setup/test-db.js';

describe.runIf(DIALECT === 'sqlite')('lookups by id under misleading planner statistics', () => {
  it('go by the primary key even when every organisation and store seemed to hold one row', async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'duka-plan-')), 'duka.db');
    const handle = createDb({ sqliteFile: file });
    await migrateToLatest(handle.db);
    const lookups: Record<string, Compilable> = {
      'a product with its stock': productQuery(handle.db, 'org-1', 'store-1', 'product-1'),
      'a customer': customerQuery(handle.db, 'org-1', 'customer-1'),
      "a store's transaction": storeTransactionQuery(handle.db, 'org-1', 'tx-1'),
    };
    const compiled = Object.entries(lookups).map(([what, q]) => ({ what, ...q.compile() }));
    await handle.close();

    const db = new SQLite(file);
    const indexes = db
      .prepare(
        "select name, tbl_name from sqlite_master where type = 'index' and tbl_name in ('products', 'customers', 'transactions', 'product_stock')",
      )
      .all() as Array<{ name: string; tbl_name: string }>;
    db.exec('analyze sqlite_schema');
    // 100,000 rows, one per value of every index's leading column: what ANALYZE writes when each organisation had one.
    const stat = db.prepare('insert into sqlite_stat1 (tbl, idx, stat) values (?, ?, ?)');
    for (const i of indexes) {
      const columns = (db.prepare(`select count(*) as n from pragma_index_info(?)`).get(i.name) as { n: number }).n;
      stat.run(i.tbl_name, i.name, ['100000', ...Array(columns).fill('1')].join(' '));
    }
    db.close();

    const fresh = new SQLite(file, { readonly: true });
    for (const q of compiled) {
      const plan = (fresh.prepare(`explain query plan ${q.sql}`).all(...(q.parameters as unknown[])) as Array<{ detail: string }>).map(
        (r) => r.detail,
      );
      expect(plan[0], `${q.what}: ${plan.join(' | ')}`).toMatch(/USING INDEX sqlite_autoindex_\w+_1 \(id=\?\)|USING INTEGER PRIMARY KEY/);
    }
    fresh.close();
  });

  // Issue 51's bench: every push of a fleet's tills read all the organisation's recorded mutations
  // (120,000 after 1,200 pushes) looking for its 100, by the unique (org_id, id) index on org_id alone.
  it("a push's look-up of its recorded mutations goes down both indexes, never over the organisation's mutations", async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'duka-plan-')), 'duka.db');
    const handle = createDb({ sqliteFile: file });
    await migrateToLatest(handle.db);
    const mutations = Array.from({ length: 100 }, (_, i) => ({ id: `mutation-${i}`, seq: 201 + i }));
    const q = recordedMutationsQuery(handle.db, { orgId: 'org-1', deviceId: 'device-1' }, mutations).compile();
    await handle.close();

    const plans: string[][] = [];
    const read = () => {
      const db = new SQLite(file, { readonly: true });
      plans.push(
        (db.prepare(`explain query plan ${q.sql}`).all(...(q.parameters as unknown[])) as Array<{ detail: string }>).map((r) => r.detail),
      );
      db.close();
    };
    // As the server starts (no statistics), and under statistics taken when the organisation had one device.
    read();
    const db = new SQLite(file);
    db.exec('analyze sqlite_schema');
    db.prepare("insert into sqlite_stat1 (tbl, idx, stat) values ('sync_mutations', 'uq__sync_mutations__id', '100000 100000 1')").run();
    db.prepare(
      "insert into sqlite_stat1 (tbl, idx, stat) values ('sync_mutations', 'sqlite_autoindex_sync_mutations_1', '100000 100000 100000 1')",
    ).run();
    db.close();
    read();
    for (const plan of plans) {
      const searches = plan.filter((d) => /^(SEARCH|SCAN)/.test(d));
      expect(searches, plan.join(' | ')).toEqual([
        expect.stringMatching(/USING (COVERING )?INDEX uq__sync_mutations__id \(org_id=\? AND id=\?\)/),
        expect.stringMatching(/USING INDEX sqlite_autoindex_sync_mutations_1 \(org_id=\? AND device_id=\? AND seq>\? AND seq<\?\)/),
      ]);
    }
  });
});
