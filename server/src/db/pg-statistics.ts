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

/** Below this many live rows a table is left to autovacuum: any plan on it is cheap. */
export const OUTGROWN_MIN_ROWS = 1_000;

/**
 * Analyse the tables of the current schema whose live rows are more than twice what their
 * statistics say (or that have none); answers their names. A table is analysed again only when it
 * has doubled, so a growing table costs a few ANALYZEs in all, each cheap while it is small, and a
 * large one is left to autovacuum.
 */
export async function analyzeOutgrown(pool: Pick<pg.Pool, 'query'>): Promise<string[]> {
  const { rows } = await pool.query<{ name: string }>(
    `select format('%I.%I', s.schemaname, s.relname) as name
       from pg_stat_user_tables s join pg_class c on c.oid = s.relid
      where s.schemaname = current_schema() and s.n_live_tup >= $1 and s.n_live_tup > 2 * greatest(c.reltuples, 0)`,
    [OUTGROWN_MIN_ROWS],
  );
  for (const { name } of rows) await pool.query(`analyze ${name}`);
  return rows.map((r) => r.name);
}
