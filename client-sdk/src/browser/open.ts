/**
 * Open a till in a browser: claim it for this tab, open its replica on OPFS, open the till on it.
 * The claim is given up when the till closes (or fails to open).
 */
import { type BrowserTillOptions, Till } from './till.js';
import { claimTill } from './claim.js';
import { pageStager } from './page-stager.js';
import { type OpfsStorageOptions, opfsStorage, type WorkerLike } from './storage.js';

export type OpenBrowserTillOptions = Omit<BrowserTillOptions, 'storage'> & Omit<OpfsStorageOptions, 'onClose'>;

export async function openBrowserTill(o: OpenBrowserTillOptions): Promise<Till> {
  const { worker, name = 'till.db', ...options } = o;
  const claim = await claimTill(`duka-till:${name}`);
  let started: WorkerLike | undefined;
  const storage = await opfsStorage({ worker: () => (started = worker()), name, onClose: claim.release }).catch((e: unknown) => {
    claim.release();
    throw e;
  });
  try {
    // The bootstrap's pages go to the same worker to be decoded and staged there (`page-stager.ts`).
    return await Till.open({ ...options, storage: { ...storage, stageBootstrapPage: pageStager(started!) } });
  } catch (e) {
    await storage.close();
    throw e;
  }
}
