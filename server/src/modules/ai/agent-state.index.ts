import { createRouter, type Router } from '../../lib/create-router.js';
import { authedCtx, ok } from '../../lib/route.js';
import * as routes from './agent-state.routes.js';
import { claimAgentAction, proposeAgentAction, recordAgentActionOutcome } from './services/agent-actions.js';
import { addAgentTurn, getAgentConversation, startAgentConversation } from './services/agent-conversations.js';

export const agentStateRouter: Router = createRouter()
  .openapi(routes.startConversation, async (c) => ok(c, await startAgentConversation(authedCtx(c)), { message: 'conversation started' }))
  .openapi(routes.getConversation, async (c) => ok(c, await getAgentConversation(authedCtx(c), c.req.valid('param').id)))
  .openapi(routes.addTurn, async (c) =>
    ok(c, await addAgentTurn(authedCtx(c), c.req.valid('param').id, c.req.valid('json')), { message: 'turn added' }),
  )
  .openapi(routes.proposeAction, async (c) =>
    ok(c, await proposeAgentAction(authedCtx(c), c.req.valid('json')), { message: 'waiting for confirmation' }),
  )
  .openapi(routes.claimAction, async (c) => ok(c, await claimAgentAction(authedCtx(c), c.req.valid('param').id)))
  .openapi(routes.recordOutcome, async (c) =>
    ok(c, await recordAgentActionOutcome(authedCtx(c), c.req.valid('param').id, c.req.valid('json')), { message: 'outcome recorded' }),
  );
