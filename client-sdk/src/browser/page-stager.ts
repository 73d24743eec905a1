/**
 * The main thread's half of the worker's `stage` request (`protocol.ts`): a bootstrap page's bytes
 * handed to the worker (transferred: the page is the worker's from then on), its head heard early,
 * what was staged heard last. The worker stages it between the till's transactions (`serve.ts`).
 */
import type { BootstrapPageStager } from '../local/storage.js';
import { WorkerSqliteError } from './link.js';
import type { PortLike, StageRequest, StageResponse } from './protocol.js';

export function pageStager(port: PortLike): BootstrapPageStager {
  let next = 1;
  let gone: Error | null = null;
  const waiting = new Map<string, { heard: Parameters<BootstrapPageStager>[1]; resolve: (r: StageResponse) => void; reject: (e: Error) => void }>();
  port.addEventListener('message', (event: { data: StageResponse }) => {
    const res = event.data;
    const pending = typeof res?.id === 'string' ? waiting.get(res.id) : undefined;
    if (!pending) return;
    if ('head' in res) return pending.heard(res.head);
    waiting.delete(res.id);
    pending.resolve(res);
  });
  // A worker that dies says so with an `error` event only: what waits on it is refused, not left hanging.
  port.addEventListener('error', (event: { message?: string }) => {
    gone = new WorkerSqliteError('unavailable', `the database worker stopped (${event?.message || 'no reason given'})`);
    for (const p of waiting.values()) p.reject(gone);
    waiting.clear();
  });
  return async (page, heard) => {
    if (gone) throw gone;
    const id = `stage:${next++}`;
    const res = await new Promise<StageResponse>((resolve, reject) => {
      waiting.set(id, { heard, resolve, reject });
      port.postMessage({ id, op: 'stage', page } satisfies StageRequest, [page]);
    });
    if ('head' in res) throw new Error('unreachable');
    if (!res.ok) throw new WorkerSqliteError(res.kind, res.message, res.sqliteCode);
    return res.staged;
  };
}
