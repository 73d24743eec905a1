/** The hourly prune of the companion agent's expired conversations and actions (reads already ignore them). */
import type { ServiceContext } from '../../../lib/context.js';
import { deleteExpiredAgentState } from '../agent-state.queries.js';

export async function pruneAgentState(ctx: Pick<ServiceContext, 'db' | 'clock'>): Promise<number> {
  return deleteExpiredAgentState(ctx.db, ctx.clock.now());
}
