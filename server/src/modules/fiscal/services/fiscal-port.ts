/**
 * Where services find the fiscal queue: a dependency app.ts builds (AppDeps.fiscal) and every
 * request and job context carries, like billing's payment provider (lib/ may not import modules/).
 */
import type { ServiceContext } from '../../../lib/context.js';
import type { TraGateway } from '../tra/tra-gateway.js';

export interface FiscalQueuePort {
  /** Send what the store's device has waiting, soon; returns at once. */
  kick(storeId: string): Promise<void>;
}

export interface FiscalDeps {
  fiscal: FiscalQueuePort;
  tra: TraGateway;
}

export function fiscalOf(ctx: ServiceContext): FiscalQueuePort {
  const queue = (ctx as ServiceContext & Partial<FiscalDeps>).fiscal;
  if (!queue) throw new Error('no fiscal queue in the context: createDeps (app.ts) sets deps.fiscal');
  return queue;
}

export function traGatewayOf(ctx: ServiceContext): TraGateway {
  const gateway = (ctx as ServiceContext & Partial<FiscalDeps>).tra;
  if (!gateway) throw new Error('no TRA gateway in the context: createDeps (app.ts) sets deps.tra');
  return gateway;
}
