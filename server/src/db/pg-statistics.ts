/**
 * PostgreSQL: tables that outgrew their planner statistics are analysed at once (issue 49). Each
 * connection keeps one plan per foreign-key check; a plan made while the referenced table was
 * small (a new shop, a database just moved, statistics taken while it was empty) reads the table
 * from end to end, and goes on doing so while the table grows, until the table is analysed again.
 * Autovacuum does that only at its next round (a minute apart by default) once a tenth of the table
 * changed: a burst of pushes into a young database read all of `transactions` for every sale line
 * it wrote (10,000 sales: 27,000 scans, 124 million rows read; 158-638 sales/s instead of
 * thousands). ANALYZE updates the table's statistics, which drops every connection's plans on it,
 * so the next check is planned on the table's real size: an index look-up.
 */
import type pg from 'pg';

/** Below this size a table is left to autovacuum: a scan of it costs about what an index look-up does. */
export const OUTGROWN_MIN_BYTES = 128 * 1024;

/**
 * Analyse the tables of the current schema now more than twice the size their statistics were taken
 * at (or never taken), past OUTGROWN_MIN_BYTES; answers their names. Sizes are the files' own, so a
 * burst is seen at once (the statistics views lag by up to seconds). A table is analysed again only
 * once it has doubled: a growing table costs a few ANALYZEs in all, each cheap while it is small,
 * and a large one is left to autovacuum.
 */
export async function analyzeOutgrown(pool: Pick<pg.Pool, 'query'>): Promise<string[]> {
  const { rows } = await pool.query<{ name: string }>(
    `select format('%I.%I', n.nspname, c.relname) as name
       from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = current_schema() and c.relkind = 'r'
        and pg_relation_size(c.oid) >= $1
        and pg_relation_size(c.oid) > 2 * greatest(c.relpages, 0)::bigint * current_setting('block_size')::bigint`,
    [OUTGROWN_MIN_BYTES],
  );
  for (const { name } of rows) await pool.query(`analyze ${name}`);
  return rows.map((r) => r.name);
}
