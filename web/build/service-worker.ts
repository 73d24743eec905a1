/**
 * Builds `sw.js` (src/sw.ts) next to the app and writes into it the list of files it precaches:
 * every file of the finished build (read from disk once Vite has written it all, so the SQLite
 * worker and its .wasm, which Vite emits from their own bundle, are in it), under a version made
 * from their contents, so a new build installs a new cache and the old one is dropped.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Plugin } from 'vite';

const SW_FILE = 'sw.js';
const PLACEHOLDER = /(["'`])__DUKA_PRECACHE__\1/;

function filesUnder(dir: string, rel = ''): string[] {
  return readdirSync(path.join(dir, rel), { withFileTypes: true }).flatMap((e) => {
    const name = rel ? `${rel}/${e.name}` : e.name;
    return e.isDirectory() ? filesUnder(dir, name) : [name];
  });
}

export function serviceWorker(source: string): Plugin {
  let outDir = '';
  return {
    name: 'duka-service-worker',
    apply: 'build',
    enforce: 'post',
    // The page registers the worker only where this plugin made one (not under `vite` dev, which has no sw.js).
    config: () => ({ define: { 'import.meta.env.DUKA_SERVICE_WORKER': 'true' } }),
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    buildStart() {
      this.emitFile({ type: 'chunk', id: source, fileName: SW_FILE });
    },
    writeBundle() {
      const files = filesUnder(outDir)
        // The .br and .gz copies are the same files, which the browser decodes: never cached twice.
        .filter((f) => f !== SW_FILE && !/\.(map|br|gz)$/.test(f))
        .sort();
      const hash = createHash('sha256');
      for (const f of files) hash.update(f).update(readFileSync(path.join(outDir, f)));
      const manifest = { version: hash.digest('hex').slice(0, 16), files };
      const swPath = path.join(outDir, SW_FILE);
      const code = readFileSync(swPath, 'utf8');
      if (!PLACEHOLDER.test(code)) throw new Error(`${SW_FILE}: the precache placeholder is missing`);
      writeFileSync(
        swPath,
        code.replace(PLACEHOLDER, () => JSON.stringify(JSON.stringify(manifest))),
      );
    },
  };
}
