/** The layering rules of the house style, checked on the source so that a slip fails the build. */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { PaymentMethod, PayoutMethod, SyncEntity } from '@duka/shared';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '..');

function files(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir)).flatMap((name) => {
    const rel = path.join(dir, name);
    if (statSync(path.join(ROOT, rel)).isDirectory()) return files(rel);
    return rel.endsWith('.ts') ? [rel] : [];
  });
}

const source = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');
const imports = (file: string) => [...readFileSync(path.join(ROOT, file), 'utf8').matchAll(/(?:from|import)\s+'([^']+)'/g)].map((m) => m[1]!);

describe('architecture', () => {
  it('client-sdk never imports the server', () => {
    for (const file of files('client-sdk/src')) {
      expect(imports(file).filter((i) => i.includes('server') || i === 'hono' || i.startsWith('@hono/')), file).toEqual([]);
    }
  });

  it('shared imports neither the server nor any HTTP framework', () => {
    for (const file of files('shared/src')) {
      expect(imports(file).filter((i) => i.includes('server') || i.includes('hono') || i === 'kysely'), file).toEqual([]);
    }
  });

  it('only the dialect modules branch on the database kind', () => {
    const allowed = ['server/src/db/dialect.ts', 'server/src/db/create-db.ts', 'migrations/_helpers.ts'];
    const branching = [...files('server/src'), ...files('migrations')].filter(
      (f) => !allowed.includes(f) && /dialect\s*[!=]==|[!=]==\s*'(postgres|sqlite)'/.test(readFileSync(path.join(ROOT, f), 'utf8')),
    );
    expect(branching).toEqual([]);
  });

  it('routers and route definitions do not touch the database', () => {
    const routeFiles = files('server/src/modules').filter((f) => /\.(index|routes)\.ts$/.test(f));
    expect(routeFiles.length).toBeGreaterThan(4);
    for (const file of routeFiles) {
      expect(imports(file).filter((i) => i === 'kysely' || i.includes('/db/') || i.endsWith('.queries.js')), file).toEqual([]);
    }
  });

  it('migrations never import application code', () => {
    for (const file of files('migrations')) {
      expect(imports(file).filter((i) => i.includes('server') || i.includes('shared')), file).toEqual([]);
    }
  });

  /** `least` quoted values of an enum in a row, in an array or a union: a written-out copy of it. */
  const writtenOut = (values: readonly string[], least: number) => {
    const one = `'(?:${values.join('|')})'`;
    return new RegExp(`${one}(?:\\s*[,|]\\s*${one}){${least - 1}}`);
  };
  const appSources = () => [...files('server/src'), ...files('client-sdk/src'), ...files('shared/src')];

  it('payment methods are written out only in shared/src/payment-methods.ts', () => {
    const list = writtenOut([...new Set([...PaymentMethod.options, ...PayoutMethod.options])], 2);
    expect(list.test(source('shared/src/payment-methods.ts'))).toBe(true);
    expect(appSources().filter((f) => f !== 'shared/src/payment-methods.ts' && list.test(source(f)))).toEqual([]);
  });

  it('the replicated entities are written out only in the sync protocol', () => {
    const list = writtenOut(SyncEntity.options, 3);
    expect(list.test(source('shared/src/sync/protocol.ts'))).toBe(true);
    expect(appSources().filter((f) => f !== 'shared/src/sync/protocol.ts' && list.test(source(f)))).toEqual([]);
  });
});
