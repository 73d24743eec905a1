/**
 * A seeded fuzz run against an in-process app: reads the live OpenAPI document, builds a world
 * (world.ts) and sends `requests` requests, every operation in turn (in a seeded order, each cycle
 * anew) with a push batch every few requests, through test-app's `request`. Every answer is
 * checked (check.ts); a failure keeps the seed, the request and the answer so it can be replayed.
 */
import { Rng } from '../chaos/rng.js';
import type { ApiResponse, TestApp } from '../setup/test-app.js';
import { problemsWith } from './check.js';
import { type FuzzRequest, type Operation, operationsOf, pushFor, requestFor } from './requests.js';
import type { Schema } from './sample.js';
import { buildWorld, type World } from './world.js';

export interface FuzzFailure {
  seed: number;
  index: number;
  request: FuzzRequest;
  status: number;
  response: string;
  problems: string[];
}

export interface FuzzResult {
  sent: number;
  operations: number;
  /** Operations that answered at least once below 400: the fuzz got past validation there. */
  reachedOperations: number;
  byStatus: Record<number, number>;
  failures: FuzzFailure[];
}

/** A world lasts this many requests: fuzzing deletes, deactivates and signs out what it aims at. */
const WORLD_REQUESTS = 400;
/** One request in this many is a push batch. */
const PUSH_EVERY = 6;

function shuffled<T>(rng: Rng, items: T[]): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = rng.int(0, i);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

export async function runFuzz(t: TestApp, opts: { seed: number; requests: number; log?: (line: string) => void }): Promise<FuzzResult> {
  const rng = new Rng(opts.seed);
  const doc = (await t.request('GET', '/openapi.json')).body as Schema;
  const resolve = (ref: string) =>
    ref
      .replace(/^#\//, '')
      .split('/')
      .reduce<any>((node, key) => node?.[key], doc) ?? {};
  const operations = operationsOf(doc);
  const pushOp = operations.find((o) => o.method === 'POST' && o.path === '/sync/push');
  const result: FuzzResult = { sent: 0, operations: operations.length, reachedOperations: 0, byStatus: {}, failures: [] };
  const reached = new Set<string>();
  let order: Operation[] = [];
  let world: World | undefined;
  for (let i = 0; i < opts.requests; i++) {
    if (i % WORLD_REQUESTS === 0) {
      // Per-minute limits and sign-in delays of the last world's requests are over.
      t.clock.advance(16 * 60_000);
      world = await buildWorld(t);
    }
    if (!order.length) order = shuffled(rng, operations);
    const push = i % PUSH_EVERY === PUSH_EVERY - 1;
    const op = push ? pushOp : order.pop()!;
    const req = push ? pushFor(rng, world!, resolve) : requestFor(rng, world!, op!, resolve);
    const res = await send(t, req);
    result.sent++;
    result.byStatus[res.status] = (result.byStatus[res.status] ?? 0) + 1;
    if (res.status < 400) reached.add(`${op!.method} ${op!.path}`);
    if (push) followDevice(world!, res);
    // A verb swapped for another (to draw a 405) may be one the path takes too: judge the answer by that operation.
    const answered = operations.find((o) => o.method === req.method && o.path === op!.path) ?? op;
    const problems = problemsWith(answered, res);
    if (problems.length) {
      const failure = { seed: opts.seed, index: i, request: req, status: res.status, response: res.text, problems };
      result.failures.push(failure);
      opts.log?.(describeFailure(failure));
    }
    if (opts.log && (i + 1) % 1000 === 0) opts.log(`seed ${opts.seed}: ${i + 1} requests, ${result.failures.length} failures`);
  }
  result.reachedOperations = reached.size;
  return result;
}

async function send(t: TestApp, req: FuzzRequest): Promise<ApiResponse> {
  try {
    return await t.request(req.method, req.path, { token: req.token, headers: req.headers, body: req.body, raw: req.raw, form: req.form });
  } catch (err) {
    // The app itself threw instead of answering: as bad as a 5xx.
    return { status: 599, headers: new Headers(), body: null, text: `the request threw: ${(err as Error)?.stack ?? String(err)}` };
  }
}

/** Keep the fuzzer's idea of the till's next seq in step with the server's. */
function followDevice(world: World, res: ApiResponse) {
  const last = res.body?.data?.last_applied_seq;
  if (res.status === 200 && typeof last === 'number') world.device.nextSeq = last + 1;
  const expected = res.body?.meta?.expected_seq;
  if (res.status === 409 && typeof expected === 'number') world.device.nextSeq = expected;
}

const clip = (text: string, max = 1500) => (text.length > max ? `${text.slice(0, max)}… (${text.length} characters)` : text);

export function describeFailure(f: FuzzFailure): string {
  const r = f.request;
  const body =
    r.raw !== undefined
      ? `raw ${JSON.stringify(r.raw)}`
      : r.form
        ? 'multipart form'
        : r.body === undefined
          ? 'no body'
          : clip(JSON.stringify(r.body));
  return [
    `FUZZ FAILURE seed ${f.seed} request #${f.index} (${r.op}, token: ${r.tokenKind}): ${f.problems.join('; ')}`,
    `  replay: npm run fuzz -- --seed ${f.seed} --requests ${f.index + 1}`,
    `  request: ${r.method} ${clip(r.path, 400)} headers ${JSON.stringify(r.headers)}`,
    `  body: ${body}`,
    `  answer: ${f.status} ${clip(f.response)}`,
  ].join('\n');
}
