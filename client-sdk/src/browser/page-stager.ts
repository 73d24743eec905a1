/**
 * The main thread's half of the worker's bootstrap page requests (`protocol.ts`): a page's bytes
 * handed to the worker to decode (transferred: the page is the worker's from then on), its head
 * heard, then its rows staged by the worker between the till's transactions (`serve.ts`).
 */
import type { BootstrapPageStager } from '../local/storage.js';
import { WorkerSqliteError } from './link.js';
import type { PortLike, StageRequest, StageResponse } from './protocol.js';

export function pageStager(port: PortLike): BootstrapPageStager {
  let next = 1;
  let gone: Error | null = null;
  const waiting = new Map<string, { resolve: (r: StageResponse & { ok: true }) => void; reject: (e: Error) => void }>();
  port.addEventListener('message', (event: { data: StageResponse }) => {
    const res = event.data;
    const pending = typeof res?.id === 'string' ? waiting.get(res.id) : undefined;
    if (!pending) return;
    waiting.delete(res.id);
    if (res.ok) pending.resolve(res);
    else pending.reject(new WorkerSqliteError(res.kind, res.message, res.sqliteCode));
  });
  // A worker that dies says so with an `error` event only: what waits on it is refused, not left hanging.
  port.addEventListener('error', (event: { message?: string }) => {
    gone = new WorkerSqliteError('unavailable', `the database worker stopped (${event?.message || 'no reason given'})`);
    for (const p of waiting.values()) p.reject(gone);
    waiting.clear();
  });
  const send = (req: StageRequest, transfer: ArrayBuffer[] = []) => {
    if (gone) return Promise.reject(gone);
    return new Promise<StageResponse & { ok: true }>((resolve, reject) => {
      waiting.set(req.id, { resolve, reject });
      port.postMessage(req, transfer);
    });
  };
  return async (page, heard) => {
    const id = `stage:${next++}`;
    const { head } = await send({ id, op: 'decode', page }, [page]);
    // What `heard` starts (the next page's download, whose sign-in reads the replica) goes first.
    await heard(head!);
    return (await send({ id, op: 'stage' })).staged!;
  };
}
