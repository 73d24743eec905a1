/**
 * shared/src and client-sdk/src are layered like the server (issue 50): each file belongs to one
 * layer, bottom first, and imports only its own layer or those below (type imports and re-exports
 * included), with no import cycle. docs/architecture.md ("The packages' layers") says why each
 * layer sits where it does; this file is where the lists live.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { files, findCycles, importGraph, type Layer, layerIn, readSource, ROOT, upwardArrows } from './import-graph.js';

/** shared/src, bottom first. */
const SHARED: Layer[] = [
  // Import nothing of shared.
  { name: 'base', match: /^(zod-setup|locales\/sw|errors|money|ids|time|statement-cache)\.ts$/ },
  // The words every area's schemas and rules are written in: common fields, envelopes, payment
  // methods and providers, the Tanzanian mobile number, the conflict kinds a rule may report, and
  // the units a quantity is in (issue 51: every area's quantities are written in them).
  { name: 'vocabulary', match: /^(common|envelope|payment-methods|integrations|msisdn|conflicts|inventory\/unit(s|-scale))\.ts$/ },
  // Each area's request and answer shapes.
  { name: 'schemas', match: /^(?!sync\/)[\w-]+\/[\w-]+\.schemas\.ts$/ },
  // Each area's pure rules (and pricing), over its schemas.
  { name: 'rules', match: /^(pricing\.ts|(?!sync\/)[\w-]+\/[\w.-]+\.ts)$/ },
  // The sync protocol carries the areas' inputs as mutations.
  { name: 'sync', match: /^sync\// },
  { name: 'entry', match: /^index\.ts$/ },
];

/** client-sdk/src, bottom first. */
const SDK: Layer[] = [
  // Import nothing of the SDK's.
  { name: 'base', match: /^(errors|base64)\.ts$/ },
  // The replica (local/) and what the till reports of it: row types, status, events.
  { name: 'local', match: /^(local\/|(types|status|events)\.ts$)/ },
  // How the till reaches the server and its host: the connector, TillApi over it, the HTTP
  // default, and the platform seam (storage, socket, network events).
  { name: 'transport', match: /^(http\/|(connector|api|platform)\.ts$)/ },
  // Sign-in, the queue, local reads, the replica's apply, pull and bootstrap, the sync engine.
  { name: 'sync', match: /^((sync|replica)\/|(auth|offline-sign-in|queue|reads)\.ts$)/ },
  // What a cashier does, over the replica and the queue.
  { name: 'actions', match: /^actions\// },
  // The Till, its lifecycle and options, and the entries per platform.
  { name: 'entries', match: /^((node|browser)\/|(lifecycle|options|till|index|node|browser)\.ts$)/ },
];

const PACKAGES = [
  { root: 'shared/src', layers: SHARED },
  { root: 'client-sdk/src', layers: SDK },
];
const sources = (root: string) => files(root).filter((f) => !f.endsWith('.test.ts'));

describe.each(PACKAGES)('$root', ({ root, layers }) => {
  const graph = importGraph(sources(root));

  it('every file is in a layer', () => {
    expect(sources(root).filter((f) => layers.every((l) => !l.match.test(path.relative(root, f))))).toEqual([]);
    for (const layer of layers)
      expect(
        sources(root).some((f) => layerIn(layers, root, f) === layers.indexOf(layer)),
        layer.name,
      ).toBe(true);
  });

  it('no file imports from a layer above its own', () => {
    expect(upwardArrows(graph, layers, root)).toEqual([]);
  });

  it('no import cycle', () => {
    expect(findCycles(graph)).toEqual([]);
  });

  it('docs/architecture.md names its layers in order', () => {
    const doc = readFileSync(path.join(ROOT, 'docs/architecture.md'), 'utf8');
    const line = `\`${root}\`: ${layers.map((l) => l.name).join(' < ')}`;
    expect(doc.includes(line), `docs/architecture.md should say ${line}`).toBe(true);
  });
});

describe('the package checks see what they look for', () => {
  /** The package's graph as read from its sources, with `line` added to `file`. */
  const planted = (root: string, file: string, line: string) =>
    importGraph(sources(root), (f) => (f === file ? `${readSource(f)}\n${line}\n` : readSource(f)));

  it('an upward import planted in shared fails', () => {
    const graph = planted('shared/src', 'shared/src/money.ts', "import type { PushRequest } from './sync/protocol/push.js';");
    expect(upwardArrows(graph, SHARED, 'shared/src')).toEqual(['shared/src/money.ts -> shared/src/sync/protocol/push.ts']);
    const rule = planted('shared/src', 'shared/src/pos/pos.schemas.ts', "export { checkSale } from './sale-rules.js';");
    expect(upwardArrows(rule, SHARED, 'shared/src')).toEqual(['shared/src/pos/pos.schemas.ts -> shared/src/pos/sale-rules.ts']);
  });

  it('an upward import planted in the SDK fails', () => {
    const graph = planted('client-sdk/src', 'client-sdk/src/sync/push.ts', "import { sell } from '../actions/sale/sell.js';");
    expect(upwardArrows(graph, SDK, 'client-sdk/src')).toEqual(['client-sdk/src/sync/push.ts -> client-sdk/src/actions/sale/sell.ts']);
    const lazy = planted('client-sdk/src', 'client-sdk/src/local/db.ts', "const till = () => import('../till.js');");
    expect(upwardArrows(lazy, SDK, 'client-sdk/src')).toEqual(['client-sdk/src/local/db.ts -> client-sdk/src/till.ts']);
  });

  it('files land in the layers meant', () => {
    const at = (layers: Layer[], root: string, f: string) => layers[layerIn(layers, root, `${root}/${f}`)]!.name;
    expect(at(SHARED, 'shared/src', 'pharmacy/pharmacy-rules.schemas.ts')).toBe('schemas');
    expect(at(SHARED, 'shared/src', 'pharmacy/fefo.ts')).toBe('rules');
    expect(at(SHARED, 'shared/src', 'inventory/units.ts')).toBe('vocabulary');
    expect(at(SHARED, 'shared/src', 'sync/protocol/index.ts')).toBe('sync');
    expect(at(SDK, 'client-sdk/src', 'actions/sale/price.ts')).toBe('actions');
    expect(at(SDK, 'client-sdk/src', 'browser/storage.ts')).toBe('entries');
    expect(() => layerIn(SDK, 'client-sdk/src', 'client-sdk/src/new-thing.ts')).toThrow('in no layer');
  });
});
