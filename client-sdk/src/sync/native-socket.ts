/**
 * The till's websocket over the standard `WebSocket` (a browser's, or any runtime's global). It
 * answers the server's pings unseen and reports a refused upgrade as a bare close 1006, so it
 * claims to see neither, and the realtime link adapts.
 */
import type { DialSocket } from '../platform.js';

/** The part of the standard WebSocket used here (typed locally: the core compiles without the DOM library). */
interface StandardSocket {
  onopen: (() => void) | null;
  onmessage: ((e: { data: unknown }) => void) | null;
  onclose: ((e: { code: number }) => void) | null;
  onerror: (() => void) | null;
  close(): void;
}
type SocketConstructor = new (url: string) => StandardSocket;

export const nativeSocket: DialSocket = (url, on) => {
  const Native = (globalThis as { WebSocket?: SocketConstructor }).WebSocket;
  if (!Native) throw new Error('this runtime has no WebSocket');
  const ws = new Native(url);
  ws.onopen = () => on.open();
  // The server sends JSON text; a binary frame is not one of its messages.
  ws.onmessage = (e) => {
    if (typeof e.data === 'string') on.message(e.data);
  };
  ws.onerror = () => undefined;
  ws.onclose = (e) => on.close(e.code);
  return { seesPings: false, seesRefusals: false, close: () => ws.close() };
};
