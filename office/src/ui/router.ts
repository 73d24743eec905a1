/**
 * The screen shown is the URL's path under /office/ (the server answers index.html for every
 * path without a file extension), so a screen can be bookmarked, reloaded and shared.
 */
import { signal } from '@preact/signals';

const BASE = import.meta.env.BASE_URL.replace(/\/$/, '');

const current = () => location.pathname.slice(BASE.length).replace(/^\/+|\/+$/g, '');

/** The path below /office/, without slashes at either end: '' for Today, 'products', 'products/new'. */
export const path = signal(current());

addEventListener('popstate', () => {
  path.value = current();
});

export const href = (to: string) => `${BASE}/${to}`;

export function navigate(to: string): void {
  if (to === path.value) return;
  history.pushState(null, '', href(to));
  path.value = to;
  scrollTo(0, 0);
}

/** A click on an in-app link moves without a page load; a modified click opens a tab as usual. */
export function follow(e: MouseEvent, to: string): void {
  if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
  e.preventDefault();
  navigate(to);
}
