/**
 * The layering rules of the house style, checked on the source so that a slip fails the build.
 *
 * server/src is built in layers, bottom to top:
 *
 *   @duka/shared < env.ts < db/ < lib/ < mobile-money/ < messaging/ < events/ < modules/ < sync/ < app.ts, boot.ts, backups.ts, background-jobs.ts, index.ts, providers.ts, cli/
 *
 * A file imports from its own layer or the ones below, never from above, and no chain of imports
 * (type imports included) comes back to where it started. What lib/context.ts needs from above
 * (the messenger, the event bus, the realtime hub) it declares there as small interfaces, which the
 * upper layers implement and app.ts wires together.
 *
 * Inside modules/, the areas are ranked the same way (AREAS below, bottom first): an area imports
 * only areas of a lower rank, and only through the file each area offers them, <area>.exports.ts.
 *
 * client-sdk/src/index.ts is the SDK's platform-neutral core, which a browser runs: it and the
 * browser entry reach nothing of Node's (no better-sqlite3, ws or built-in module, no Buffer or
 * process); only the node entry (node.ts, node/) does.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { PaymentMethod, PayoutMethod, SyncEntity } from '@duka/shared';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { files, findCycles, importGraph, ROOT } from './import-graph.js';

/** Layers of server/src, bottom first; a path belongs to the first prefix it starts with. */
const LAYERS: Array<{ name: string; prefixes: string[] }> = [
  { name: 'env', prefixes: ['env.ts'] },
  { name: 'db', prefixes: ['db/'] },
  { name: 'lib', prefixes: ['lib/'] },
  // The mobile-money providers' drivers (AzamPay, Selcom), which billing and payments both drive.
  { name: 'mobile-money', prefixes: ['mobile-money/'] },
  { name: 'messaging', prefixes: ['messaging/'] },
  { name: 'events', prefixes: ['events/'] },
  { name: 'modules', prefixes: ['modules/'] },
  { name: 'sync', prefixes: ['sync/'] },
  { name: 'top', prefixes: ['app.ts', 'boot.ts', 'backups.ts', 'background-jobs.ts', 'index.ts', 'providers.ts', 'cli/'] },
];

/**
 * The areas of server/src/modules, ranked bottom first: each may import only areas of a lower rank
 * (never one of its own rank, never one above), and only their <area>.exports.ts. docs/architecture.md
 * says why each sits where it does.
 */
const AREAS: string[][] = [
  // What every area stands on: who and where (organisations, stores, users), how stock moves, the plan's limits, the census.
  ['tenancy', 'stock-levels', 'billing', 'meta'],
  // One concern each, over the core.
  ['notifications', 'sms', 'customers', 'stores', 'expenses', 'reviews', 'uploads', 'notebook', 'health'],
  // Sign-in, credit, fiscal receipts, reports, analytics and shifts: they notify, message and read customers.
  ['auth', 'credits', 'fiscal', 'reports', 'analytics', 'shifts'],
  // Lots, prescriptions and registers: pharmacy writes its registers as reports; a shop's own
  // mobile-money accounts export what they received as reports do.
  ['pharmacy', 'payments'],
  // The catalogue and stock adjustments: a batch-tracked product is adjusted through pharmacy's lots.
  ['inventory'],
  // The sale, deliveries and the organisation's own settings and users: they use the catalogue, lots, credit and fiscal.
  ['pos', 'suppliers', 'accounts'],
  // Staff are users with a shift and permissions; the assistant reads sales, stock and debts.
  ['staff', 'ai'],
  // The platform's operators see every area.
  ['admin'],
];

const rankOf = (area: string): number => AREAS.findIndex((rank) => rank.includes(area));
const MODULES = 'server/src/modules/';
const areaOf = (file: string): string | null => (file.startsWith(MODULES) ? file.slice(MODULES.length).split('/')[0]! : null);
const exportsOf = (area: string) => `${MODULES}${area}/${area}.exports.ts`;

function layerOf(file: string): number {
  const rel = path.relative('server/src', file);
  const at = LAYERS.findIndex((l) => l.prefixes.some((p) => rel === p || (p.endsWith('/') && rel.startsWith(p))));
  if (at < 0) throw new Error(`${file} is in no layer: add its folder to LAYERS`);
  return at;
}

/** Where a Kysely query starts: the builder call at the root of its method chain. */
const QUERY_ROOT = /^(selectFrom|insertInto|updateTable|deleteFrom|with|replaceInto|mergeInto)$/;
const QUERY_LINES = 8;

/** `line (n lines)` of each query chain in `file` that spans QUERY_LINES lines or more as formatted. */
function longQueries(file: string): string[] {
  const sf = ts.createSourceFile(file, readFileSync(path.join(ROOT, file), 'utf8'), ts.ScriptTarget.Latest, true);
  const lineOf = (pos: number) => sf.getLineAndCharacterOfPosition(pos).line + 1;
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && QUERY_ROOT.test(node.expression.name.text)) {
      let chain: ts.Node = node;
      while (ts.isPropertyAccessExpression(chain.parent) || (ts.isCallExpression(chain.parent) && chain.parent.expression === chain)) {
        chain = chain.parent;
      }
      const lines = lineOf(chain.getEnd()) - lineOf(chain.getStart(sf)) + 1;
      if (lines >= QUERY_LINES) found.push(`${lineOf(node.getStart(sf))} (${lines} lines)`);
      return; // a subquery inside it is part of the same query
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return found;
}

const source = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');
const imports = (file: string) =>
  [...readFileSync(path.join(ROOT, file), 'utf8').matchAll(/(?:from|import)\s+'([^']+)'/g)].map((m) => m[1]!);

describe('architecture', () => {
  const server = importGraph(files('server/src'));

  it('no server file imports from a layer above its own', () => {
    const upward = [...server].flatMap(([file, targets]) =>
      targets.filter((t) => layerOf(t) > layerOf(file)).map((t) => `${file} -> ${t}`),
    );
    expect(upward).toEqual([]);
  });

  it('every area of modules/ has a rank', () => {
    const areas = readdirSync(path.join(ROOT, MODULES)).filter((name) => statSync(path.join(ROOT, MODULES, name)).isDirectory());
    expect(areas.filter((a) => rankOf(a) < 0)).toEqual([]);
    expect(AREAS.flat().filter((a) => !areas.includes(a))).toEqual([]);
    expect(AREAS.flat().length).toBe(new Set(AREAS.flat()).size);
  });

  it('an area imports only areas ranked below it, through their exports file', () => {
    const crossing = [...server].flatMap(([file, targets]) =>
      targets.filter((t) => areaOf(file) && areaOf(t) && areaOf(t) !== areaOf(file)).map((t) => ({ file, t })),
    );
    expect(crossing.length).toBeGreaterThan(50);
    const upward = crossing.filter(({ file, t }) => rankOf(areaOf(t)!) >= rankOf(areaOf(file)!)).map(({ file, t }) => `${file} -> ${t}`);
    expect(upward).toEqual([]);
    const internal = crossing.filter(({ t }) => t !== exportsOf(areaOf(t)!)).map(({ file, t }) => `${file} -> ${t}`);
    expect(internal).toEqual([]);
  });

  it('an exports file only passes on what its area wrote', () => {
    for (const file of [...server.keys()].filter((f) => areaOf(f) && f === exportsOf(areaOf(f)!))) {
      const statements = code(file)
        .split(';')
        .map((st) => st.trim())
        .filter(Boolean);
      expect(
        statements.filter((st) => !/^export (type )?\{[^}]*\} from '\.\/[^']+'$/.test(st)),
        file,
      ).toEqual([]);
      expect(
        server.get(file)!.filter((t) => areaOf(t) !== areaOf(file)),
        file,
      ).toEqual([]);
    }
  });

  it('a query of 8 lines or more lives in a queries file', () => {
    const long = [...files('server/src/modules'), ...files('server/src/sync')]
      .filter((f) => !f.endsWith('.queries.ts'))
      .flatMap((f) => longQueries(f).map((q) => `${f}:${q}`));
    expect(long).toEqual([]);
  });

  it('no import cycle anywhere in the server', () => {
    expect(findCycles(server)).toEqual([]);
  });

  it('the checks see what they look for', () => {
    expect(layerOf('server/src/db/tables/pos.table.ts')).toBeLessThan(layerOf('server/src/lib/context.ts'));
    expect(layerOf('server/src/sync/ws/realtime.ts')).toBeGreaterThan(layerOf('server/src/modules/pos/pos.index.ts'));
    expect(layerOf('server/src/cli/migrate.ts')).toBe(LAYERS.length - 1);
    expect(areaOf('server/src/modules/pos/sale/sale-policy.ts')).toBe('pos');
    expect(areaOf('server/src/sync/push/push.index.ts')).toBeNull();
    expect(rankOf('tenancy')).toBe(0);
    expect(longQueries('server/src/modules/tenancy/stores.queries.ts').length).toBeGreaterThan(0);
    expect(rankOf('pos')).toBeGreaterThan(rankOf('pharmacy'));
    expect(server.get('server/src/modules/pos/sale/sale-policy.ts')).toContain(exportsOf('pharmacy'));
    expect(server.get('server/src/lib/context.ts')).toContain('server/src/db/transaction.ts');
    expect(
      findCycles(
        new Map([
          ['a', ['b']],
          ['b', ['c', 'd']],
          ['c', ['a']],
          ['d', []],
        ]),
      ),
    ).toEqual(['a -> b -> c -> a']);
    expect(
      findCycles(
        new Map([
          ['a', ['b', 'c']],
          ['b', ['c']],
          ['c', []],
        ]),
      ),
    ).toEqual([]);
  });

  it('client-sdk never imports the server', () => {
    for (const file of files('client-sdk/src')) {
      expect(
        imports(file).filter((i) => i.includes('server') || i === 'hono' || i.startsWith('@hono/')),
        file,
      ).toEqual([]);
    }
  });

  /** The files `from` reaches through relative imports, itself included. */
  const reached = (graph: Map<string, string[]>, ...from: string[]): string[] => {
    const seen = new Set<string>();
    const walk = (f: string) => {
      if (seen.has(f)) return;
      seen.add(f);
      for (const next of graph.get(f) ?? []) walk(next);
    };
    from.forEach(walk);
    return [...seen].sort();
  };
  const nodeOnly = (i: string) => i === 'better-sqlite3' || i === 'ws' || i.startsWith('node:') || builtinModules.includes(i);
  const code = (file: string) =>
    source(file)
      .replace(/\/\*[\s\S]*?\*\//g, '')
      .replace(/\/\/.*$/gm, '');
  /** `file -> what` for each import of Node's and each use of its globals. */
  const nodeUses = (list: string[]) =>
    list.flatMap((f) => [
      ...imports(f)
        .filter(nodeOnly)
        .map((i) => `${f} -> ${i}`),
      // Globals a browser lacks (a `NodeJS.Timeout` type is harmless: it is gone once compiled).
      ...[...code(f).matchAll(/\b(Buffer|process|require|__dirname|__filename)\b/g)].map((m) => `${f} uses ${m[1]}`),
    ]);

  it('the SDK core and its browser entry import nothing of Node, nor does shared', () => {
    const sdk = importGraph(files('client-sdk/src').filter((f) => !f.endsWith('.test.ts')));
    const browser = reached(sdk, 'client-sdk/src/index.ts', 'client-sdk/src/browser.ts');
    // The walk sees the whole core, and the check sees Node where it is.
    expect(browser).toEqual(
      expect.arrayContaining([
        'client-sdk/src/lifecycle.ts',
        'client-sdk/src/sync/realtime.ts',
        'client-sdk/src/actions/notes.ts',
        'client-sdk/src/sync/native-socket.ts',
      ]),
    );
    expect(browser.filter((f) => f.includes('/node'))).toEqual([]);
    expect(nodeUses(reached(sdk, 'client-sdk/src/node.ts'))).toEqual([
      'client-sdk/src/node/idle-checkpoint.ts -> node:module',
      'client-sdk/src/node/idle-checkpoint.ts -> node:worker_threads',
      // The worker's own CommonJS source, a string run by Node.
      'client-sdk/src/node/idle-checkpoint.ts uses require',
      'client-sdk/src/node/idle-checkpoint.ts uses require',
      'client-sdk/src/node/socket.ts -> ws',
      'client-sdk/src/node/storage.ts -> better-sqlite3',
    ]);
    expect(nodeUses(browser)).toEqual([]);
    expect(nodeUses(files('shared/src').filter((f) => !f.endsWith('.test.ts')))).toEqual([]);
  });

  it('shared imports neither the server nor any HTTP framework', () => {
    for (const file of files('shared/src')) {
      expect(
        imports(file).filter((i) => i.includes('server') || i.includes('hono') || i === 'kysely'),
        file,
      ).toEqual([]);
    }
  });

  /** Of `specs` imported by `file`, those that are another workspace's code: `@duka/<name>` but shared, or a relative path out of `root`. */
  const outside = (file: string, specs: string[], root: string) =>
    specs.filter((i) =>
      i.startsWith('.') ? !path.join(path.dirname(file), i).startsWith(`${root}/`) : i.startsWith('@duka/') && i !== '@duka/shared',
    );

  it('shared (the keyword planner included) imports no other workspace, and the agent only shared', () => {
    expect(
      outside('agent/src/a/b.ts', ['../../../server/src/app.js', '../c.js', './d.js', '@duka/server', '@duka/shared', 'hono'], 'agent/src'),
      'the check sees a way out',
    ).toEqual(['../../../server/src/app.js', '@duka/server']);
    expect(files('shared/src')).toContain('shared/src/ai/planner.ts');
    for (const file of files('shared/src')) expect(outside(file, imports(file), 'shared/src'), file).toEqual([]);
    for (const file of files('agent/src')) expect(outside(file, imports(file), 'agent/src'), file).toEqual([]);
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
      expect(
        imports(file).filter((i) => i === 'kysely' || i.includes('/db/') || i.endsWith('.queries.js')),
        file,
      ).toEqual([]);
    }
  });

  it('migrations never import application code', () => {
    for (const file of files('migrations')) {
      expect(
        imports(file).filter((i) => i.includes('server') || i.includes('shared')),
        file,
      ).toEqual([]);
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
    expect(list.test(source('shared/src/sync/protocol/changes.ts'))).toBe(true);
    expect(appSources().filter((f) => f !== 'shared/src/sync/protocol/changes.ts' && list.test(source(f)))).toEqual([]);
  });

  it("every port of the service context is in docs/architecture.md's Ports table, with the file that declares its type", () => {
    const doc = source('docs/architecture.md');
    // Members are listed in server/src/providers.ts only (checked below); each is typed from the port's own file.
    const block = /interface Providers \{([^}]*)\}/.exec(source('server/src/providers.ts'))?.[1] ?? '';
    const members = [...block.matchAll(/^\s+(\w+):/gm)].map((m) => m[1]!);
    expect(members).toEqual(expect.arrayContaining(['subscriptionPayments', 'saleBooking', 'saleVerification']));
    const rows = doc.split('\n').filter((line) => line.startsWith('| `'));
    expect(members.filter((member) => !rows.some((row) => row.includes(`\`${member}\``) && /`\w[\w-]*\/[\w/.-]+\.ts`/.test(row)))).toEqual(
      [],
    );
  });
});

/**
 * The doors into the areas: sync/ and the server's wiring (app.ts, boot.ts, backups.ts,
 * background-jobs.ts, index.ts, providers.ts, cli/) reach an area only through its exports file, as
 * the areas reach each other; the context's providers are listed in one file; and the rank table
 * of docs/architecture.md is AREAS, so neither can drift from the code.
 */
describe('architecture: every door an exports file', () => {
  const serverFiles = files('server/src');
  const server = importGraph(serverFiles);

  /** `file -> target` for each import, from a file outside modules/, of an area's file other than its exports file. */
  const sideDoors = (graph: Map<string, string[]>) =>
    [...graph].flatMap(([file, targets]) =>
      areaOf(file) ? [] : targets.filter((t) => areaOf(t) && t !== exportsOf(areaOf(t)!)).map((t) => `${file} -> ${t}`),
    );

  it('every area has an exports file', () => {
    const areas = AREAS.flat();
    expect(areas.filter((a) => !serverFiles.includes(exportsOf(a)))).toEqual([]);
  });

  it('sync/ and the server wiring import areas only through their exports files', () => {
    // The check sees the doors in use: the routers app.ts mounts and the verbs sync/ replays.
    expect(server.get('server/src/app.ts')).toContain(exportsOf('pos'));
    expect(server.get('server/src/background-jobs.ts')).toContain(exportsOf('fiscal'));
    expect(server.get('server/src/sync/push/services/sale-mutations.ts')).toContain(exportsOf('pos'));
    expect(sideDoors(server)).toEqual([]);
  });

  it('fails on a planted import of an area’s internal file from app.ts, sync/, a job or the CLI', () => {
    const planted = new Map([
      ['server/src/app.ts', "import { recordSales } from './modules/pos/sale/pipeline.js';"],
      ['server/src/sync/push/services/mutators.ts', "import { recordSales } from '../../../modules/pos/sale/pipeline.js';"],
      ['server/src/background-jobs.ts', "import type { X } from './modules/fiscal/services/jobs.js';"],
      ['server/src/cli/admin-create.ts', "const { createPlatformAdmin } = await import('../modules/admin/create-admin.js');"],
      // Through the exports file, and an area's own file, are both fine.
      ['server/src/index.ts', "import { metricsRouter } from './modules/health/health.exports.js';"],
      ['server/src/modules/pos/x.ts', "import { recordSales } from './sale/pipeline.js';"],
    ]);
    const graph = importGraph([...planted.keys()], (f) => planted.get(f)!, new Set(serverFiles));
    expect(sideDoors(graph)).toEqual([
      'server/src/app.ts -> server/src/modules/pos/sale/pipeline.ts',
      'server/src/sync/push/services/mutators.ts -> server/src/modules/pos/sale/pipeline.ts',
      'server/src/background-jobs.ts -> server/src/modules/fiscal/services/jobs.ts',
      'server/src/cli/admin-create.ts -> server/src/modules/admin/create-admin.ts',
    ]);
  });

  /** Files that add members to lib/context.ts's interfaces by declaration merging. */
  const MERGES_CONTEXT = /declare module\s+['"](?:\.{1,2}\/)+lib\/context\.js['"]/;
  const uncommented = (text: string) => text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, '');

  it('the context’s providers are listed in one file, server/src/providers.ts', () => {
    expect(MERGES_CONTEXT.test("declare module '../../../lib/context.js' {"), 'the check sees a merge').toBe(true);
    expect(serverFiles.filter((f) => MERGES_CONTEXT.test(uncommented(source(f))))).toEqual(['server/src/providers.ts']);
  });

  /** The rank table under "## Areas are ranked too" in docs/architecture.md, as AREAS is written. */
  const documentedRanks = (doc: string): string[][] => {
    const section = doc.split(/^## /m).find((s) => s.startsWith('Areas are ranked too'));
    if (!section) throw new Error('docs/architecture.md has no "## Areas are ranked too" section');
    const rows = section.split('\n').filter((line) => /^\|\s*\d+\s*\|/.test(line));
    return rows.map((row, i) => {
      const [rank, areas] = row
        .split('|')
        .slice(1, 3)
        .map((cell) => cell.trim());
      if (Number(rank) !== i) throw new Error(`rank table row ${i} is numbered ${rank}`);
      return [...areas!.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);
    });
  };

  it('the rank table of docs/architecture.md is AREAS, and its count is theirs', () => {
    const doc = source('docs/architecture.md');
    expect(documentedRanks('## Areas are ranked too\n\n| rank | areas |\n|---|---|\n| 0 | `a`, `b` | x |\n| 1 | `c` | y |\n')).toEqual([
      ['a', 'b'],
      ['c'],
    ]);
    expect(documentedRanks(doc)).toEqual(AREAS);
    expect(doc.match(/The (\d+) areas of `server\/src\/modules\/`/)?.[1]).toBe(String(AREAS.flat().length));
  });
});
