/**
 * Every answer a test gets is checked against the live OpenAPI document: the status must be one
 * the operation documents, its required headers present, and its JSON body valid against the
 * documented schema, read as closed (a field the document does not name is drift too, which is
 * what an integrator's generated types would silently drop). OpenAPI 3.1 schemas are JSON
 * Schema 2020-12, so ajv's 2020 dialect reads them as they are.
 */
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import formats from 'ajv-formats';

// Both are CommonJS modules whose default export NodeNext types as the module itself.
const addFormats = formats as unknown as typeof formats.default;

type Json = Record<string, any>;

export interface CheckedExchange {
  method: string;
  /** The path under the API's base path, query string included (`/inventory/products?page=2`). */
  path: string;
  status: number;
  headers: Headers;
  /** Parsed JSON, or null. */
  body: unknown;
  text: string;
  /** What was sent, for the replay line of a failure. */
  request?: { headers?: Record<string, string>; body?: unknown };
}

export class OpenApiDrift extends Error {
  override name = 'OpenApiDrift';
}

const DOC_ID = 'https://duka.invalid/openapi.json';
const METHODS = new Set(['get', 'put', 'post', 'patch', 'delete', 'head', 'options', 'trace']);

/** Every object that lists its properties is read as closed, unless it says otherwise itself. */
function closed(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(closed);
  if (!schema || typeof schema !== 'object') return schema;
  const out: Json = {};
  for (const [k, v] of Object.entries(schema)) {
    if (k === '$ref' && typeof v === 'string' && v.startsWith('#/')) out[k] = DOC_ID + v;
    else if (k === 'example' || k === 'examples') out[k] = v;
    else out[k] = closed(v);
  }
  if (out.properties && out.additionalProperties === undefined && out.unevaluatedProperties === undefined)
    out.unevaluatedProperties = false;
  return out;
}

interface Operation {
  id: string;
  template: string;
  pattern: RegExp;
  literals: number;
  op: Json;
}

export class OpenApiChecker {
  private readonly ajv: Ajv2020;
  private readonly operations = new Map<string, Operation[]>();
  private readonly validators = new Map<string, ValidateFunction>();

  constructor(readonly doc: Json) {
    this.ajv = new Ajv2020({ strict: false, allErrors: true, formats: { binary: true }, multipleOfPrecision: 6 });
    addFormats(this.ajv);
    this.ajv.addSchema({ $id: DOC_ID, components: closed(doc.components ?? {}) });
    for (const [template, item] of Object.entries<Json>(doc.paths ?? {})) {
      for (const [method, op] of Object.entries<Json>(item)) {
        if (!METHODS.has(method)) continue;
        const segments = template.split('/');
        const pattern = new RegExp(
          `^${segments.map((s) => (s.startsWith('{') ? '[^/]+' : s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))).join('/')}$`,
        );
        const list = this.operations.get(method) ?? [];
        list.push({
          id: op.operationId ?? `${method} ${template}`,
          template,
          pattern,
          literals: segments.filter((s) => !s.startsWith('{')).length,
          op,
        });
        this.operations.set(method, list);
      }
    }
    // A literal segment beats a parameter, as the router's registration order makes it.
    for (const list of this.operations.values()) list.sort((a, b) => b.literals - a.literals);
  }

  /** The documented operation a request reached, or null where the document has none (health, the reference itself). */
  find(method: string, path: string): Operation | null {
    const bare = path.split('?')[0]!.replace(/(.)\/$/, '$1');
    return this.operations.get(method.toLowerCase())?.find((o) => o.pattern.test(bare)) ?? null;
  }

  /** The problems of one exchange against the document: empty when it tells the truth. */
  problems(x: CheckedExchange): string[] {
    const found = this.find(x.method, x.path);
    if (!found) return [];
    const responses: Json = found.op.responses ?? {};
    const documented = responses[String(x.status)] ?? responses[`${String(x.status)[0]}XX`] ?? responses.default;
    if (!documented) return [`status ${x.status} is not documented (documented: ${Object.keys(responses).join(', ')})`];
    const out: string[] = [];
    for (const [name, header] of Object.entries<Json>(documented.headers ?? {})) {
      const h = header.$ref ? this.doc.components.headers[header.$ref.split('/').pop()] : header;
      if (h?.required && !x.headers.has(name)) out.push(`required header ${name} is missing`);
    }
    const type = (x.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
    const content: Json | undefined = documented.content;
    if (!content) {
      if (x.text.length > 0) out.push(`a ${type || 'untyped'} body where the document describes none`);
      return out;
    }
    const media = content[type] ?? Object.entries(content).find(([k]) => k.endsWith('/*') && type.startsWith(k.slice(0, -1)))?.[1];
    if (!media) return [...out, `content-type ${type || '(none)'} where the document lists ${Object.keys(content).join(', ')}`];
    if (type === 'application/json' && media.schema) {
      const validate = this.validator(`${found.id} ${x.status}`, media.schema);
      if (!validate(x.body)) {
        for (const e of validate.errors ?? []) {
          const extra = e.keyword === 'unevaluatedProperties' ? ` (${(e.params as Json).unevaluatedProperty})` : '';
          out.push(`body${e.instancePath.replace(/\//g, '.') || ''} ${e.message}${extra}`);
        }
      }
    }
    return out;
  }

  /** Throws OpenApiDrift naming the operation, the status and each problem, with the request to replay it. */
  check(x: CheckedExchange): void {
    const problems = this.problems(x);
    if (problems.length === 0) return;
    const found = this.find(x.method, x.path)!;
    const replay = { method: x.method, path: x.path, headers: redact(x.request?.headers ?? {}), body: x.request?.body };
    throw new OpenApiDrift(
      `${found.id} (${x.method} ${found.template}) answered ${x.status}, which its OpenAPI document does not describe:\n` +
        problems
          .slice(0, 12)
          .map((p) => `  - ${p}`)
          .join('\n') +
        `\n  answer: ${x.text.slice(0, 600)}\n  replay: ${JSON.stringify(replay).slice(0, 2000)}`,
    );
  }

  /** A value's problems against a schema of the document, read as closed (for the document's own examples). */
  schemaProblems(schema: unknown, value: unknown): string[] {
    const validate = this.ajv.compile(closed(schema) as object);
    return validate(value)
      ? []
      : (validate.errors ?? []).map((e) => `${e.instancePath || '(root)'} ${e.message} ${JSON.stringify(e.params)}`);
  }

  private validator(key: string, schema: unknown): ValidateFunction {
    const known = this.validators.get(key);
    if (known) return known;
    const v = this.ajv.compile(closed(schema) as object);
    this.validators.set(key, v);
    return v;
  }
}

function redact(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) out[k] = /^authorization$/i.test(k) ? v.replace(/\s.*/, ' <token>') : v;
  return out;
}

const byDocument = new Map<string, OpenApiChecker>();

/** One checker per distinct document in a test process (compiling the schemas is the costly part). */
export function checkerFor(doc: Json): OpenApiChecker {
  const key = JSON.stringify(doc.paths) + JSON.stringify(doc.components);
  let checker = byDocument.get(key);
  if (!checker) byDocument.set(key, (checker = new OpenApiChecker(doc)));
  return checker;
}
