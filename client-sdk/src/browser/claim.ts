/**
 * One tab owns a till. Two tabs writing one replica would each number sales and push the same
 * queue; opfs-sahpool would refuse the second anyway, but late and obscurely. A Web Lock held for
 * the page's life says it at once: the second tab gets `OPEN_ELSEWHERE` and never opens the
 * database. The browser releases the lock when the owning page goes away (closed, reloaded, crashed).
 */
import { TillError } from '../errors.js';
import { openElsewhere } from './storage.js';

interface LockManagerLike {
  request(name: string, options: { ifAvailable: true }, callback: (lock: unknown) => Promise<void>): Promise<void>;
}

export interface TillClaim {
  readonly name: string;
  /** Give the till up (it may be released more than once). */
  release(): void;
}

/** Hold the lock `name` until `release()`; `OPEN_ELSEWHERE` when another tab of this origin holds it. */
export function claimTill(name: string): Promise<TillClaim> {
  const locks = (globalThis as { navigator?: { locks?: LockManagerLike } }).navigator?.locks;
  if (!locks)
    return Promise.reject(
      new TillError(
        'STORAGE_UNAVAILABLE',
        "this browser cannot keep the till's data: it cannot tell whether another tab has the till open (no Web Locks). Open the till in a current Chrome, Edge, Firefox or Safari.",
      ),
    );
  return new Promise((resolve, reject) => {
    locks
      .request(name, { ifAvailable: true }, (lock) => {
        if (!lock) {
          reject(openElsewhere());
          return Promise.resolve();
        }
        return new Promise<void>((release) => resolve({ name, release: () => release() }));
      })
      .catch(reject);
  });
}
