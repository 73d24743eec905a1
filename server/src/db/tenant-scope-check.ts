/**
 * A Kysely plugin that finds statements on a tenant table which do not name the organisation
 * (issue 36): a select, update or delete whose conditions hold no `org_id = …` (or `org_id IN …`,
 * or `a.org_id = b.org_id`) for each tenant table it reads, a join between tenant tables that does
 * not join on it, an insert into a tenant table without its `org_id`. A database that places rows
 * by organisation (Citus, a PostgreSQL partitioned by it) needs all of these to find the rows' home.
 *
 * It only reads the query tree, never changes it. The reads that must cross organisations (the
 * platform's operators, public pages, job scans) say so with `crossOrg(reason)` as an end modifier,
 * which the check accepts and reports by its reason. Which tables are tenant tables: table-scope.ts.
 */
import { type KyselyPlugin, type OperationNode, type PluginTransformQueryArgs, type PluginTransformResultArgs, sql } from 'kysely';
import { tenantKeyOf } from './table-scope.js';

/** Why a query reads across organisations; the check lists these reasons instead of failing. */
export type CrossOrgReason =
  | 'platform operators'
  | 'public page'
  | 'job scan'
  | 'sign-in'
  /** A payment or SMS provider's callback names its own reference, not the shop. */
  | 'provider callback'
  /** A signed file link names the file, not the shop; the signature is the check. */
  | 'signed link';

const CROSS_ORG = '/* cross-org: ';

/** Mark a select, update or delete as crossing organisations on purpose: `.modifyEnd(crossOrg('job scan'))`. */
export const crossOrg = (reason: CrossOrgReason) => sql.raw(`${CROSS_ORG}${reason} */`);

export interface ScopeFinding {
  kind: 'unnamed' | 'cross-org';
  table: string;
  statement: 'select' | 'update' | 'delete' | 'insert' | 'raw';
  /** For cross-org: the reason given. */
  reason?: string;
}

type Node = OperationNode & Record<string, any>;

const isNode = (v: unknown): v is Node => typeof v === 'object' && v !== null && typeof (v as Node).kind === 'string';

function children(node: Node): Node[] {
  const out: Node[] = [];
  for (const value of Object.values(node)) {
    if (Array.isArray(value)) out.push(...value.filter(isNode));
    else if (isNode(value)) out.push(value);
  }
  return out;
}

const QUERIES = new Set(['SelectQueryNode', 'UpdateQueryNode', 'DeleteQueryNode', 'InsertQueryNode']);

/** Table name and the name it is referred to by, for a TableNode or an aliased one. */
function source(node: Node | undefined): { table: string; name: string } | null {
  if (!node) return null;
  if (node.kind === 'TableNode') {
    const table = node.table.identifier.name as string;
    return { table, name: table };
  }
  if (node.kind === 'AliasNode' && node.node.kind === 'TableNode') {
    return { table: node.node.table.identifier.name, name: node.alias.name ?? node.alias.identifier?.name };
  }
  return null;
}

/** `{ column, qualifier }` of a plain column reference, or null. */
function reference(node: Node): { column: string; qualifier: string | null } | null {
  if (node.kind === 'ReferenceNode' && node.column.kind === 'ColumnNode') {
    return { column: node.column.column.name, qualifier: node.table ? node.table.table.identifier.name : null };
  }
  if (node.kind === 'ColumnNode') return { column: node.column.name, qualifier: null };
  return null;
}

/** Every `x = …` / `x IN …` comparison in a condition tree, not descending into subqueries. */
function comparisons(node: Node | undefined, out: Node[] = []): Node[] {
  if (!node) return out;
  if (node.kind === 'BinaryOperationNode') {
    const op = String(node.operator.operator).toLowerCase();
    if (op === '=' || op === 'in') out.push(node);
  }
  // dialect.ts's orgIdCheck: `x = ?`, or on SQLite `+x = ?` (a comparison the planner does not index).
  if (node.kind === 'RawNode' && /^\+?\0 = \0$/.test((node.sqlFragments as string[]).join('\0'))) {
    // `sql.ref` arrives wrapped in a raw node of its own.
    const [ref, value] = node.parameters as Node[];
    const left = ref?.kind === 'RawNode' && ref.parameters.length === 1 ? ref.parameters[0] : ref;
    out.push({ kind: 'BinaryOperationNode', leftOperand: left, rightOperand: value } as Node);
  }
  for (const child of children(node)) if (!QUERIES.has(child.kind)) comparisons(child, out);
  return out;
}

const rawText = (node: Node): string => (node.sqlFragments as string[]).join('?');

function crossOrgReason(node: Node): string | null {
  for (const m of (node.endModifiers ?? []) as Node[]) {
    const raw = m.kind === 'RawNode' ? m : m.rawModifier;
    const text = raw?.kind === 'RawNode' ? rawText(raw) : '';
    if (text.startsWith(CROSS_ORG)) return text.slice(CROSS_ORG.length, -3);
  }
  return null;
}

const STATEMENT = { SelectQueryNode: 'select', UpdateQueryNode: 'update', DeleteQueryNode: 'delete', InsertQueryNode: 'insert' } as const;

function checkQuery(node: Node, findings: ScopeFinding[]): void {
  const statement = STATEMENT[node.kind as keyof typeof STATEMENT];
  if (node.kind === 'InsertQueryNode') {
    const into = source(node.into);
    const key = into && tenantKeyOf(into.table);
    if (into && key && !(node.columns ?? []).some((c: Node) => c.column.name === key)) {
      findings.push({ kind: 'unnamed', table: into.table, statement });
    }
    return;
  }
  const sources = [
    ...((node.from?.froms ?? []) as Node[]),
    ...(node.kind === 'UpdateQueryNode' ? [node.table] : []),
    ...((node.using?.tables ?? []) as Node[]),
    ...((node.joins ?? []) as Node[]).map((j) => j.table),
  ]
    .map(source)
    .filter((s): s is { table: string; name: string } => s !== null && tenantKeyOf(s.table) !== null);
  if (sources.length === 0) return;
  const reason = crossOrgReason(node);
  if (reason) {
    for (const s of sources) findings.push({ kind: 'cross-org', table: s.table, statement, reason });
    return;
  }
  const named = new Set<string>();
  const conditions = [node.where?.where, ...((node.joins ?? []) as Node[]).map((j) => j.on?.on)];
  for (const cmp of conditions.flatMap((c) => comparisons(c))) {
    for (const operand of [cmp.leftOperand, cmp.rightOperand] as Node[]) {
      const ref = reference(operand);
      if (!ref) continue;
      for (const s of sources) {
        if (ref.column === tenantKeyOf(s.table) && (ref.qualifier === s.name || (ref.qualifier === null && sources.length === 1))) {
          named.add(s.name);
        }
      }
    }
  }
  for (const s of sources) if (!named.has(s.name)) findings.push({ kind: 'unnamed', table: s.table, statement });
}

/** A raw statement (sql`…`) names its organisation if it mentions org_id at all: a coarse check, on purpose. */
function checkRaw(node: Node, findings: ScopeFinding[]): void {
  const text = rawText(node);
  if (text.startsWith(CROSS_ORG)) return;
  const tables = [...text.matchAll(/\b(?:from|join|update|into)\s+"?([a-z_]+)"?/gi)].map((m) => m[1]!.toLowerCase());
  const tenantTables = [...new Set(tables)].filter((t) => tenantKeyOf(t) === 'org_id');
  if (tenantTables.length > 0 && !/\borg_id\b/.test(text)) {
    for (const table of tenantTables) findings.push({ kind: 'unnamed', table, statement: 'raw' });
  }
}

/** What the check finds in one statement's tree: every query in it, subqueries included. */
export function tenantScopeFindings(root: OperationNode): ScopeFinding[] {
  const findings: ScopeFinding[] = [];
  const walk = (node: Node) => {
    if (QUERIES.has(node.kind)) checkQuery(node, findings);
    if (node.kind === 'RawNode' && node === root) checkRaw(node, findings);
    for (const child of children(node)) walk(child);
  };
  walk(root as Node);
  return findings;
}

/** Reports each finding of each statement run through the Kysely instance it is installed on. */
export class TenantScopeCheck implements KyselyPlugin {
  constructor(private readonly report: (finding: ScopeFinding) => void) {}

  transformQuery(args: PluginTransformQueryArgs) {
    for (const finding of tenantScopeFindings(args.node)) this.report(finding);
    return args.node;
  }

  async transformResult(args: PluginTransformResultArgs) {
    return args.result;
  }
}
