import Database from 'better-sqlite3';
const db = new Database(':memory:');
db.exec(`create table products (id text primary key, org_id text not null, name text not null, sku text);
create index ix__products__org_id_name on products (org_id, name);
create unique index uq__products__sku on products (org_id, sku);`);
const ins = db.prepare('insert into products values (?,?,?,?)');
db.transaction(() => {
  for (let i = 0; i < 50000; i++) ins.run('p' + i, 'orgA', 'name' + i, 's' + i);
  for (let o = 0; o < 50; o++) ins.run('q' + o, 'org' + o, 'n', 's');
})();
const ids = Array.from({ length: 300 }, (_, i) => 'p' + i * 7);
const q1 = `select * from products where org_id = ? and id in (${ids.map(() => '?').join(',')})`;
const q2 = `select * from products where likelihood(org_id = ?, 0.9375) and id in (${ids.map(() => '?').join(',')})`;
const q3 = `select * from products where +org_id = ? and id in (${ids.map(() => '?').join(',')})`;
for (const [label, stats] of [
  ['no stats', null],
  ['one row per org', 'x'],
  ['analyzed', 'a'],
]) {
  if (stats === 'a') {
    db.exec('delete from sqlite_stat1');
    db.exec('analyze');
  }
  if (stats === 'x') {
    db.exec('analyze');
    db.exec("update sqlite_stat1 set stat = '50050 1 1' where idx in ('ix__products__org_id_name','uq__products__sku')");
    db.exec('analyze sqlite_schema');
    console.log(db.prepare('select * from sqlite_stat1').all());
  }
  for (const [n, q] of [
    ['plain', q1],
    ['likelihood', q2],
    ['+', q3],
  ]) {
    const plan = db
      .prepare('explain query plan ' + q)
      .all('orgA', ...ids)
      .map((r) => r.detail)
      .join(' | ');
    const st = db.prepare(q);
    const t0 = performance.now();
    for (let i = 0; i < 20; i++) st.all('orgA', ...ids);
    const ms = (performance.now() - t0) / 20;
    console.log(label.padEnd(16), n.padEnd(11), ms.toFixed(2) + ' ms', plan);
  }
}
