import { newId, PROTOCOL_HEADER, PROTOCOL_VERSION } from '@duka/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerOwner, type Session } from '../setup/factories.js';
import { createTestApp, type TestApp } from '../setup/test-app.js';

describe('sync protocol version on push, pull and bootstrap', () => {
  let t: TestApp;
  let owner: Session;
  beforeAll(async () => {
    t = await createTestApp();
    owner = await registerOwner(t);
  });
  afterAll(() => t.close());

  const push = (headers: Record<string, string>) =>
    t.request('POST', '/sync/push', { token: owner.token, headers, body: { device_id: newId(), mutations: [] } });

  it('serves the current version, version 1, and a request without the header as version 1; every answer names its own', async () => {
    expect(PROTOCOL_VERSION).toBe(4);
    for (const headers of [
      { [PROTOCOL_HEADER]: '4' },
      { [PROTOCOL_HEADER]: '3' },
      { [PROTOCOL_HEADER]: '2' },
      { [PROTOCOL_HEADER]: '1' },
      {},
    ] as Array<Record<string, string>>) {
      const pulled = await t.request('GET', '/sync/pull', { token: owner.token, headers });
      expect([pulled.status, pulled.headers.get(PROTOCOL_HEADER)]).toEqual([200, '4']);
      const boot = await t.request('GET', '/sync/bootstrap?limit=5', { token: owner.token, headers });
      expect([boot.status, boot.headers.get(PROTOCOL_HEADER)]).toEqual([200, '4']);
      // Past the version check, the empty batch meets the body's own validation.
      const pushed = await push(headers);
      expect([pushed.status, pushed.headers.get(PROTOCOL_HEADER)]).toEqual([400, '4']);
      expect(pushed.body.errors).toEqual([{ code: 'VALIDATION_ERROR', field: 'mutations', message: 'must be at least 1 items' }]);
    }
  });

  it.each([
    ['GET', '/sync/pull', '5'],
    ['GET', '/sync/bootstrap', '0'],
    ['POST', '/sync/push', 'v1'],
  ] as const)('answers %s %s with version %s 426 UNSUPPORTED_PROTOCOL naming the range', async (method, path, version) => {
    const headers = { [PROTOCOL_HEADER]: version };
    const res = method === 'POST' ? await push(headers) : await t.request(method, path, { token: owner.token, headers });
    const message = `sync protocol version ${version} is not supported: this server speaks versions 1 to 4; update the till`;
    expect(res.status).toBe(426);
    expect(res.body).toEqual({
      success: false,
      message,
      data: null,
      errors: [{ code: 'UNSUPPORTED_PROTOCOL', field: 'duka-sync-protocol', message }],
      meta: { request_id: expect.any(String), min_supported: 1, protocol_version: 4 },
    });
  });
});
