/**
 * The fiscal queue and TRA's gateway as typed members of every service context: app.ts builds
 * them (AppDeps) and the declaration below adds them to lib/context.ts's Providers, since lib/ may
 * not import modules/.
 */
import type { TraGateway } from '../tra/tra-gateway.js';

export interface FiscalQueuePort {
  /** Send what the store's device has waiting, soon; returns at once. */
  kick(orgId: string, storeId: string): Promise<void>;
}

declare module '../../../lib/context.js' {
  interface Providers {
    /** Fiscal receipts waiting for TRA, sent by the queue after the sale's commit. */
    fiscal: FiscalQueuePort;
    /** TRA's VFD endpoints (registration, token, receipts). */
    tra: TraGateway;
  }
}
