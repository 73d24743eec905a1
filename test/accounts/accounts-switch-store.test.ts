import { randomUUID } from 'node:crypto';
import { Envelope, SwitchStoreResult } from '@duka/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addStore, createStaff, registerOwner } from '../setup/factories.js';
import { createTestApp, type TestApp } from '../setup/test-app.js';

describe('POST /accounts/switch-store', () => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp()));
  afterAll(() => t.close());

  const switchTo = (token: string, store_id: unknown) => t.request('POST', '/accounts/switch-store', { token, body: { store_id } });
  const refresh = (refresh_token: string) => t.request('POST', '/auth/refresh', { body: { refresh_token } });
  const activeStore = async (token: string) => {
    const me = await t.request('GET', '/accounts/me', { token });
    expect(me.status, me.text).toBe(200);
    return me.body.data.store?.id as string | undefined;
  };

  it('answers the store and a new token pair; the new pair works in the new store and the old refresh token stops', async () => {
    const owner = await registerOwner(t);
    const branch = await addStore(t, owner.orgId, 'Kariakoo Branch');

    const res = await switchTo(owner.token, branch.id);
    expect(res.status).toBe(200);
    const { data } = Envelope(SwitchStoreResult).parse(res.body);
    expect(data.store).toMatchObject({ id: branch.id, name: 'Kariakoo Branch', code: 'KB', is_active: true });
    expect(data.tokens).toMatchObject({ token_type: 'Bearer', expires_in: 900 });
    expect(data.tokens.refresh_token).not.toBe(owner.refresh);

    expect(await activeStore(data.tokens.access_token)).toBe(branch.id);

    const old = await refresh(owner.refresh);
    expect(old.status).toBe(401);
    expect(old.body.errors[0].code).toBe('UNAUTHENTICATED');

    const renewed = await refresh(data.tokens.refresh_token);
    expect(renewed.status).toBe(200);
    expect(await activeStore(renewed.body.data.access_token)).toBe(branch.id);
  });

  it('switches back to the first store', async () => {
    const owner = await registerOwner(t);
    const branch = await addStore(t, owner.orgId);
    const there = await switchTo(owner.token, branch.id);
    const back = await switchTo(there.body.data.tokens.access_token, owner.storeId);
    expect(back.status).toBe(200);
    expect(back.body.data.store.id).toBe(owner.storeId);
    expect(await activeStore(back.body.data.tokens.access_token)).toBe(owner.storeId);
    expect((await refresh(there.body.data.tokens.refresh_token)).status).toBe(401);
  });

  it("answers 404 for another organisation's store or an unknown one, and the session is untouched", async () => {
    const owner = await registerOwner(t);
    const other = await registerOwner(t);
    for (const id of [other.storeId, randomUUID()]) {
      const res = await switchTo(owner.token, id);
      expect(res.status, id).toBe(404);
      expect(res.body.errors[0].code).toBe('NOT_FOUND');
    }
    const still = await refresh(owner.refresh);
    expect(still.status).toBe(200);
    expect(await activeStore(still.body.data.access_token)).toBe(owner.storeId);
  });

  it('answers 409 INVALID_STATE for a deactivated store', async () => {
    const owner = await registerOwner(t);
    const closed = await addStore(t, owner.orgId, 'Closed Branch');
    await t.db.db.updateTable('stores').set({ is_active: 0 }).where('id', '=', closed.id).execute();

    const res = await switchTo(owner.token, closed.id);
    expect(res.status).toBe(409);
    expect(res.body.errors[0].code).toBe('INVALID_STATE');
    expect((await refresh(owner.refresh)).status).toBe(200);
  });

  it('lets staff work only in the store they are assigned to (403 elsewhere)', async () => {
    const owner = await registerOwner(t);
    const branch = await addStore(t, owner.orgId);
    const staff = await createStaff(t, owner, { role: 'manager' });

    const res = await switchTo(staff.token, branch.id);
    expect(res.status).toBe(403);
    expect(res.body.errors[0].code).toBe('FORBIDDEN');
    expect(await activeStore(staff.token)).toBe(owner.storeId);
    expect((await refresh(staff.refresh)).status).toBe(200);

    const own = await switchTo(staff.token, owner.storeId);
    expect(own.status).toBe(200);
    expect(await activeStore(own.body.data.tokens.access_token)).toBe(owner.storeId);
  });

  it('answers 400 naming store_id for a missing or malformed id', async () => {
    const owner = await registerOwner(t);
    for (const body of [{ store_id: 'not-a-uuid' }, { store_id: 42 }, {}]) {
      const res = await t.request('POST', '/accounts/switch-store', { token: owner.token, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.errors).toEqual([expect.objectContaining({ code: 'VALIDATION_ERROR', field: 'store_id' })]);
    }
  });

  it('answers 401 without a token', async () => {
    const res = await switchTo('', randomUUID());
    expect(res.status).toBe(401);
    expect(res.body.errors[0].code).toBe('UNAUTHENTICATED');
  });
});
