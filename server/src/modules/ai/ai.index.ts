import { createRouter, type Router } from '../../lib/create-router.js';
import { authedCtx, ok } from '../../lib/route.js';
import { agentStateRouter } from './agent-state.index.js';
import * as routes from './ai.routes.js';
import { continueChat, startChat } from './services/chat.js';
import { getConversation, listConversations, updateConversation } from './services/conversations.js';
import { getSuggestions, getUsage, recordAgentUsage } from './services/usage.js';

export const aiRouter: Router = createRouter()
  .openapi(routes.startChat, async (c) => ok(c, await startChat(authedCtx(c), c.req.valid('json')), { message: 'answered' }))
  .openapi(routes.continueChat, async (c) =>
    ok(c, await continueChat(authedCtx(c), c.req.valid('param').id, c.req.valid('json')), { message: 'answered' }),
  )
  .openapi(routes.list, async (c) => {
    const { data, meta } = await listConversations(authedCtx(c), c.req.valid('query'));
    return ok(c, data, { meta });
  })
  .openapi(routes.getOne, async (c) => ok(c, await getConversation(authedCtx(c), c.req.valid('param').id)))
  .openapi(routes.patch, async (c) =>
    ok(c, await updateConversation(authedCtx(c), c.req.valid('param').id, c.req.valid('json')), { message: 'conversation updated' }),
  )
  .openapi(routes.suggestions, async (c) => ok(c, await getSuggestions(authedCtx(c))))
  .openapi(routes.usage, async (c) => ok(c, await getUsage(authedCtx(c))))
  .openapi(routes.agentUsage, async (c) => ok(c, await recordAgentUsage(authedCtx(c), c.req.valid('json')), { message: 'usage recorded' }))
  .route('/', agentStateRouter);
