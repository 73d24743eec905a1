/**
 * A local HTTP server on 127.0.0.1 (port 0) for provider fakes: it records every request and
 * plays a queue of scripted answers. `fail500`, `hang` (never answers, for timeouts) and `drop`
 * (closes the socket) are the same for every provider; `ok` and `reject` are answered by the
 * provider fake in its own wire format, after it has checked the request. `lose` is processed
 * exactly as `ok` (the provider's state moves on) and then the socket is closed instead of
 * answering: a reply lost on its way back, which only an idempotent resend survives.
 *
 * `down` takes the whole provider away for as long as it is set, before any script is used:
 * `refuse` closes every connection as it opens, `hang` never answers, `fail500` answers 500.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export type Script = 'ok' | 'fail500' | 'hang' | 'drop' | 'lose' | { reject: string };
export type Outage = false | 'refuse' | 'hang' | 'fail500';

export interface RecordedRequest {
  method: string;
  /** Path and query, as sent. */
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

export interface FakeAnswer {
  status: number;
  body: string;
  contentType?: string;
}

export const json = (status: number, body: unknown): FakeAnswer => ({
  status,
  body: JSON.stringify(body),
  contentType: 'application/json',
});

export class HttpFake {
  readonly requests: RecordedRequest[] = [];
  private readonly script: Script[] = [];
  private readonly sockets = new Set<Socket>();
  private server: Server | null = null;
  url = '';
  down: Outage = false;
  /** What `fail500` answers; a fake replaces it with its provider's own error body. */
  protected serverError: FakeAnswer = { status: 500, body: 'Internal Server Error', contentType: 'text/plain' };

  constructor(private readonly answer: (req: RecordedRequest, scripted: 'ok' | { reject: string }) => FakeAnswer) {}

  /** Answers for the next requests, in order; once they run out every request gets `ok`. */
  next(...answers: Script[]): this {
    this.script.push(...answers);
    return this;
  }

  async start(): Promise<string> {
    this.server = createServer((req, res) => void this.handle(req, res));
    this.server.on('connection', (socket) => {
      if (this.down === 'refuse') return void socket.destroy();
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this.url;
  }

  async stop(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    // A kept-alive connection opened before the outage is refused too.
    if (this.down === 'refuse') return void req.socket.destroy();
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const recorded = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
    this.requests.push(recorded);
    // An outage leaves the script for the requests after it.
    const scripted: Script = this.down === 'hang' || this.down === 'fail500' ? this.down : (this.script.shift() ?? 'ok');
    if (scripted === 'hang') return;
    if (scripted === 'drop') {
      req.socket.destroy();
      return;
    }
    const answer = scripted === 'fail500' ? this.serverError : this.answer(recorded, scripted === 'lose' ? 'ok' : scripted);
    if (scripted === 'lose') {
      req.socket.destroy();
      return;
    }
    res.writeHead(answer.status, { 'content-type': answer.contentType ?? 'text/plain; charset=utf-8' });
    res.end(answer.body);
  }
}

/** Decodes `Authorization: Basic …` into its two halves, or null. */
export function basicCredentials(header: string | undefined): [string, string] | null {
  const m = /^Basic ([A-Za-z0-9+/=]+)$/.exec(header ?? '');
  if (!m) return null;
  const decoded = Buffer.from(m[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon < 0 ? null : [decoded.slice(0, colon), decoded.slice(colon + 1)];
}

/** POSTs a delivery report to the callback the test gave, as the provider would. */
export async function postCallback(callbackUrl: string, body: string, contentType: string): Promise<number> {
  const res = await fetch(callbackUrl, { method: 'POST', headers: { 'content-type': contentType }, body });
  await res.arrayBuffer();
  return res.status;
}
