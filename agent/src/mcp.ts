/**
 * The same tools over the Model Context Protocol (Streamable HTTP at /mcp), stateless: each request
 * gets its own MCP server bound to the caller whose bearer token came with it, so tools run with
 * that token exactly as /ask runs them. Writes answer a pending action; `confirm_action` carries
 * one out, once, for the user it was offered to (an MCP host asks its user before a tool call that
 * is not read-only, and this one is marked destructive).
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { CallToolRequestSchema, type CallToolResult, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { type AskDeps, AskError, claimAction, confirmAction } from './ask/ask-service.js';
import type { Caller } from './identity.js';
import { viewOf } from './tools/actions.js';

const CONFIRM_TOOL = 'confirm_action';
const text = (value: unknown, isError = false): CallToolResult => ({
  content: [{ type: 'text', text: typeof value === 'string' ? value : JSON.stringify(value) }],
  isError,
});

function mcpServer(deps: AskDeps, caller: Caller): Server {
  const server = new Server({ name: 'duka-agent', version: '0.1.0' }, { capabilities: { tools: {} } });

  server.setRequestHandler(ListToolsRequestSchema, async () => {
    const catalog = await deps.runner.catalog();
    const tools = [...catalog.tools.values()].map((t) => ({
      name: t.name,
      description:
        t.kind === 'write'
          ? `${t.description} Proposes the change only: it returns a pending action for the user to confirm.`
          : t.description,
      inputSchema: t.inputSchema,
      annotations: { readOnlyHint: t.kind === 'read', openWorldHint: false },
    }));
    tools.push({
      name: CONFIRM_TOOL,
      description:
        'Carry out a change the user has explicitly agreed to, by the pending action id a write tool returned. Runs once; a repeated call answers the first result.',
      inputSchema: {
        type: 'object',
        properties: { id: { type: 'string', format: 'uuid' } },
        required: ['id'],
        additionalProperties: false,
      } as never,
      annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: false } as never,
    });
    return { tools };
  });

  server.setRequestHandler(CallToolRequestSchema, async (req): Promise<CallToolResult> => {
    const { name, arguments: args } = req.params;
    if (name === CONFIRM_TOOL) {
      const id = typeof args?.id === 'string' ? args.id : '';
      if (!/^[0-9a-f-]{36}$/i.test(id)) return text('id must be a pending action id (a UUID)', true);
      try {
        const done = await confirmAction(deps, caller, { confirm: id }, await claimAction(deps, caller, id), () => {});
        return text(done.answer, done.tool_calls[0]?.status !== 'ok');
      } catch (err) {
        if (err instanceof AskError) return text(err.message, true);
        throw err;
      }
    }
    const out = await deps.runner.call(caller, name, args ?? {}, 'en');
    if (out.pending) {
      const view = viewOf(out.pending);
      return text({
        status: 'awaiting_user_confirmation',
        summary: view.summary,
        pending_action: view,
        next: `Ask the user; only if they agree, call ${CONFIRM_TOOL} with this id.`,
      });
    }
    return text({ tool: name, ...out.forModel }, out.record.status !== 'ok');
  });
  return server;
}

export async function handleMcp(deps: AskDeps, caller: Caller, request: Request): Promise<Response> {
  const server = mcpServer(deps, caller);
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  await server.connect(transport);
  try {
    return await transport.handleRequest(request);
  } finally {
    // Stateless: the answer is complete (JSON, not a stream), so this request's server can go.
    await transport.close().catch(() => {});
    await server.close().catch(() => {});
  }
}
