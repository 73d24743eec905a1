/**
 * Runs tools for a caller, whoever asks (the model loop, the planner, MCP): read tools call the API
 * with the caller's token; write tools become pending actions, carried out only by `execute` after
 * the user's confirmation. Every call is logged with user, organisation, tool, status and duration,
 * never the token or the data.
 */
import type { Logger } from 'pino';
import type { DukaApi } from '../api-client.js';
import { type Caller, IdentityError } from '../identity.js';
import type { Language, ToolCallRecord, ToolCallStatus } from '../schemas.js';
import type { ActionOutcome, PendingAction, PendingActions } from './actions.js';
import { buildCatalog, type Catalog, checkArgs, split, type Tool } from './catalog.js';

export interface ToolOutcome {
  record: ToolCallRecord;
  /** What the model sees: data, never instructions (it goes into a JSON tool message). */
  forModel: Record<string, unknown>;
  /** The API's `data` on success (the planner renders it). */
  data?: unknown;
  pending?: PendingAction;
}

/** The most of one tool result a model is given (characters of JSON). */
const MAX_RESULT_CHARS = 12_000;

function fitForModel(data: unknown): unknown {
  if (JSON.stringify(data ?? null).length <= MAX_RESULT_CHARS) return data;
  if (Array.isArray(data)) {
    let n = data.length;
    while (n > 1 && JSON.stringify(data.slice(0, n)).length > MAX_RESULT_CHARS) n = Math.ceil(n / 2);
    return { items: data.slice(0, n), truncated: true, total_items: data.length };
  }
  return { truncated: true, json_prefix: JSON.stringify(data).slice(0, MAX_RESULT_CHARS) };
}

const statusOf = (http: number): ToolCallStatus =>
  http >= 200 && http < 300 ? 'ok' : http === 401 || http === 403 ? 'forbidden' : 'failed';

export class ToolRunner {
  private catalogLoad: Promise<Catalog> | null = null;

  constructor(
    private readonly api: DukaApi,
    readonly actions: PendingActions,
    private readonly log: Logger,
  ) {}

  /** The catalogue, built from the API's OpenAPI document on first use. */
  catalog(): Promise<Catalog> {
    this.catalogLoad ??= this.api.openapi().then((doc) => {
      const catalog = buildCatalog(doc);
      if (catalog.missing.length) this.log.warn({ missing: catalog.missing }, 'allowlisted operations the API does not have');
      return catalog;
    });
    this.catalogLoad.catch(() => (this.catalogLoad = null));
    return this.catalogLoad;
  }

  private logCall(caller: Caller, tool: string, status: ToolCallStatus, ms: number, http?: number) {
    this.log.info({ user: caller.userId, org: caller.orgId, tool, status, ms, http_status: http }, 'tool call');
  }

  /** The token expired mid-question: the whole question is the API's 401, so the client signs in again. */
  private refuseExpired(caller: Caller, tool: string, http: number, started: number) {
    if (http !== 401) return;
    this.logCall(caller, tool, 'forbidden', Math.round(performance.now() - started), http);
    throw new IdentityError(401, 'the access token is invalid or expired; sign in again');
  }

  private record(
    caller: Caller,
    name: string,
    args: Record<string, unknown>,
    status: ToolCallStatus,
    started: number,
    http?: number,
  ): ToolCallRecord {
    const ms = Math.round(performance.now() - started);
    this.logCall(caller, name, status, ms, http);
    return { name, arguments: args, status, ms };
  }

  /** `conversationId`: the conversation a proposed write belongs to (its confirmation continues it). */
  async call(caller: Caller, name: string, rawArgs: unknown, lang: Language, conversationId?: string): Promise<ToolOutcome> {
    const started = performance.now();
    const argsView = rawArgs && typeof rawArgs === 'object' && !Array.isArray(rawArgs) ? (rawArgs as Record<string, unknown>) : {};
    const tool = (await this.catalog()).tools.get(name);
    if (!tool) {
      return {
        record: this.record(caller, name, argsView, 'rejected', started),
        forModel: { status: 'rejected', error: `there is no tool named ${name}` },
      };
    }
    const checked = checkArgs(tool, rawArgs);
    if (!checked.ok) {
      return { record: this.record(caller, name, argsView, 'rejected', started), forModel: { status: 'rejected', error: checked.problem } };
    }
    if (tool.kind === 'write') return this.propose(caller, tool, checked.args, lang, started, conversationId);

    const { path, query, body } = split(tool, checked.args);
    const res = await this.api.request(caller.token, tool.method, path, { query, body });
    this.refuseExpired(caller, name, res.status, started);
    const status = statusOf(res.status);
    const record = this.record(caller, name, checked.args, status, started, res.status);
    if (status !== 'ok')
      return { record, forModel: { status, http_status: res.status, error: String(res.body?.message ?? 'the API refused') } };
    const data = res.body?.data;
    const meta = res.body?.meta;
    return { record, data, forModel: { status: 'ok', data: fitForModel(data), ...(meta ? { meta } : {}) } };
  }

  /** A write: name its target through the API (so the user reads a name, not an id) and wait for confirmation. */
  private async propose(
    caller: Caller,
    tool: Tool,
    args: Record<string, unknown>,
    lang: Language,
    started: number,
    conversationId?: string,
  ): Promise<ToolOutcome> {
    let target = '';
    const about = tool.line.about;
    if (about) {
      const path = about.path.replace(/\{(\w+)\}/g, (_, p: string) => encodeURIComponent(String(args[p] ?? args.id ?? '')));
      const res = await this.api.request(caller.token, 'get', path);
      this.refuseExpired(caller, tool.name, res.status, started);
      if (res.status !== 200) {
        const status = statusOf(res.status);
        return {
          record: this.record(caller, tool.name, args, status, started, res.status),
          forModel: { status, http_status: res.status, error: String(res.body?.message ?? 'not found') },
        };
      }
      target = about.name(res.body.data);
    }
    const summary = tool.line.summary ? tool.line.summary({ args, target }, lang) : `${tool.name} ${JSON.stringify(args)}`;
    const pending = await this.actions.create(caller, {
      tool: tool.name,
      args,
      summary,
      language: lang,
      ...(conversationId ? { conversationId } : {}),
    });
    return {
      record: this.record(caller, tool.name, args, 'proposed', started),
      pending,
      forModel: {
        status: 'awaiting_user_confirmation',
        summary,
        note: 'Nothing was changed. The user must confirm this change themselves; tell them what it will do.',
      },
    };
  }

  /** Carry out a confirmed action, once; an Idempotency-Key from its id also makes the API replay rather than repeat it. */
  async execute(caller: Caller, action: PendingAction): Promise<ActionOutcome> {
    const started = performance.now();
    const tool = (await this.catalog()).tools.get(action.tool);
    if (!tool) return { status: 404, ok: false, message: `the tool ${action.tool} is no longer offered`, ms: 0 };
    const { path, query, body } = split(tool, action.args);
    const res = await this.api.request(caller.token, tool.method, path, {
      query,
      body,
      headers: { 'idempotency-key': `agent-${action.id}` },
    });
    this.refuseExpired(caller, tool.name, res.status, started);
    const status = statusOf(res.status);
    const record = this.record(caller, tool.name, action.args, status, started, res.status);
    return { status: res.status, ok: status === 'ok', message: String(res.body?.message ?? ''), ms: record.ms };
  }
}
