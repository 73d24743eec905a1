/** The till's websocket in Node: `ws`, which shows the server's pings and the status of a refused upgrade. */
import WebSocket from 'ws';
import type { DialSocket } from '../platform.js';

export const wsSocket: DialSocket = (url, on) => {
  const ws = new WebSocket(url);
  let refused = false;
  ws.on('open', () => on.open());
  ws.on('ping', () => on.ping());
  ws.on('message', (raw) => on.message(String(raw)));
  ws.on('unexpected-response', (_req, res) => {
    refused = true;
    on.refused(res.statusCode ?? 0);
    ws.terminate();
  });
  // Every error is followed by `close`, which is what the link acts on.
  ws.on('error', () => undefined);
  ws.on('close', (code) => {
    if (!refused) on.close(code);
  });
  return { seesPings: true, seesRefusals: true, close: () => ws.terminate() };
};
