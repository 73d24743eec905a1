/**
 * The store's realtime channel (`/sync/ws`, the same the tills hear): any poke, stock change or
 * notification means the figures moved, so Today reads them again, at most twice a second. The
 * socket redials with backoff; a token that expired meanwhile is refreshed by the next API call.
 */
import { signal } from '@preact/signals';
import { API, session } from '../../api.js';

export const connected = signal(false);

export function listen(onChange: () => void): () => void {
  let socket: WebSocket | null = null;
  let stopped = false;
  let attempt = 0;
  let redial: ReturnType<typeof setTimeout> | undefined;
  let pending: ReturnType<typeof setTimeout> | undefined;

  const changed = () => {
    pending ??= setTimeout(() => {
      pending = undefined;
      onChange();
    }, 500);
  };

  const dial = () => {
    const token = session.value?.access_token;
    if (stopped || !token) return;
    const origin = location.origin.replace(/^http/, 'ws');
    socket = new WebSocket(`${origin}${API}/sync/ws?access_token=${encodeURIComponent(token)}`);
    socket.onopen = () => {
      attempt = 0;
      connected.value = true;
    };
    socket.onmessage = (e) => {
      const type = (() => {
        try {
          return (JSON.parse(String(e.data)) as { type?: string }).type;
        } catch {
          return undefined;
        }
      })();
      if (type !== 'hello') changed();
    };
    socket.onclose = () => {
      connected.value = false;
      if (stopped) return;
      // The access token may have expired: reading the figures refreshes it before the redial.
      changed();
      redial = setTimeout(dial, Math.min(30_000, 1000 * 2 ** attempt++));
    };
  };
  dial();
  return () => {
    stopped = true;
    clearTimeout(redial);
    clearTimeout(pending);
    socket?.close();
    connected.value = false;
  };
}
