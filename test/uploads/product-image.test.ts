/**
 * A product's image outlives its server's address (issue 49): the upload's `url` (relative without
 * PUBLIC_URL, or absolute, of this server or of the one the shop moved from) or its `key` is taken,
 * the key is kept, and the address is built when answering, so a new PUBLIC_URL moves every image
 * with it. Images elsewhere on the web stay as given; another organisation's or a private file is
 * refused. Rows from before keep working: the migration turns their own uploads' URLs into keys.
 */
import { Envelope, UploadResult } from '@duka/shared';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { up as imageKeysUp } from '../../migrations/2026_11_30_0038_product_image_keys.js';
import { createApp, createDeps } from '../../server/src/app.js';
import { ONE_PIXEL_PNG, registerOwner, type Session } from '../setup/factories.js';
import { createTestApp, type TestApp } from '../setup/test-app.js';

describe('product images kept by key', () => {
  let t: TestApp;
  let owner: Session;
  beforeAll(async () => {
    t = await createTestApp();
    owner = await registerOwner(t);
  });
  afterAll(() => t.close());

  const upload = async (s: Session, kind = 'image') => {
    const form = new FormData();
    form.append('file', new File([ONE_PIXEL_PNG], 'soda.png', { type: 'image/png' }));
    form.append('kind', kind);
    const res = await t.request('POST', '/uploads', { token: s.token, form });
    expect(res.status, res.text).toBe(201);
    return Envelope(UploadResult).parse(res.body).data;
  };
  const newProduct = (s: Session, image: string) =>
    t.request('POST', '/inventory/products', { token: s.token, body: { name: `Soda ${Math.random()}`, selling_price: 1000, image } });
  const stored = (id: string) =>
    t.db.db
      .selectFrom('products')
      .select(['image', 'image_key'])
      .where('org_id', '=', owner.orgId)
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
  /** The same database served with another PUBLIC_URL: the server after a move or behind a new host name. */
  const servedAt = (publicUrl: string) => {
    const deps = createDeps({ ...t.config, PUBLIC_URL: publicUrl }, t.db, pino({ level: 'silent' }), t.clock);
    const app = createApp(deps, t.db.ping);
    return async (id: string) => {
      const res = await app.request(`/api/v1/inventory/products/${id}`, { headers: { authorization: `Bearer ${owner.token}` } });
      return ((await res.json()) as { data: { image: string } }).data.image;
    };
  };

  it('takes the relative url an upload answers without PUBLIC_URL, keeps the key, and answers the address of the server answering', async () => {
    const photo = await upload(owner);
    expect(photo.url).toMatch(/^\/api\/v1\/uploads\/files\/[0-9a-f]{32}\.png$/);
    const created = await newProduct(owner, photo.url);
    expect(created.status, created.text).toBe(200);
    expect(created.body.data.image).toBe(photo.url);
    expect(await stored(created.body.data.id)).toEqual({ image: null, image_key: photo.key });
    const served = await t.app.request(created.body.data.image);
    expect(served.status).toBe(200);
    expect(Buffer.from(await served.arrayBuffer()).equals(ONE_PIXEL_PNG)).toBe(true);

    const fileName = photo.url.split('/').at(-1);
    expect(await servedAt('https://shop.example.co.tz')(created.body.data.id)).toBe(
      `https://shop.example.co.tz/api/v1/uploads/files/${fileName}`,
    );
    const listed = (await t.request('GET', '/inventory/products', { token: owner.token })).body.data as Array<{
      id: string;
      image: string;
    }>;
    expect(listed.find((p) => p.id === created.body.data.id)?.image).toBe(photo.url);
    // A till's replica gets the same address (bootstrap and pull share the mapper).
    const boot = await t.request('GET', '/sync/bootstrap?limit=500', { token: owner.token });
    const rows = boot.body.data.rows as Array<{ entity: string; id: string; data: { image: string } }>;
    expect(rows.find((r) => r.entity === 'product' && r.id === created.body.data.id)?.data.image).toBe(photo.url);
  });

  it("takes an upload's key, or its absolute address on the old server, and keeps the key", async () => {
    const photo = await upload(owner);
    const byKey = await newProduct(owner, photo.key);
    expect(byKey.status, byKey.text).toBe(200);
    expect(await stored(byKey.body.data.id)).toEqual({ image: null, image_key: photo.key });

    const other = await upload(owner);
    const old = `http://192.168.1.20:8080${other.url}`;
    const updated = await t.request('PATCH', `/inventory/products/${byKey.body.data.id}`, { token: owner.token, body: { image: old } });
    expect(updated.status, updated.text).toBe(200);
    expect(updated.body.data.image).toBe(other.url);
    expect(await stored(byKey.body.data.id)).toEqual({ image: null, image_key: other.key });

    const cleared = await t.request('PATCH', `/inventory/products/${byKey.body.data.id}`, { token: owner.token, body: { image: null } });
    expect(cleared.body.data.image).toBeNull();
    expect(await stored(byKey.body.data.id)).toEqual({ image: null, image_key: null });
  });

  it('keeps an image elsewhere on the web as given, and refuses another organisation’s file, a private one or a path to nothing', async () => {
    for (const url of [
      'https://cdn.example.com/soda.png',
      'https://other-duka.example/api/v1/uploads/files/0123456789abcdef0123456789abcdef.png',
    ]) {
      const res = await newProduct(owner, url);
      expect(res.status, res.text).toBe(200);
      expect(res.body.data.image).toBe(url);
      expect(await stored(res.body.data.id)).toEqual({ image: url, image_key: null });
    }

    const stranger = await registerOwner(t);
    const theirs = await upload(stranger);
    const receipt = await upload(owner, 'receipt');
    for (const [image, message] of [
      [theirs.url, 'image is not a file of your organisation: upload it first (POST /uploads) and send its url or key'],
      [theirs.key, 'image is not a file of your organisation: upload it first (POST /uploads) and send its url or key'],
      [receipt.url, 'image is a private file; upload the image with kind image'],
      ['javascript:alert(1)', "image must be an http(s) URL, or an upload's url or key (POST /uploads)"],
    ]) {
      const res = await newProduct(owner, image!);
      expect(res.status, image).toBe(400);
      expect(res.body.message).toBe(message);
    }
  });

  it('the migration turns a product’s absolute URL of its own upload into the key, whatever host it named; other URLs stay', async () => {
    const photo = await upload(owner);
    const oldHost = `http://old-server:8080${photo.url}`;
    const made = await newProduct(owner, 'https://cdn.example.com/placeholder.png');
    const foreign = await newProduct(owner, 'https://cdn.example.com/kept.png');
    // As a server before the change stored it: the URL, no key.
    await t.db.db.updateTable('products').set({ image: oldHost, image_key: null }).where('id', '=', made.body.data.id).execute();
    await imageKeysUp(t.db.db);
    expect(await stored(made.body.data.id)).toEqual({ image: null, image_key: photo.key });
    expect(await stored(foreign.body.data.id)).toEqual({ image: 'https://cdn.example.com/kept.png', image_key: null });
    expect((await t.request('GET', `/inventory/products/${made.body.data.id}`, { token: owner.token })).body.data.image).toBe(photo.url);
  });
});
