/**
 * The sale pipeline stays a pipeline (issue 50), on the server and on the till alike: no function in
 * their folders runs past 40 lines, so a rule lands in a stage small enough to read (the server's
 * folder holds the whole sale: its read under the store lock, `loadSaleSet`, and its write,
 * `writeSale`), and each side's `saleStages` has exactly the stages of SALE_STAGES
 * (shared/src/pos/sale-stages.ts), in order, run in that order. Functions are found with the
 * TypeScript compiler (declarations, methods, arrow functions and function expressions, nested
 * ones counted on their own too), from the line they start on to the line they end on.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { SALE_STAGES } from '@duka/shared';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { saleStages } from '../../server/src/modules/pos/sale/pipeline.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const MAX_LINES = 40;
const SERVER = 'server/src/modules/pos/sale';
const TILL = 'client-sdk/src/actions/sale';

/** The folders of the sale pipeline, server and till. */
const PIPELINE_DIRS = [SERVER, TILL];

function tsFiles(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir)).flatMap((name) => {
    const rel = path.join(dir, name);
    if (statSync(path.join(ROOT, rel)).isDirectory()) return tsFiles(rel);
    return rel.endsWith('.ts') && !rel.endsWith('.test.ts') ? [rel] : [];
  });
}

const parse = (name: string, text: string) => ts.createSourceFile(name, text, ts.ScriptTarget.Latest, true);
const source = (rel: string) => parse(rel, readFileSync(path.join(ROOT, rel), 'utf8'));

function visit(node: ts.Node, each: (n: ts.Node) => void): void {
  each(node);
  ts.forEachChild(node, (child) => visit(child, each));
}

/** `file:line name (N lines)` for each function of the source longer than MAX_LINES. */
function longFunctions(file: string, text: string): string[] {
  const sf = parse(file, text);
  const found: string[] = [];
  visit(sf, (node) => {
    if (!ts.isFunctionLike(node) || !('body' in node) || !node.body) return;
    const first = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line;
    const last = sf.getLineAndCharacterOfPosition(node.getEnd()).line;
    const lines = last - first + 1;
    if (lines > MAX_LINES) found.push(`${file}:${first + 1} ${nameOf(node)} (${lines} lines)`);
  });
  return found;
}

/** A function's name, or the name of the variable or property it is the value of. */
function nameOf(node: ts.SignatureDeclaration): string {
  if (node.name) return node.name.getText();
  const parent = node.parent;
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent)) return parent.name.getText();
  return '(anonymous)';
}

/** The property names of `export const saleStages = { … }` (a `satisfies` or `as` after it allowed), in order. */
function stageKeys(file: ts.SourceFile): string[] {
  let keys: string[] = [];
  visit(file, (n) => {
    if (!ts.isVariableDeclaration(n) || !ts.isIdentifier(n.name) || n.name.text !== 'saleStages' || !n.initializer) return;
    let value: ts.Expression = n.initializer;
    while (ts.isSatisfiesExpression(value) || ts.isAsExpression(value)) value = value.expression;
    if (!ts.isObjectLiteralExpression(value)) throw new Error(`${file.fileName}: saleStages is not an object literal`);
    keys = value.properties.map((p) => (p.name && ts.isIdentifier(p.name) ? p.name.text : '?'));
  });
  return keys;
}

/** The stages called on `on` (`<on>.<name>(…)`), in the order they appear in the file. */
function stagesCalled(file: ts.SourceFile, on: string): string[] {
  const called: string[] = [];
  visit(file, (n) => {
    if (ts.isCallExpression(n) && ts.isPropertyAccessExpression(n.expression)) {
      const target = n.expression.expression;
      if (ts.isIdentifier(target) && target.text === on) called.push(n.expression.name.text);
    }
  });
  return called;
}

describe('the sale pipeline, server and till', () => {
  it(`has no function longer than ${MAX_LINES} lines`, () => {
    const files = PIPELINE_DIRS.flatMap(tsFiles);
    for (const dir of PIPELINE_DIRS) expect(files.filter((f) => f.startsWith(`${dir}/`)).length, dir).toBeGreaterThan(8);
    // The server's sale is read and written in its folder too, so the limit holds for them.
    expect(files).toEqual(expect.arrayContaining([`${SERVER}/load-sale-set.ts`, `${SERVER}/write-sale.ts`, `${TILL}/sell.ts`]));
    expect(files.flatMap((f) => longFunctions(f, readFileSync(path.join(ROOT, f), 'utf8')))).toEqual([]);
  });

  it('finds a long function wherever it is written (the check itself)', () => {
    const body = Array.from({ length: MAX_LINES }, (_, i) => `  const a${i} = ${i};`).join('\n');
    expect(longFunctions('a.ts', `export function planSale() {\n${body}\n}`)).toEqual([`a.ts:1 planSale (${MAX_LINES + 2} lines)`]);
    expect(longFunctions('b.ts', `export const stage = {\n  price: (x: number) => {\n${body}\n  },\n};`)).toEqual([
      `b.ts:2 price (${MAX_LINES + 2} lines)`,
    ]);
    // Exactly MAX_LINES lines passes; one more is named.
    const fits = body.split('\n').slice(2).join('\n');
    expect(longFunctions('c.ts', `const f = function () {\n${fits}\n};`)).toEqual([]);
    expect(longFunctions('d.ts', `const over = () => {\n${fits}\n  return 0;\n};`)).toEqual([`d.ts:1 over (${MAX_LINES + 1} lines)`]);
  });

  it('has exactly the stages of SALE_STAGES on both sides, in their order', () => {
    expect(Object.keys(saleStages)).toEqual([...SALE_STAGES]);
    expect(stageKeys(source(`${SERVER}/pipeline.ts`))).toEqual([...SALE_STAGES]);
    expect(stageKeys(source(`${TILL}/pipeline.ts`))).toEqual([...SALE_STAGES]);
  });

  it('runs the stages in that order on both sides (the server in planSale then recordSales, the till in sell)', () => {
    expect(stagesCalled(source(`${SERVER}/pipeline.ts`), 'saleStages')).toEqual([...SALE_STAGES]);
    expect(stagesCalled(source(`${TILL}/sell.ts`), 'stage')).toEqual([...SALE_STAGES]);
  });
});
