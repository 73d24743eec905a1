/**
 * The README stays short (issue 35): at most 400 lines, and every relative link in it (and in
 * CHANGELOG.md, where its history went) points at a file that exists, and at a heading that exists
 * when it names one in a Markdown file. History goes to CHANGELOG.md, long explanations to docs/.
 * No app, no database: the files are read as they are.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const MAX_README_LINES = 400;

function read(rel: string): string {
  return readFileSync(path.join(ROOT, rel), 'utf8');
}

/** Lines as `wc -l` counts them (a final newline ends the last line, it does not start another). */
function lineCount(text: string): number {
  return text.replace(/\n$/, '').split('\n').length;
}

/** The text outside fenced code blocks, one entry per line (fences and their contents blanked). */
function proseLines(text: string): string[] {
  let fenced = false;
  return text.split('\n').map((line) => {
    if (/^\s*(```|~~~)/.test(line)) {
      fenced = !fenced;
      return '';
    }
    return fenced ? '' : line;
  });
}

/** Every link and image target in the prose: `[text](target)` and `![alt](target "title")`. */
function linkTargets(text: string): string[] {
  const targets: string[] = [];
  for (const line of proseLines(text)) {
    const withoutCode = line.replace(/`[^`]*`/g, '``');
    for (const m of withoutCode.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) targets.push(m[1]!);
  }
  return targets;
}

/** GitHub's anchors for a Markdown file's headings (`## Proxy setting (TRUST_PROXY)` → `proxy-setting-trust_proxy`). */
function headingAnchors(text: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of proseLines(text)) {
    const m = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!m) continue;
    const slug = m[1]!
      .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\p{M} _-]/gu, '')
      .replace(/ /g, '-');
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    anchors.add(n === 0 ? slug : `${slug}-${n}`);
  }
  return anchors;
}

/** What is wrong with each relative link of a root-level Markdown file; empty when all resolve. */
function brokenLinks(file: string): string[] {
  const problems: string[] = [];
  for (const target of linkTargets(read(file))) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//')) continue; // http:, mailto:, …
    const [rawPath, anchor] = target.split('#', 2) as [string, string | undefined];
    const rel = rawPath === '' ? file : path.posix.normalize(path.posix.join(path.posix.dirname(file), decodeURI(rawPath)));
    if (!existsSync(path.join(ROOT, rel))) {
      problems.push(`${file}: ${target} (no such file: ${rel})`);
      continue;
    }
    if (anchor && rel.endsWith('.md') && !headingAnchors(read(rel)).has(anchor.toLowerCase())) {
      problems.push(`${file}: ${target} (no heading #${anchor} in ${rel})`);
    }
  }
  return problems;
}

describe('README.md stays short (issue 35)', () => {
  it(`has at most ${MAX_README_LINES} lines: history goes to CHANGELOG.md, explanations to docs/`, () => {
    const lines = lineCount(read('README.md'));
    expect(lines, `README.md has ${lines} lines; move history to CHANGELOG.md and long sections to docs/`).toBeLessThanOrEqual(
      MAX_README_LINES,
    );
  });

  it('finds the links it checks (the checker itself)', () => {
    const targets = linkTargets(read('README.md'));
    expect(targets).toContain('CHANGELOG.md');
    expect(targets).toContain('docs/benchmarks.md');
    expect(targets.some((t) => t.startsWith('docs/') && t.includes('#'))).toBe(true);
    const sample = '[a](docs/x.md#y) ![b](img.png "t") `[c](not-a-link.md)`\n```\n[d](in-a-fence.md)\n```\n';
    expect(linkTargets(sample)).toEqual(['docs/x.md#y', 'img.png']);
    expect([
      ...headingAnchors("# Duka\n## Proxy setting (TRUST_PROXY)\n## A pharmacy's day\n## Metrics (`GET /metrics`)\n## Soak\n### Soak\n"),
    ]).toEqual(['duka', 'proxy-setting-trust_proxy', 'a-pharmacys-day', 'metrics-get-metrics', 'soak', 'soak-1']);
  });

  it('points every relative link in README.md at a file (and heading) that exists', () => {
    expect(brokenLinks('README.md')).toEqual([]);
  });

  it('points every relative link in CHANGELOG.md at a file (and heading) that exists', () => {
    expect(brokenLinks('CHANGELOG.md')).toEqual([]);
  });
});
