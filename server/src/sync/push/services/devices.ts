/** Tills: registered once per device id, numbered T1, T2… within their store for offline receipt numbers. */
import type { AuthedContext } from '../../../lib/context.js';
import type { TillDevice } from '@duka/shared';
import { recordAudit } from '../../../lib/audit.js';
import { iso, isoOrNull } from '../../../lib/clock.js';
import { NotFoundError, ServiceError } from '../../../lib/errors.js';
import { forUpdate, uniqueViolationField } from '../../../db/dialect.js';
import { withTransaction } from '../../../db/transaction.js';
import type { DeviceRow } from '../../../db/tables/sync.table.js';
import { requireOrg, requireStore } from '../../../lib/auth/authorize.js';
import { insertDevice } from '../push.queries.js';

export const toDevice = (d: DeviceRow) => ({
  device_id: d.id,
  name: d.name,
  till_code: d.till_code,
  store_id: d.store_id,
  last_applied_seq: d.last_seq,
});

export const toTillDevice = (d: DeviceRow): TillDevice => ({
  id: d.id,
  name: d.name,
  till_code: d.till_code,
  store_id: d.store_id,
  last_seen_at: isoOrNull(d.last_seen_at),
  created_at: iso(d.created_at),
  retired_at: isoOrNull(d.retired_at),
});

/** A retired till is told so, by a code it can show (issue 54): it may not push, pull or register again. */
export function refuseRetired(device: { retired_at: number | null }): void {
  if (device.retired_at != null)
    throw new ServiceError(
      'DEVICE_RETIRED',
      'this till was retired by the owner; it can no longer sync. Ask the owner to set up a new till',
    );
}

/** Re-registering the same device answers the same till code; a retired one is refused. */
export async function registerDevice(ctx: AuthedContext, deviceId: string, name: string): Promise<DeviceRow> {
  const { orgId, storeId } = requireStore(ctx);
  for (let attempt = 0; ; attempt++) {
    // A device id is the organisation's (issue 36): another organisation's device of that id is not looked for.
    const existing = await ctx.db
      .selectFrom('devices')
      .selectAll()
      .where('org_id', '=', orgId)
      .where('id', '=', deviceId)
      .executeTakeFirst();
    if (existing) {
      refuseRetired(existing);
      return existing;
    }
    try {
      return await withTransaction(ctx, async (tx) => {
        // The store row serialises registrations in one store, so two tills never pick one code.
        await forUpdate(
          tx.dialect,
          tx.db.selectFrom('stores').select('id').where('id', '=', storeId).where('org_id', '=', orgId),
        ).execute();
        const taken = await tx.db
          .selectFrom('devices')
          .select('till_code')
          .where('org_id', '=', orgId)
          .where('store_id', '=', storeId)
          .execute();
        const used = new Set(taken.map((d) => d.till_code));
        let n = taken.length + 1;
        while (used.has(`T${n}`)) n++;
        return insertDevice(tx.db, {
          id: deviceId,
          org_id: orgId,
          store_id: storeId,
          registered_by: ctx.actor.userId,
          name,
          till_code: `T${n}`,
          last_seen_at: tx.clock.now(),
          created_at: tx.clock.now(),
        });
      });
    } catch (err) {
      // Two registrations at once: a till code or the device id was taken meanwhile; look again.
      if (!uniqueViolationField(err) || attempt >= 5) throw err;
    }
  }
}

/** The organisation's device, or 404 (another organisation's device is not found); 403 DEVICE_RETIRED once retired. */
export async function findDevice(ctx: AuthedContext, deviceId: string): Promise<DeviceRow> {
  const device = await ctx.db
    .selectFrom('devices')
    .selectAll()
    .where('id', '=', deviceId)
    .where('org_id', '=', requireOrg(ctx))
    .executeTakeFirst();
  if (!device) throw new NotFoundError('device; register it with POST /sync/devices');
  refuseRetired(device);
  return device;
}

/** The organisation's tills, every store's, in the order they were registered (the back office's devices). */
export async function listDevices(ctx: AuthedContext): Promise<TillDevice[]> {
  const rows = await ctx.db
    .selectFrom('devices')
    .selectAll()
    .where('org_id', '=', requireOrg(ctx))
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map(toTillDevice);
}

/** Retire a till for good (lost, replaced): its push and pull are refused from now on. Retiring it again changes nothing. */
export async function retireDevice(ctx: AuthedContext, deviceId: string): Promise<TillDevice> {
  const orgId = requireOrg(ctx);
  const device = await ctx.db.selectFrom('devices').selectAll().where('id', '=', deviceId).where('org_id', '=', orgId).executeTakeFirst();
  if (!device) throw new NotFoundError('device');
  if (device.retired_at != null) return toTillDevice(device);
  return withTransaction(ctx, async (tx) => {
    const retired = await tx.db
      .updateTable('devices')
      .set({ retired_at: tx.clock.now() })
      .where('id', '=', deviceId)
      .where('org_id', '=', orgId)
      .returningAll()
      .executeTakeFirstOrThrow();
    await recordAudit(tx, {
      action: 'device.retire',
      description: `Retired till ${device.till_code} (${device.name})`,
      entity: 'device',
      entityId: deviceId,
      orgId,
      storeId: device.store_id,
    });
    return toTillDevice(retired);
  });
}
