/**
 * A bootstrap's staging tables: the snapshot's rows already mapped to the replica's columns, one
 * TEMP table per replica table, so the swap is one `INSERT … SELECT` per table and no row passes
 * through JavaScript twice. TEMP tables live on the till's one connection (both storages keep a
 * single one), in memory, never written to the database file; a till stopped mid-download loses
 * them and downloads again.
 */
import { sql } from 'kysely';
import type { LocalExec, LocalTrx } from '../local/db.js';
import { EMPTIED_BY_BOOTSTRAP, type ReplicaTable, type RowTarget } from './apply.js';
import { type StagedTable, stageName, stageTableSql } from './stage-page.js';

const STAGED: readonly ReplicaTable[] = [...EMPTIED_BY_BOOTSTRAP, 'transactions'];

type Staged = Omit<StagedTable, 'table'>;

export class Stage implements RowTarget {
  private readonly staged = new Map<ReplicaTable, Staged>();

  /** The staging table for `spec`'s rows, made on its first rows with their columns and key. */
  async table(trx: LocalTrx, spec: { table: ReplicaTable; key: readonly string[] }, columns: readonly string[]): Promise<string> {
    if (!this.staged.has(spec.table)) {
      await sql.raw(stageTableSql({ table: spec.table, key: spec.key, columns })).execute(trx);
      this.staged.set(spec.table, { key: spec.key, columns });
    }
    return `temp.${stageName(spec.table)}`;
  }

  /** Tables a browser's worker staged rows into itself (`stage-page.ts`). */
  record(tables: readonly StagedTable[]): void {
    for (const { table, key, columns } of tables) this.staged.set(table as ReplicaTable, { key, columns });
  }

  /**
   * Copy every staged table into the replica's. An upsert, as a pull's: `transactions` keeps the
   * till's own unsynced and refused sales, and a server row with a refused sale's id replaces it.
   */
  async copyInto(trx: LocalTrx): Promise<void> {
    for (const [table, { key, columns }] of this.staged) {
      const cols = sql.join(columns.map((c) => sql.id(c)));
      const updated = columns.filter((c) => !key.includes(c));
      const set = sql.join(updated.map((c) => sql`${sql.id(c)} = excluded.${sql.id(c)}`));
      // `where true`: SQLite's parser needs it between a SELECT and an ON CONFLICT clause.
      await sql`insert into ${sql.id(table)} (${cols}) select ${cols} from temp.${sql.id(stageName(table))} where true
        on conflict (${sql.join(key.map((c) => sql.id(c)))}) do ${updated.length ? sql`update set ${set}` : sql`nothing`}`.execute(trx);
    }
  }
}

/** Drop every staging table there is (none there: nothing to do). */
export async function dropStage(db: LocalExec): Promise<void> {
  for (const table of STAGED) await sql`drop table if exists temp.${sql.id(stageName(table))}`.execute(db);
}
