/** A profile of PostgreSQL's work during a benchmark row (issue 49's push), on request. */
/**
 * BENCH_PG_STATS=<file> (lib.ts): while `work` runs, what PostgreSQL's backends are doing, sampled every 20 ms
 * (state and the start of the statement), and its statements by total time after (pg_stat_statements).
 */
export async function profilePg(url: string, work: () => Promise<unknown>): Promise<void> {
  const pg = (await import('pg')).default;
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  await c.query('create extension if not exists pg_stat_statements');
  await c.query('select pg_stat_statements_reset()');
  const plan = async () =>
    (await c.query(`explain (generic_plan) select 1 from only transactions x where org_id = $1 and id = $2 for key share of x`)).rows
      .map((r) => r['QUERY PLAN'])
      .join(' / ');
  console.log(`\nthe foreign key's look-up before: ${await plan()}`);
  console.log((await c.query(`select indexdef from pg_indexes where tablename = 'transactions'`)).rows.map((r) => r.indexdef).join('\n'));
  console.log(JSON.stringify((await c.query(`select relpages, reltuples from pg_class where relname = 'transactions'`)).rows));
  const samples = new Map<string, number>();
  let busy = 0;
  let n = 0;
  let done = false;
  const sampling = (async () => {
    while (!done) {
      const { rows } = await c.query(
        `select state, wait_event_type, wait_event, left(regexp_replace(query, '\\s+', ' ', 'g'), 60) as q from pg_stat_activity
         where datname = current_database() and pid <> pg_backend_pid() and backend_type = 'client backend'`,
      );
      n++;
      for (const r of rows) {
        if (r.state === 'idle') continue;
        if (r.state === 'active') busy++;
        const key = `${r.state} ${r.wait_event_type ?? '-'}/${r.wait_event ?? '-'} ${r.q}`;
        samples.set(key, (samples.get(key) ?? 0) + 1);
      }
      await new Promise((r) => setTimeout(r, 20));
    }
  })();
  await work();
  done = true;
  await sampling;
  console.log(`\n${n} samples, ${(busy / n).toFixed(2)} backends active on average; most seen:`);
  for (const [k, v] of [...samples].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log(String(v).padStart(6), k);
  const { rows } = await c.query(
    `select calls, round(total_exec_time) as ms, round(mean_exec_time::numeric, 2) as mean, left(regexp_replace(query, '\\s+', ' ', 'g'), 90) as q
     from pg_stat_statements order by total_exec_time desc limit 25`,
  );
  console.log('\nstatements by total time:');
  for (const r of rows) console.log(String(r.calls).padStart(7), String(r.ms).padStart(7), 'ms', String(r.mean).padStart(8), r.q);
  const tables = await c.query(
    `select relname, seq_scan, seq_tup_read, idx_scan, n_live_tup, n_dead_tup, last_autoanalyze is not null as analysed
     from pg_stat_user_tables order by seq_tup_read desc limit 8`,
  );
  console.log(`\nthe foreign key's look-up after: ${await plan()}`);
  console.log('\ntables by rows read in sequential scans:');
  for (const r of tables.rows) console.log(JSON.stringify(r));
  await c.end();
}
