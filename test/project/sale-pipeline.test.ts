/**
 * The sale pipeline stays a pipeline (issue 50): no function in its folders runs past 40 lines, so a
 * rule lands in a stage small enough to read, and the server's stages are SALE_STAGES, the names
 * the till's pipeline shares (shared/src/pos/sale-stages.ts). Functions are found with the
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

/** The folders of the sale pipeline, server and till. */
const PIPELINE_DIRS = ['server/src/modules/pos/sale'];

function tsFiles(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir)).flatMap((name) => {
    const rel = path.join(dir, name);
    if (statSync(path.join(ROOT, rel)).isDirectory()) return tsFiles(rel);
    return rel.endsWith('.ts') && !rel.endsWith('.test.ts') ? [rel] : [];
  });
}

/** `file:line name (N lines)` for each function of the source longer than MAX_LINES. */
function longFunctions(file: string, text: string): string[] {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const first = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line;
      const last = sf.getLineAndCharacterOfPosition(node.getEnd()).line;
      const lines = last - first + 1;
      if (lines > MAX_LINES) found.push(`${file}:${first + 1} ${nameOf(node)} (${lines} lines)`);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return found;
}

function nameOf(node: ts.SignatureDeclaration): string {
  if (node.name) return node.name.getText();
  const parent = node.parent;
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent)) return parent.name.getText();
  return '(anonymous)';
}

describe('the sale pipeline', () => {
  it(`has no function longer than ${MAX_LINES} lines`, () => {
    const files = PIPELINE_DIRS.flatMap(tsFiles);
    expect(files.length).toBeGreaterThan(0);
    expect(files.flatMap((f) => longFunctions(f, readFileSync(path.join(ROOT, f), 'utf8')))).toEqual([]);
  });

  it('finds a long function wherever it is written (the check itself)', () => {
    const body = Array.from({ length: MAX_LINES }, (_, i) => `  const a${i} = ${i};`).join('\n');
    expect(longFunctions('a.ts', `export function planSale() {\n${body}\n}`)).toEqual([`a.ts:1 planSale (${MAX_LINES + 2} lines)`]);
    expect(longFunctions('b.ts', `export const stage = {\n  price: (x: number) => {\n${body}\n  },\n};`)).toEqual([
      `b.ts:2 price (${MAX_LINES + 2} lines)`,
    ]);
    // Exactly  lines passes.
    expect(longFunctions('c.ts', `const f = function () {\n${body.split('\n').slice(2).join('\n')}\n};`)).toEqual([]);
  });

  it('runs the stages of SALE_STAGES, in their order', () => {
    expect(Object.keys(saleStages)).toEqual([...SALE_STAGES]);
  });
});
