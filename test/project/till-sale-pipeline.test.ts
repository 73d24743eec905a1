/**
 * The till's sale in named stages (issue 50), checked on the source: no function in
 * client-sdk/src/actions/sale is over 40 lines, `saleStages` has exactly the stages of `SALE_STAGES`
 * in their order, and `sell` runs them in that order.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { SALE_STAGES } from '@duka/shared';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const SALE = 'client-sdk/src/actions/sale';
const MAX_LINES = 40;

function files(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir)).flatMap((name) => {
    const rel = path.join(dir, name);
    if (statSync(path.join(ROOT, rel)).isDirectory()) return files(rel);
    return rel.endsWith('.ts') && !rel.endsWith('.test.ts') ? [rel] : [];
  });
}

const parse = (name: string, text: string) => ts.createSourceFile(name, text, ts.ScriptTarget.Latest, true);
const source = (rel: string) => parse(rel, readFileSync(path.join(ROOT, rel), 'utf8'));

function visit(node: ts.Node, each: (n: ts.Node) => void): void {
  each(node);
  ts.forEachChild(node, (child) => visit(child, each));
}

/** A function's name, or the name of the variable or property it is the value of. */
function nameOf(n: ts.SignatureDeclaration): string {
  const named = n.name ? n : n.parent;
  const id = (named as { name?: ts.Node }).name;
  return id && (ts.isIdentifier(id) || ts.isStringLiteral(id)) ? id.text : '(anonymous)';
}

/** Every function over the limit, as `file:line name (n lines)`; a function's lines run from its first token to its last. */
function longFunctions(file: ts.SourceFile): string[] {
  const long: string[] = [];
  visit(file, (n) => {
    if (!ts.isFunctionLike(n) || !('body' in n) || !n.body) return;
    const first = file.getLineAndCharacterOfPosition(n.getStart(file)).line;
    const last = file.getLineAndCharacterOfPosition(n.getEnd()).line;
    const lines = last - first + 1;
    const name = nameOf(n);
    if (lines > MAX_LINES) long.push(`${file.fileName}:${first + 1} ${name} (${lines} lines)`);
  });
  return long;
}

/** The property names of `export const saleStages = { … }`, in order. */
function stageKeys(file: ts.SourceFile): string[] {
  let keys: string[] = [];
  visit(file, (n) => {
    if (ts.isVariableDeclaration(n) && ts.isIdentifier(n.name) && n.name.text === 'saleStages' && n.initializer) {
      if (!ts.isObjectLiteralExpression(n.initializer)) throw new Error('saleStages is not an object literal');
      keys = n.initializer.properties.map((p) => (p.name && ts.isIdentifier(p.name) ? p.name.text : '?'));
    }
  });
  return keys;
}

/** The stages `sell` calls (`stage.<name>(…)`), in the order they appear. */
function stagesCalled(file: ts.SourceFile): string[] {
  const called: string[] = [];
  visit(file, (n) => {
    if (ts.isCallExpression(n) && ts.isPropertyAccessExpression(n.expression)) {
      const on = n.expression.expression;
      if (ts.isIdentifier(on) && on.text === 'stage') called.push(n.expression.name.text);
    }
  });
  return called;
}

describe("the till's sale pipeline", () => {
  it(`has no function over ${MAX_LINES} lines in ${SALE}`, () => {
    const sources = files(SALE);
    expect(sources.length).toBeGreaterThan(8);
    expect(sources.flatMap((f) => longFunctions(source(f)))).toEqual([]);
  });

  it('would name a function one line over the limit', () => {
    const body = Array.from({ length: MAX_LINES - 2 }, (_, i) => `  const a${i} = ${i};`).join('\n');
    const planted = parse('planted.ts', `export function fits() {\n${body}\n}\nconst over = () => {\n${body}\n  return 0;\n};\n`);
    expect(longFunctions(planted)).toEqual([`planted.ts:${MAX_LINES + 1} over (${MAX_LINES + 1} lines)`]);
  });

  it('has exactly the stages of SALE_STAGES, in order, and sell runs them in that order', () => {
    expect(stageKeys(source(`${SALE}/pipeline.ts`))).toEqual([...SALE_STAGES]);
    expect(stagesCalled(source(`${SALE}/sell.ts`))).toEqual([...SALE_STAGES]);
  });
});
