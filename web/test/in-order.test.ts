/** Scans applied in the order scanned however their lookups finish (web/src/in-order.ts). */
import { describe, expect, it } from 'vitest';
import { inOrder } from '../src/in-order.js';

/** A lookup the test answers when it chooses. */
function deferred<T>() {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => ((resolve = res), (reject = rej)));
  return { promise, resolve, reject };
}

describe('scans in the order scanned', () => {
  it('applies a slow first lookup before a quick second one, and a failed one in its turn without holding up the rest', async () => {
    const scan = inOrder();
    const seen: string[] = [];
    const label = deferred<string>();
    const crate = deferred<string>();
    const unknown = deferred<string>();
    const soap = deferred<string>();
    const all = [label, crate, unknown, soap].map((d) =>
      scan(
        d.promise,
        (found) => seen.push(found),
        (err) => seen.push(`failed: ${(err as Error).message}`),
      ),
    );
    soap.resolve('soap');
    crate.resolve('crate');
    unknown.reject(new Error('no such code'));
    await new Promise((r) => setTimeout(r, 0));
    expect(seen).toEqual([]);
    label.resolve('label');
    await Promise.all(all);
    expect(seen).toEqual(['label', 'crate', 'failed: no such code', 'soap']);
  });
});
