/**
 * Open a till in a browser: claim it for this tab, open its replica on OPFS, open the till on it.
 * The claim is given up when the till closes (or fails to open).
 */
import { type BrowserTillOptions, Till } from './till.js';
import { claimTill } from './claim.js';
import { type OpfsStorageOptions, opfsStorage } from './storage.js';

export type OpenBrowserTillOptions = Omit<BrowserTillOptions, 'storage'> & Omit<OpfsStorageOptions, 'onClose'>;

export async function openBrowserTill(o: OpenBrowserTillOptions): Promise<Till> {
  const { worker, name = 'till.db', ...options } = o;
  const claim = await claimTill(`duka-till:${name}`);
  const storage = await opfsStorage({ worker, name, onClose: claim.release }).catch((e: unknown) => {
    claim.release();
    throw e;
  });
  try {
    return await Till.open({ ...options, storage });
  } catch (e) {
    await storage.close();
    throw e;
  }
}
