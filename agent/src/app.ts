/**
 * createAgent(config): the agent's HTTP surface on its own port: POST /ask (JSON, or server-sent
 * events with `Accept: text/event-stream`), the same tools over MCP at /mcp, and GET /health.
 * Tests build it in process; index.ts serves it.
 */
import { Hono, type Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { streamSSE } from 'hono/streaming';
import pino, { type Logger } from 'pino';
import { ApiUnavailableError, httpApi, type DukaApi } from './api-client.js';
import { answer, type AskDeps, AskError, claimAction, confirmAction, prepare } from './ask/ask-service.js';
import { Conversations } from './ask/conversations.js';
import type { Emit } from './ask/types.js';
import type { AgentConfig } from './config.js';
import { IdentityError, Identities, type Caller } from './identity.js';
import { handleMcp } from './mcp.js';
import { MemoryUnavailableError } from './memory-api.js';
import { type ChatModel, ModelError, openAiModel } from './model.js';
import { type AskAnswer, AskInput, type AskEvent, errorBody } from './schemas.js';
import { PendingActions } from './tools/actions.js';
import { ToolRunner } from './tools/runner.js';

export interface AgentDeps {
  config: AgentConfig;
  log?: Logger;
  /** The API client; default: HTTP to API_URL. */
  api?: DukaApi;
  /** The model; default: AGENT_LLM_URL's, or none (the planner). */
  model?: ChatModel | null;
}

const fail = (c: Context, status: number, message: string, errors: Array<{ field: string; message: string }> = []) =>
  c.json(errorBody(message, errors), status as never, status === 401 ? { 'www-authenticate': 'Bearer' } : {});

function bearer(c: Context): string | null {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(c.req.header('authorization') ?? '');
  return m ? m[1]! : null;
}

export function createAgent(opts: AgentDeps) {
  const { config } = opts;
  const log = opts.log ?? pino({ level: config.LOG_LEVEL });
  const api = opts.api ?? httpApi(config.API_URL);
  const runner = new ToolRunner(api, new PendingActions(api, config.AGENT_CONFIRM_TTL_SECONDS, log), log);
  const deps: AskDeps = {
    api,
    runner,
    model: opts.model === undefined ? openAiModel(config) : opts.model,
    conversations: new Conversations(api),
    log,
  };
  const identities = new Identities(api);

  /** The caller behind the bearer token, as the API knows them; a Response when there is none. */
  async function callerOf(c: Context): Promise<Caller | Response> {
    const token = bearer(c);
    if (!token) return fail(c, 401, 'send your Duka access token as Authorization: Bearer <token>');
    try {
      return await identities.resolve(token);
    } catch (err) {
      if (err instanceof IdentityError) return fail(c, err.status, err.message);
      log.warn({ err: String(err) }, 'the API could not be reached');
      return fail(c, 502, 'the Duka API could not be reached');
    }
  }

  const app = new Hono();
  app.use('*', bodyLimit({ maxSize: 64 * 1024, onError: (c) => fail(c, 413, 'the request body is larger than 64 KB') }));
  app.get('/health', (c) => c.json({ status: 'ok', mode: deps.model ? 'model' : 'planner' }));

  app.post('/ask', async (c) => {
    const caller = await callerOf(c);
    if (caller instanceof Response) return caller;
    const raw = await c.req.json().catch(() => undefined);
    const parsed = AskInput.safeParse(raw);
    if (!parsed.success) {
      return fail(
        c,
        400,
        'invalid request',
        parsed.error.issues.map((i) => ({ field: i.path.join('.') || 'body', message: i.message })),
      );
    }
    const input = parsed.data;
    const wantsStream = (c.req.header('accept') ?? '').includes('text/event-stream');
    const started = performance.now();
    const done = (what: string) =>
      log.info({ user: caller.userId, org: caller.orgId, what, ms: Math.round(performance.now() - started) }, 'ask');

    try {
      let run: (emit: Emit) => Promise<AskAnswer>;
      if (input.confirm !== undefined) {
        const id = input.confirm;
        const claim = await claimAction(deps, caller, id); // unknown, someone else's or expired: refused before any stream starts
        run = (emit) => confirmAction(deps, caller, input, claim, emit);
      } else {
        const prepared = await prepare(deps, caller, { ...input, question: input.question! });
        run = (emit) => answer(deps, prepared, emit);
      }
      if (!wantsStream) {
        const body = await run(() => {});
        done(input.confirm ? 'confirm' : 'question');
        return c.json(body);
      }
      return streamSSE(c, async (stream) => {
        let chain = Promise.resolve();
        const emit = (e: AskEvent) => void (chain = chain.then(() => stream.writeSSE({ event: e.event, data: JSON.stringify(e.data) })));
        try {
          const body = await run(emit);
          emit({ event: 'done', data: body });
        } catch (err) {
          const { status, message } = toFailure(err);
          emit({ event: 'error', data: { status, message } });
        }
        await chain;
        done(input.confirm ? 'confirm (stream)' : 'question (stream)');
      });
    } catch (err) {
      const { status, message } = toFailure(err);
      return fail(c, status, message);
    }
  });

  app.all('/mcp', async (c) => {
    const caller = await callerOf(c);
    if (caller instanceof Response) return caller;
    return handleMcp(deps, caller, c.req.raw);
  });

  function toFailure(err: unknown): { status: number; message: string } {
    if (err instanceof AskError || err instanceof IdentityError) return { status: err.status, message: err.message };
    if (err instanceof ApiUnavailableError) return { status: 502, message: `${err.message}; nothing was changed, ask again` };
    if (err instanceof MemoryUnavailableError) {
      log.warn({ api_status: err.status }, 'memory call failed');
      return { status: 502, message: err.message };
    }
    if (err instanceof ModelError)
      return { status: 503, message: `the model could not answer: ${err.message}; nothing was changed, ask again` };
    log.error({ err }, 'ask failed');
    return { status: 500, message: 'the agent failed to answer; nothing was changed' };
  }

  app.notFound((c) => fail(c, 404, `no route for ${c.req.method} ${c.req.path}`));
  app.onError((err, c) => {
    log.error({ err }, 'unhandled');
    return fail(c, 500, 'internal error');
  });
  return { app, deps };
}
