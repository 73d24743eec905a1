/// <reference lib="webworker" />
/**
 * The till's service worker: it keeps the app shell (the page, its scripts and styles, SQLite's
 * WebAssembly and worker, the icons and manifest) in a cache named by the build, so the till opens
 * and sells with no network after its first visit. The file list is written in at build time
 * (`build/service-worker.ts`). It answers only for files under its scope: the API (/api/v1) is
 * never cached, since sales must reach the server or fail honestly into the till's queue.
 */
// A module, so that `self` can be declared with the service worker's type.
export {};
declare const self: ServiceWorkerGlobalScope;

interface Precache {
  version: string;
  /** Paths relative to the scope, e.g. `assets/index-3f2a.js`. */
  files: string[];
}

const PRECACHE: Precache = JSON.parse('__DUKA_PRECACHE__');
const PREFIX = 'duka-till-';
const CACHE = `${PREFIX}${PRECACHE.version}`;
const scope = new URL(self.registration.scope);
const INDEX = new URL('index.html', scope).href;

self.addEventListener('install', (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(CACHE);
      // `reload`: fetched from the server, never from an HTTP cache that may hold an older page.
      await cache.addAll(PRECACHE.files.map((f) => new Request(new URL(f, scope).href, { cache: 'reload' })));
      await self.skipWaiting();
    })(),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) if (name.startsWith(PREFIX) && name !== CACHE) await caches.delete(name);
      await self.clients.claim();
    })(),
  );
});

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== scope.origin || !url.pathname.startsWith(scope.pathname)) return;
  event.respondWith(
    (async () => {
      const cache = await caches.open(CACHE);
      // Every screen of the app is index.html (the server answers it for paths without an extension too).
      const hit = request.mode === 'navigate' ? await cache.match(INDEX) : await cache.match(request, { ignoreSearch: true });
      return hit ?? fetch(request);
    })(),
  );
});
