/** Preact hooks over the till: its status, its events, and a counter that moves whenever the replica may have changed. */
import type { Till, TillEvents, TillStatus } from '@duka/client-sdk';
import { useEffect, useState } from 'preact/hooks';
import type { Signal } from '../signal.js';

export function useSignal<T>(s: Signal<T>): T {
  const [value, setValue] = useState(s.get());
  useEffect(() => {
    setValue(s.get());
    return s.subscribe(setValue);
  }, [s]);
  return value;
}

export function useTillEvent<K extends keyof TillEvents>(till: Till, event: K, fn: (...args: TillEvents[K]) => void): void {
  useEffect(() => {
    till.on(event, fn);
    return () => void till.off(event, fn);
  }, [till, event, fn]);
}

export function useTillStatus(till: Till): TillStatus {
  const [status, setStatus] = useState(till.status());
  useEffect(() => {
    const update = (s: TillStatus) => setStatus({ ...s });
    till.on('status', update);
    setStatus(till.status());
    return () => void till.off('status', update);
  }, [till]);
  return status;
}

/** Re-runs `load` when its inputs change, and keeps the last answer while the next one comes. */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[], initial: T): T {
  const [value, setValue] = useState<T>(initial);
  useEffect(() => {
    let live = true;
    load().then(
      (v) => live && setValue(v),
      () => undefined,
    );
    return () => void (live = false);
  }, deps);
  return value;
}
