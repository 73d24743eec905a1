/**
 * The agent's test rig: the real API (the whole app, in process, on a loopback port over a fresh
 * database), the agent as its own HTTP server on another port, and a fake OpenAI-compatible model
 * that each test scripts. Nothing here touches the internet.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import pino from 'pino';
import { createAgent } from '../src/app.js';
import { type AgentConfig, agentConfig } from '../src/config.js';
import { registerOwner, createStaff, type Session } from '../../test/setup/factories.js';
import { createTestApp, listen, type Listening, type TestApp } from '../../test/setup/test-app.js';

export { registerOwner, createStaff, type Session };
/** A staff member signed in (what createStaff answers). */
export type Staff = Awaited<ReturnType<typeof createStaff>>;

export interface Api {
  t: TestApp;
  http: Listening;
  url: string;
  close(): Promise<void>;
}

export async function startApi(config: Parameters<typeof createTestApp>[0] = {}): Promise<Api> {
  const t = await createTestApp(config);
  const http = await listen(t);
  return { t, http, url: `${http.origin}/api/v1`, close: async () => (await http.close(), await t.close()) };
}

function serveOn(fetch: (req: Request) => Response | Promise<Response>): Promise<{ server: ServerType; origin: string }> {
  return new Promise((resolve) => {
    const server = serve({ fetch, port: 0, hostname: '127.0.0.1' }, () =>
      resolve({ server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }),
    );
  });
}

export interface Agent {
  origin: string;
  logs: string[];
  ask(token: string | null, body: unknown, headers?: Record<string, string>): Promise<{ status: number; body: any }>;
  close(): Promise<void>;
}

export async function startAgent(
  apiUrl: string,
  opts: { modelUrl?: string; env?: Partial<Record<keyof AgentConfig, string>> } = {},
): Promise<Agent> {
  const logs: string[] = [];
  const log = pino({ level: 'info' }, { write: (line: string) => void logs.push(line) });
  const config = agentConfig({
    API_URL: apiUrl,
    ...opts.env,
    ...(opts.modelUrl ? { AGENT_LLM_URL: opts.modelUrl, AGENT_LLM_KEY: 'sk-test-model-key' } : {}),
  });
  const { app } = createAgent({ config, log });
  const { server, origin } = await serveOn(app.fetch);
  return {
    origin,
    logs,
    async ask(token, body, headers = {}) {
      const res = await fetch(`${origin}/ask`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      });
      const text = await res.text();
      let parsed: any = null;
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = text;
      }
      return { status: res.status, body: parsed };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A reply the fake model gives: words, or tool calls (arguments as an object). */
export type ModelReply = { content: string } | { tools: Array<{ name: string; arguments: Record<string, unknown> }> } | { fail: number };
export type ModelScript = (req: { messages: any[]; tools?: any[]; tool_choice?: string }, round: number) => ModelReply;

export interface FakeModel {
  url: string;
  requests: Array<{ body: any; authorization: string | undefined }>;
  script: ModelScript;
  close(): Promise<void>;
}

/** An OpenAI-compatible `POST /v1/chat/completions` answering from the test's script. */
export async function startFakeModel(): Promise<FakeModel> {
  const fake: FakeModel = { url: '', requests: [], script: () => ({ content: 'no script' }), close: async () => {} };
  let calls = 0;
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (d) => (raw += d));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
        res.writeHead(404).end();
        return;
      }
      const body = JSON.parse(raw);
      fake.requests.push({ body, authorization: req.headers.authorization });
      const reply = fake.script(body, fake.requests.length - 1);
      if ('fail' in reply) {
        res.writeHead(reply.fail, { 'content-type': 'application/json' }).end('{"error":{"message":"overloaded"}}');
        return;
      }
      const message =
        'content' in reply
          ? { role: 'assistant', content: reply.content }
          : {
              role: 'assistant',
              content: null,
              tool_calls: reply.tools.map((t) => ({
                id: `call_${++calls}`,
                type: 'function',
                function: { name: t.name, arguments: JSON.stringify(t.arguments) },
              })),
            };
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          id: 'chatcmpl-test',
          object: 'chat.completion',
          choices: [{ index: 0, message, finish_reason: 'stop' }],
          usage: { prompt_tokens: 90, completion_tokens: 10, total_tokens: 100 },
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  fake.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return fake;
}

/** The last tool message the model was sent, parsed. */
export const lastToolResult = (req: { messages: any[] }) => JSON.parse([...req.messages].reverse().find((m) => m.role === 'tool').content);

// ---- shop data through the API, as the owner would enter it ----

export async function addProduct(
  api: Api,
  s: Session,
  p: { name: string; price: number; stock: number; reorder?: number },
): Promise<string> {
  const res = await api.t.request('POST', '/inventory/products', {
    token: s.token,
    body: { name: p.name, selling_price: p.price, stock: p.stock, reorder_point: p.reorder ?? 5 },
  });
  if (res.status !== 200) throw new Error(res.text);
  return res.body.data.id;
}

export async function sell(
  api: Api,
  s: Session,
  lines: Array<[string, number]>,
  payment_method = 'Cash',
  customer_id?: string,
): Promise<any> {
  const res = await api.t.request('POST', '/pos/sale', {
    token: s.token,
    body: { lines: lines.map(([product_id, qty]) => ({ product_id, qty })), payment_method, ...(customer_id ? { customer_id } : {}) },
  });
  if (res.status !== 201) throw new Error(res.text);
  return res.body.data;
}

export async function addCustomer(api: Api, s: Session, name: string, phone: string): Promise<string> {
  const res = await api.t.request('POST', '/customers', { token: s.token, body: { name, phone } });
  if (res.status !== 200 && res.status !== 201) throw new Error(res.text);
  return res.body.data.id;
}
