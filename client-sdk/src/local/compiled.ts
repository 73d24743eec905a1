/**
 * A statement built and compiled once, then run with new values. Kysely builds and compiles a
 * query on every call, which for a sale's short statements costs about as much as SQLite spends
 * running them; the storage already reuses the prepared statement for the same SQL text.
 *
 * `build` receives a stand-in for each named value; which compiled parameter is which name is
 * worked out once from those stand-ins, so Kysely's parameter order is never assumed. The SQL is
 * the same for every replica (every storage is SQLite), so one compilation serves all tills.
 * `.compile` answers the statement with its values without running it (for `runInOrder`).
 */
import type { Compilable, CompiledQuery, QueryResult } from 'kysely';
import type { LocalExec } from './db.js';

export function compiledOnce<N extends string, R>(names: readonly N[], build: (db: LocalExec, values: Record<N, never>) => Compilable<R>) {
  let compiled: { query: CompiledQuery<R>; slots: Array<{ name: N } | { value: unknown }> } | undefined;
  const compile = (db: LocalExec, values: Record<N, unknown>): CompiledQuery<R> => {
    if (!compiled) {
      const standIns = Object.fromEntries(names.map((n) => [n, `\u0000${n}`])) as Record<N, never>;
      const query = build(db, standIns).compile();
      const nameOf = new Map<unknown, N>(names.map((n) => [standIns[n], n]));
      const slots = query.parameters.map((p) => (nameOf.has(p) ? { name: nameOf.get(p)! } : { value: p }));
      const missing = names.filter((n) => !slots.some((s) => 'name' in s && s.name === n));
      if (missing.length) throw new Error(`compiledOnce: ${missing.join(', ')} did not become parameters`);
      compiled = { query, slots };
    }
    const { query, slots } = compiled;
    return { ...query, parameters: slots.map((s) => ('name' in s ? values[s.name] : s.value)) };
  };
  const run = async (db: LocalExec, values: Record<N, unknown>): Promise<QueryResult<R>> => db.executeQuery<R>(compile(db, values));
  return Object.assign(run, { compile });
}
