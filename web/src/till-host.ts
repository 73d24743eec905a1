/**
 * The one place the app opens its till: the SDK's browser build, its replica in SQLite WASM on
 * OPFS inside a worker, claimed by this tab (Web Locks). What can stop it opening is told apart
 * here, so the app can show the cashier the right screen instead of selling into memory.
 */
import { openBrowserTill, type Till, TillError } from '@duka/client-sdk';
import SqliteWorker from '@duka/client-sdk/sqlite-worker?worker';
import { signal } from './signal.js';

export type HostState =
  | { kind: 'opening' }
  | { kind: 'open'; till: Till }
  /** Another tab of this browser owns the till. */
  | { kind: 'elsewhere' }
  /** No OPFS (an old browser, a private window): the till refuses to run on memory alone. */
  | { kind: 'no-storage'; message: string }
  | { kind: 'failed'; message: string };

export const host = signal<HostState>({ kind: 'opening' });

const DEVICE_NAME_KEY = 'duka.till.device-name';

/** The API root on the server that served the page (the server's default BASE_PATH, or the build's VITE_DUKA_API). */
export const apiBase = (): string => new URL(import.meta.env.VITE_DUKA_API ?? '/api/v1', location.origin).href.replace(/\/$/, '');

/** How the till is named on the server: kept per browser, so the owner can tell the counters apart. */
function deviceName(): string {
  const kept = localStorage.getItem(DEVICE_NAME_KEY);
  if (kept) return kept;
  const name = `Browser till ${Math.random().toString(36).slice(2, 6).toUpperCase()}`;
  localStorage.setItem(DEVICE_NAME_KEY, name);
  return name;
}

export async function openTill(): Promise<void> {
  host.set({ kind: 'opening' });
  try {
    const till = await openBrowserTill({ baseUrl: apiBase(), deviceName: deviceName(), worker: () => new SqliteWorker() });
    host.set({ kind: 'open', till });
  } catch (e) {
    host.set(refusal(e));
  }
}

function refusal(e: unknown): HostState {
  const message = e instanceof Error ? e.message : String(e);
  if (e instanceof TillError && e.code === 'OPEN_ELSEWHERE') return { kind: 'elsewhere' };
  if (e instanceof TillError && e.code === 'STORAGE_UNAVAILABLE') return { kind: 'no-storage', message };
  return { kind: 'failed', message };
}
