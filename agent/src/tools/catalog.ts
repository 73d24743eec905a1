/**
 * The tool catalogue: each allowlist line joined with its operation in the API's OpenAPI document.
 * A tool's arguments are one flat JSON object (path and query parameters, and the JSON body's
 * properties), which is what function-calling models handle best; `split` sorts them back out.
 */
import type { OpenApiDoc } from '../api-client.js';
import { ALLOWLIST, type ToolLine } from './allowlist.js';

export type JsonSchema = Record<string, any>;

export interface Tool {
  name: string;
  kind: 'read' | 'write';
  description: string;
  method: string;
  path: string;
  inputSchema: { type: 'object'; properties: Record<string, JsonSchema>; required: string[]; additionalProperties: false };
  pathParams: string[];
  queryParams: string[];
  /** Body property names; null when the operation takes no JSON body. */
  bodyProps: string[] | null;
  line: ToolLine;
}

const MAX_DEPTH = 8;

/** Inline `#/components/schemas/X` references, so each tool's schema stands alone. */
function resolve(schema: any, components: Record<string, any>, depth = 0): any {
  if (Array.isArray(schema)) return schema.map((s) => resolve(s, components, depth));
  if (!schema || typeof schema !== 'object') return schema;
  if (typeof schema.$ref === 'string') {
    const name = schema.$ref.replace('#/components/schemas/', '');
    const target = components[name];
    if (!target || depth >= MAX_DEPTH) return { type: 'object' };
    return resolve(target, components, depth + 1);
  }
  const out: Record<string, any> = {};
  for (const [k, v] of Object.entries(schema)) out[k] = resolve(v, components, depth);
  return out;
}

function findOperation(doc: OpenApiDoc, operationId: string): { method: string; path: string; op: any } | null {
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item ?? {})) if (op?.operationId === operationId) return { method, path, op };
  }
  return null;
}

export interface Catalog {
  tools: Map<string, Tool>;
  /** Allowlist lines whose operation the API does not have (logged once at load). */
  missing: string[];
}

export function buildCatalog(doc: OpenApiDoc, lines: ToolLine[] = ALLOWLIST): Catalog {
  const components = doc.components?.schemas ?? {};
  const tools = new Map<string, Tool>();
  const missing: string[] = [];
  for (const line of lines) {
    const found = findOperation(doc, line.operationId);
    if (!found) {
      missing.push(line.operationId);
      continue;
    }
    const properties: Record<string, JsonSchema> = {};
    const required: string[] = [];
    const pathParams: string[] = [];
    const queryParams: string[] = [];
    for (const p of found.op.parameters ?? []) {
      const param = resolve(p, components);
      if (param.in !== 'path' && param.in !== 'query') continue; // headers (Idempotency-Key) are the agent's own business
      properties[param.name] = {
        ...resolve(param.schema ?? {}, components),
        ...(param.description ? { description: param.description } : {}),
      };
      if (param.required) required.push(param.name);
      (param.in === 'path' ? pathParams : queryParams).push(param.name);
    }
    let bodyProps: string[] | null = null;
    const body = found.op.requestBody?.content?.['application/json']?.schema;
    if (body) {
      const schema = resolve(body, components);
      bodyProps = [];
      for (const [name, s] of Object.entries<any>(schema.properties ?? {})) {
        if (properties[name]) continue; // a path or query parameter of the same name wins
        properties[name] = s;
        bodyProps.push(name);
      }
      for (const name of schema.required ?? []) if (bodyProps.includes(name)) required.push(name);
    }
    tools.set(line.operationId, {
      name: line.operationId,
      kind: line.kind,
      description: `${line.description}. (Swahili: ${line.sw})`,
      method: found.method,
      path: found.path,
      inputSchema: { type: 'object', properties, required, additionalProperties: false },
      pathParams,
      queryParams,
      bodyProps,
      line,
    });
  }
  return { tools, missing };
}

export type Checked = { ok: true; args: Record<string, unknown> } | { ok: false; problem: string };

/** The arguments a tool takes, or what is wrong with them (unknown names, missing required ones). */
export function checkArgs(tool: Tool, raw: unknown): Checked {
  if (raw === null || raw === undefined) raw = {};
  if (typeof raw !== 'object' || Array.isArray(raw)) return { ok: false, problem: 'arguments must be a JSON object' };
  const args = raw as Record<string, unknown>;
  const unknown = Object.keys(args).filter((k) => !(k in tool.inputSchema.properties));
  if (unknown.length) return { ok: false, problem: `unknown arguments: ${unknown.join(', ')}` };
  const missing = tool.inputSchema.required.filter((k) => args[k] === undefined || args[k] === null || args[k] === '');
  if (missing.length) return { ok: false, problem: `missing arguments: ${missing.join(', ')}` };
  return { ok: true, args };
}

/** The API request a tool's arguments make. */
export function split(tool: Tool, args: Record<string, unknown>) {
  let path = tool.path;
  for (const name of tool.pathParams) path = path.replace(`{${name}}`, encodeURIComponent(String(args[name])));
  const query: Record<string, unknown> = {};
  for (const name of tool.queryParams) if (args[name] !== undefined) query[name] = args[name];
  let body: Record<string, unknown> | undefined;
  if (tool.bodyProps) {
    body = {};
    for (const name of tool.bodyProps) if (args[name] !== undefined) body[name] = args[name];
  }
  return { path, query, body };
}
