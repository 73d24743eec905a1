/**
 * A bare `ws` server: the ceiling Duka's poke fan-out is compared with. No database, no auth:
 * `POST /api/v1/pos/sale` answers 201 at once and then sends every socket a poke (and, a moment
 * later, three `stock` messages, as a 3-line sale does in Duka).
 */
import { createServer } from 'node:http';
import { type WebSocket, WebSocketServer } from 'ws';

const sockets = new Set<WebSocket>();
let version = 1;
const server = createServer((req, res) => {
  if (req.method !== 'POST') return void res.end('ok');
  const v = ++version;
  res.writeHead(201, { 'content-type': 'application/json' }).end('{}');
  setImmediate(() => {
    for (const ws of sockets) ws.send(JSON.stringify({ type: 'poke', version: v }));
    setTimeout(() => {
      for (let k = 0; k < 3; k++)
        for (const ws of sockets) ws.send(JSON.stringify({ type: 'stock', product_id: `product-${k}`, stock: 1_000_000_000 - v }));
    }, 1);
  });
});
const wss = new WebSocketServer({ noServer: true, perMessageDeflate: false, clientTracking: false });
server.on('upgrade', (req, socket, head) =>
  wss.handleUpgrade(req, socket, head, (ws) => {
    sockets.add(ws);
    ws.on('close', () => sockets.delete(ws));
    ws.send(JSON.stringify({ type: 'hello', version, protocol: 1 }));
  }),
);
server.listen(Number(process.env.PORT), '127.0.0.1');
process.on('SIGTERM', () => process.exit(0));
