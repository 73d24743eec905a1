/**
 * One fuzzed request for an operation of the OpenAPI document, or one `POST /sync/push` batch of
 * mutations of every type. Each is mostly valid with one part broken, so it reaches past the
 * validation layer often enough to exercise the services behind it.
 */
import { MUTATION_PAYLOADS, type MutationType, newId, PROTOCOL_HEADER } from '@duka/shared';
import { z } from 'zod';
import type { Rng } from '../chaos/rng.js';
import { malform, oddValue, sample, type SampleScope, type Schema } from './sample.js';
import type { TokenKind, World } from './world.js';

export interface Operation {
  method: string;
  path: string;
  spec: Schema;
}

export interface FuzzRequest {
  /** `METHOD /path/{template}`: the operation aimed at. */
  op: string;
  method: string;
  path: string;
  tokenKind: TokenKind;
  token?: string;
  body?: unknown;
  raw?: string;
  form?: FormData;
  headers: Record<string, string>;
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

export function operationsOf(doc: Schema): Operation[] {
  return Object.entries<Schema>(doc.paths).flatMap(([path, item]) =>
    Object.entries<Schema>(item)
      .filter(([method]) => METHODS.includes(method))
      .map(([method, spec]) => ({ method: method.toUpperCase(), path, spec })),
  );
}

/** The kind of id a path parameter holds, from its name or the path word before it. */
function kindOf(path: string, param: string): string {
  if (param !== 'id') return `${param.replace(/_id$/, '')}s`;
  const before = path.split(`/{${param}}`)[0]!.split('/').pop()!;
  return before;
}

function pickId(rng: Rng, world: World, kind: string): string {
  switch (rng.weighted({ own: 75, theirs: 12, fresh: 5, anyOwn: 8 })) {
    case 'own':
      return rng.pick(world.ids.get(kind) ?? world.allIds);
    case 'theirs':
      return rng.pick(world.otherIds.get(kind) ?? world.allOtherIds);
    case 'fresh':
      return newId();
    default:
      return rng.pick(world.allIds);
  }
}

const BAD_PATH_VALUES = [
  'not-a-uuid',
  '0',
  '-1',
  '%00',
  '..%2F..%2Fetc',
  '%F0%9F%99%82',
  'x'.repeat(3000),
  '01a20ccb-aaaa-773c-b96c-289f24bb93d3%20or%201%3D1',
  '%7B%7D',
  'null',
  'undefined',
];

export function scopeFor(rng: Rng, world: World, resolve: (ref: string) => Schema): SampleScope {
  return {
    rng,
    resolve,
    uuid: (field) => pickId(rng, world, field.endsWith('_id') ? `${field.replace(/_id$/, '')}s` : field),
  };
}

function tokenFor(rng: Rng, path: string): TokenKind {
  if (path.startsWith('/admin')) return rng.weighted({ admin: 70, owner: 15, staff: 5, none: 5, garbage: 5 });
  if (path.startsWith('/auth')) return rng.weighted({ none: 60, victim: 25, garbage: 10, admin: 5 });
  return rng.weighted({ owner: 55, staff: 20, other: 8, admin: 7, none: 5, garbage: 5 });
}

function queryValue(rng: Rng, scope: SampleScope, param: Schema): string {
  if (rng.chance(0.2)) return String(oddValue(rng)).slice(0, 5000);
  const v = sample(scope, param.schema, param.name);
  return typeof v === 'string' ? v : JSON.stringify(v);
}

/** A fuzzed request for `op`. */
export function requestFor(rng: Rng, world: World, op: Operation, resolve: (ref: string) => Schema): FuzzRequest {
  const scope = scopeFor(rng, world, resolve);
  const params: Schema[] = (op.spec.parameters ?? []).map((p: Schema) => (p.$ref ? resolve(p.$ref) : p));
  let path = op.path;
  for (const p of params.filter((x) => x.in === 'path')) {
    const value =
      p.schema?.format === 'uuid' || /(^|_)id$/.test(p.name)
        ? pickId(rng, world, kindOf(op.path, p.name))
        : String(sample(scope, p.schema, p.name));
    path = path.replace(`{${p.name}}`, rng.chance(0.12) ? rng.pick(BAD_PATH_VALUES) : encodeURIComponent(value));
  }
  const query = new URLSearchParams();
  for (const p of params.filter((x) => x.in === 'query')) if (rng.chance(0.5)) query.set(p.name, queryValue(rng, scope, p));
  if (rng.chance(0.05)) query.set(rng.pick(['page', 'page_size', 'limit', 'zzz']), String(oddValue(rng)).slice(0, 300));
  const headers: Record<string, string> = {};
  for (const p of params.filter((x) => x.in === 'header')) {
    if (rng.chance(0.6))
      headers[p.name] = rng.chance(0.2)
        ? String(oddValue(rng))
            .replace(/[^\x20-\x7e]/g, '?')
            .slice(0, 400)
        : String(sample(scope, p.schema, p.name));
  }
  if (op.method === 'POST' && rng.chance(0.15)) headers['idempotency-key'] = rng.chance(0.2) ? 'k'.repeat(300) : `fuzz-${rng.int(0, 20)}`;
  const tokenKind = tokenFor(rng, op.path);
  // Now and then a method the path does not take (405 with Allow, in the envelope).
  const method = rng.chance(0.03) ? rng.pick(['PUT', 'PATCH', 'DELETE', 'POST', 'OPTIONS'].filter((m) => m !== op.method)) : op.method;
  const req: FuzzRequest = {
    op: `${op.method} ${op.path}`,
    method,
    path: query.size ? `${path}?${query}` : path,
    tokenKind,
    token: world.tokens[tokenKind],
    headers,
  };

  const content: Schema | undefined = op.spec.requestBody?.content;
  if (content?.['multipart/form-data']) {
    req.form = formBody(rng);
    return req;
  }
  const bodySchema = content?.['application/json']?.schema;
  if (!bodySchema) {
    if (op.method !== 'GET' && rng.chance(0.05)) req.body = oddValue(rng);
    return req;
  }
  const valid = sample(scope, bodySchema);
  switch (rng.weighted({ broken: 50, twiceBroken: 10, valid: 20, none: 4, badJson: 4, wrongType: 4, scalar: 4, odd: 4 })) {
    case 'valid':
      req.body = valid;
      break;
    case 'broken':
      req.body = malform(rng, valid);
      break;
    case 'twiceBroken':
      req.body = malform(rng, malform(rng, valid));
      break;
    case 'none':
      break;
    case 'badJson':
      req.raw = rng.pick(['{', '{"a":', '{"name": "x",}', "{'name': 'x'}", '\u0000', 'null', '[', '{"a":1}garbage', '\ufeff{"name":"x"}']);
      req.headers['content-type'] = 'application/json';
      break;
    case 'wrongType':
      req.raw = JSON.stringify(valid);
      req.headers['content-type'] = rng.pick([
        'text/plain',
        'application/x-www-form-urlencoded',
        'application/xml',
        'multipart/form-data; boundary=x',
        'application/json; charset=utf-16',
        '',
      ]);
      break;
    case 'scalar':
      req.body = rng.pick([[], [valid], 'a string', 42, true, null]);
      break;
    case 'odd':
      req.body = oddValue(rng);
      break;
  }
  return req;
}

function formBody(rng: Rng): FormData {
  const form = new FormData();
  const kind = rng.pick(['png', 'text', 'none', 'empty', 'fakePdf', 'svg']);
  const bytes: Record<string, [string, string, string]> = {
    png: [`\x89PNG\r\n\x1a\n${'x'.repeat(50)}`, 'image/png', 'a.png'],
    text: ['hello', 'text/plain', 'a.txt'],
    empty: ['', 'image/png', 'a.png'],
    fakePdf: ['not a pdf at all', 'application/pdf', 'r.pdf'],
    svg: ['<svg onload="alert(1)"/>', 'image/svg+xml', '../../x.svg'],
  };
  if (kind !== 'none')
    form.set(rng.pick(['file', 'image', 'upload']), new Blob([bytes[kind]![0]], { type: bytes[kind]![1] }), bytes[kind]![2]);
  if (rng.chance(0.5)) form.set(rng.pick(['purpose', 'kind', 'entity']), String(oddValue(rng)).slice(0, 200));
  return form;
}

const payloadSchemas = Object.fromEntries(
  Object.entries(MUTATION_PAYLOADS).map(([type, schema]) => [
    type,
    z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Schema,
  ]),
) as Record<MutationType, Schema>;
const MUTATION_TYPES = Object.keys(MUTATION_PAYLOADS) as MutationType[];

/**
 * A push of 1 to 8 mutations of any types: payloads mostly valid with one part broken, some ids
 * sent twice (the same mutation, or another under its id), seqs mostly following the till's last,
 * sometimes repeated, gapped or old.
 */
export function pushFor(rng: Rng, world: World, resolve: (ref: string) => Schema): FuzzRequest {
  const scope = scopeFor(rng, world, resolve);
  const n = rng.int(1, 8);
  const start = rng.weighted({ next: 80, old: 8, gap: 6, zero: 3, odd: 3 });
  let seq = {
    next: world.device.nextSeq,
    old: Math.max(1, world.device.nextSeq - rng.int(1, 10)),
    gap: world.device.nextSeq + rng.int(1, 5),
    zero: 0,
    odd: -1,
  }[start];
  const mutations: Array<Record<string, unknown>> = [];
  for (let i = 0; i < n; i++) {
    const type = rng.pick(MUTATION_TYPES);
    let payload = sample(scope, payloadSchemas[type]) as Record<string, unknown>;
    if (rng.chance(0.4)) payload = malform(rng, payload) as Record<string, unknown>;
    let m: Record<string, unknown> = {
      id: newId(),
      seq,
      type,
      created_at: new Date(Date.now() - rng.int(0, 86_400_000)).toISOString(),
      payload,
    };
    const earlier = mutations.length ? rng.pick(mutations) : undefined;
    if (earlier && rng.chance(0.12)) m = rng.chance(0.5) ? { ...earlier, seq } : { ...m, id: earlier.id };
    if (rng.chance(0.06)) m = malform(rng, m) as Record<string, unknown>;
    mutations.push(m);
    seq += rng.chance(0.05) ? rng.pick([0, 2]) : 1;
  }
  const tokenKind = rng.weighted({ owner: 70, staff: 15, other: 8, none: 3, admin: 4 });
  const body = { device_id: rng.chance(0.92) ? world.device.id : pickId(rng, world, 'devices'), mutations };
  const headers: Record<string, string> = rng.chance(0.95)
    ? { [PROTOCOL_HEADER]: '1' }
    : rng.chance(0.5)
      ? {
          [PROTOCOL_HEADER]: String(oddValue(rng))
            .slice(0, 50)
            .replace(/[^\x20-\x7e]/g, '?'),
        }
      : {};
  return { op: 'POST /sync/push (batch)', method: 'POST', path: '/sync/push', tokenKind, token: world.tokens[tokenKind], body, headers };
}
