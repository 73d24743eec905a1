/**
 * Scans reach the cart in the order they were scanned. Each scan's lookup starts at once (a label
 * takes more reads of the replica than a pack's barcode, so lookups finish in any order), but what
 * it found is applied only after every scan before it has been: a scale label then a crate are two
 * lines, label first, however quickly the scanner sends them.
 */
export type InOrder = <T>(lookup: Promise<T>, apply: (found: T) => void, failed: (err: unknown) => void) => Promise<void>;

export function inOrder(): InOrder {
  let last: Promise<void> = Promise.resolve();
  return (lookup, apply, failed) => {
    // Settled either way, so one failed lookup never holds up the scans after it.
    const settled = lookup.then(
      (found) => () => apply(found),
      (err: unknown) => () => failed(err),
    );
    last = last.then(async () => (await settled)());
    return last;
  };
}
