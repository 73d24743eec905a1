/**
 * The fiscal queue as a typed member of every service context (`ctx.fiscal`, with TRA's gateway as
 * `ctx.tra`): app.ts builds them (AppDeps) and server/src/providers.ts lists them in
 * lib/context.ts's Providers, since lib/ may not import modules/.
 */
export interface FiscalQueuePort {
  /** Send what the store's device has waiting, soon; returns at once. */
  kick(orgId: string, storeId: string): Promise<void>;
}
