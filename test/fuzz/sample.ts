/**
 * Values from JSON Schema (the OpenAPI document's, and the sync payloads' through zod's
 * toJSONSchema): `sample` makes a value the schema mostly accepts, `malform` breaks one part of it
 * the way a careless or hostile client would.
 */
import type { Rng } from '../chaos/rng.js';

export type Schema = Record<string, any>;

/** What sampling needs besides the schema: `$ref` resolution and ids to put in uuid fields. */
export interface SampleScope {
  rng: Rng;
  resolve(ref: string): Schema;
  /** A uuid, usually one the world knows (of the right kind when the field's name says it). */
  uuid(field: string): string;
}

const MAX_DEPTH = 6;

export function deref(scope: SampleScope, s: Schema | undefined): Schema {
  let out = s ?? {};
  for (let i = 0; i < 10 && out.$ref; i++)
    out = { ...scope.resolve(out.$ref), ...Object.fromEntries(Object.entries(out).filter(([k]) => k !== '$ref')) };
  return out;
}

function typesOf(s: Schema): string[] {
  if (Array.isArray(s.type)) return s.type;
  if (typeof s.type === 'string') return [s.type];
  if (s.properties) return ['object'];
  if (s.items) return ['array'];
  return [];
}

const WORDS = ['Soda', 'Mchele', 'Sukari', 'Unga', 'Asha', 'Kariakoo', 'Dar es Salaam', 'maji', 'nyanya'];

function sampleString(scope: SampleScope, s: Schema, field: string): string {
  const { rng } = scope;
  switch (s.format) {
    case 'uuid':
      return scope.uuid(field);
    case 'date-time':
      return new Date(Date.UTC(2026, rng.int(0, 11), rng.int(1, 28), rng.int(0, 23))).toISOString();
    case 'date':
      return `2026-${String(rng.int(1, 12)).padStart(2, '0')}-${String(rng.int(1, 28)).padStart(2, '0')}`;
    case 'email':
      return `fuzz${rng.int(0, 1e6)}@duka.test`;
    case 'uri':
    case 'url':
      return 'https://example.tz/x';
  }
  if (/phone/.test(field)) return `07${rng.pick(['1', '5', '6', '8'])}${String(rng.int(0, 9_999_999)).padStart(7, '0')}`;
  if (/password/.test(field)) return 'kariakoo2026';
  const min = s.minLength ?? 1;
  const max = Math.min(s.maxLength ?? 40, 60);
  let text = rng.pick(WORDS);
  while (text.length < min) text += ` ${rng.pick(WORDS)}`;
  return text.slice(0, Math.max(min, Math.min(max, text.length)));
}

function sampleNumber(scope: SampleScope, s: Schema, integer: boolean): number {
  const lo = s.minimum ?? (s.exclusiveMinimum !== undefined ? s.exclusiveMinimum + 1 : 0);
  const hi = Math.min(s.maximum ?? lo + 1000, lo + 100_000);
  const n = scope.rng.int(Math.ceil(lo), Math.max(Math.ceil(lo), Math.floor(hi)));
  if (integer || s.multipleOf === 1) return n;
  return s.multipleOf === 0.01 && scope.rng.chance(0.5) ? n + scope.rng.int(0, 99) / 100 : n;
}

export function sample(scope: SampleScope, schema: Schema | undefined, field = '', depth = 0): unknown {
  const { rng } = scope;
  const s = deref(scope, schema);
  if ('const' in s) return s.const;
  if (Array.isArray(s.enum) && s.enum.length) return rng.pick(s.enum);
  if ('default' in s && rng.chance(0.1)) return s.default;
  const variants = s.oneOf ?? s.anyOf;
  if (Array.isArray(variants) && variants.length) return sample(scope, rng.pick(variants), field, depth + 1);
  if (Array.isArray(s.allOf)) return Object.assign({}, ...s.allOf.map((part: Schema) => sample(scope, part, field, depth + 1)));
  const types = typesOf(s).filter((t) => t !== 'null' || rng.chance(0.05));
  const type = types.length ? rng.pick(types) : 'string';
  switch (type) {
    case 'null':
      return null;
    case 'boolean':
      return rng.chance(0.5);
    case 'integer':
      return sampleNumber(scope, s, true);
    case 'number':
      return sampleNumber(scope, s, false);
    case 'string':
      return sampleString(scope, s, field);
    case 'array': {
      if (depth > MAX_DEPTH) return [];
      const n = rng.int(s.minItems ?? 0, Math.min(s.maxItems ?? 3, (s.minItems ?? 0) + 3));
      return Array.from({ length: n }, () => sample(scope, s.items, field, depth + 1));
    }
    case 'object': {
      if (depth > MAX_DEPTH) return {};
      const out: Record<string, unknown> = {};
      const required = new Set<string>(s.required ?? []);
      for (const [key, prop] of Object.entries<Schema>(s.properties ?? {})) {
        if (required.has(key) || rng.chance(0.5)) out[key] = sample(scope, prop, key, depth + 1);
      }
      return out;
    }
    default:
      return null;
  }
}

/** Hostile values of every kind: wrong types, boundaries, huge, unicode, injection-looking text. */
export function oddValue(rng: Rng): unknown {
  return rng.pick<() => unknown>([
    () => null,
    () => true,
    () => -1,
    () => 0,
    () => 12.345,
    () => -0.01,
    () => 1e308,
    () => -1e308,
    () => 2 ** 53 + 2,
    () => 2 ** 31,
    () => 9_007_199_254_740_991,
    () => 1e15,
    () => '',
    () => ' ',
    () => 'x'.repeat(rng.int(256, 120_000)),
    () => '🙂'.repeat(rng.int(1, 3000)),
    () => 'مرحبا\u202eabc\u0000\u0007',
    () => 'e\u0301\u200d\ufeff',
    () => "'; drop table products; --",
    () => '%s%n%x',
    () => '../../etc/passwd',
    () => '<script>alert(1)</script>',
    () => '=HYPERLINK("http://x")',
    () => '1e999',
    () => 'NaN',
    () => '2026-13-45T99:99:99Z',
    () => '00000000-0000-0000-0000-000000000000',
    () => 'FFFFFFFF-FFFF-7FFF-BFFF-FFFFFFFFFFFF',
    () => [],
    () => [null, 1, 'a'],
    () => ({}),
    () => JSON.parse('{"$ne":null,"__proto__":{"is_admin":true},"constructor":{"prototype":{"x":1}}}'),
    () => Array.from({ length: rng.int(100, 3000) }, (_, i) => i),
    () => nested(rng.int(50, 400)),
  ])();
}

function nested(depth: number): unknown {
  let v: unknown = 1;
  for (let i = 0; i < depth; i++) v = { a: v };
  return v;
}

/** Every path to a value inside `value` (objects and arrays), the root first. */
function paths(value: unknown, at: Array<string | number> = []): Array<Array<string | number>> {
  const out = [at];
  if (Array.isArray(value)) value.forEach((v, i) => out.push(...paths(v, [...at, i])));
  else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) out.push(...paths(v, [...at, k]));
  return out;
}

/** A copy of a sampled value with one part broken: a field dropped, added, or given an odd value. */
export function malform(rng: Rng, value: unknown): unknown {
  const copy = structuredClone(value);
  const all = paths(copy);
  const at = rng.pick(all);
  if (at.length === 0) return oddValue(rng);
  const parent = at.slice(0, -1).reduce<any>((v, k) => v[k], copy);
  const key = at[at.length - 1]!;
  const how = rng.weighted({ odd: 6, drop: 2, extra: 1, swapType: 2 });
  if (how === 'drop') {
    if (Array.isArray(parent)) parent.splice(key as number, 1);
    else delete parent[key];
  } else if (how === 'extra' && parent && typeof parent === 'object' && !Array.isArray(parent)) {
    parent[rng.pick(['is_admin', 'org_id', 'store_id', 'role', 'id', 'zzz', 'constructor'])] = oddValue(rng);
  } else if (how === 'swapType') {
    const v = parent[key];
    parent[key] =
      typeof v === 'number'
        ? String(v)
        : typeof v === 'string'
          ? Number(v) || 7
          : typeof v === 'boolean'
            ? 'true'
            : v == null
              ? 'null'
              : JSON.stringify(v);
  } else {
    parent[key] = oddValue(rng);
  }
  return copy;
}
