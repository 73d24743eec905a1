import { Envelope, UPLOAD_MAX_BYTES, UploadResult } from '@duka/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ONE_PIXEL_PNG, registerOwner, type Session } from '../setup/factories.js';
import { createTestApp, type TestApp } from '../setup/test-app.js';

/** A real 1×1 ONE_PIXEL_PNG. */
const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [] /Count 0 >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n',
);
/** The start of a Linux executable and of a Windows one. */
const ELF = Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0x02, 0x01, 0x01, 0x00]), Buffer.alloc(120)]);
const PE = (() => {
  const b = Buffer.alloc(512);
  b.write('MZ', 0, 'latin1');
  b.writeUInt32LE(0x80, 0x3c);
  b.write('PE\0\0', 0x80, 'latin1');
  return b;
})();

describe('uploads', () => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp()));
  afterAll(() => t.close());

  const form = (bytes: Buffer, name: string, fields: Record<string, string> = {}, type = 'application/octet-stream') => {
    const f = new FormData();
    f.append('file', new File([bytes], name, { type }));
    for (const [k, v] of Object.entries(fields)) f.append(k, v);
    return f;
  };
  const upload = (s: { token: string } | null, f: FormData) => t.request('POST', '/uploads', { token: s?.token, form: f });
  const uploaded = async (s: Session, bytes: Buffer, name: string, fields: Record<string, string> = {}) => {
    const res = await upload(s, form(bytes, name, fields));
    expect(res.status, res.text).toBe(201);
    return Envelope(UploadResult).parse(res.body).data;
  };
  /** The bytes served at an upload's url, with no credentials unless a token is given. */
  const fetchFile = async (url: string, token?: string) => {
    const res = await t.app.request(url, token ? { headers: { authorization: `Bearer ${token}` } } : undefined);
    const h = (name: string) => res.headers.get(name);
    return {
      status: res.status,
      type: h('content-type'),
      disposition: h('content-disposition'),
      cache: h('cache-control'),
      bytes: Buffer.from(await res.arrayBuffer()),
    };
  };
  const remove = (s: { token: string }, key: string) => t.request('DELETE', '/uploads', { token: s.token, body: { key } });

  it('stores a ONE_PIXEL_PNG named .pdf as image/png, under the organisation, and serves it back byte for byte', async () => {
    const owner = await registerOwner(t);
    const res = await upload(owner, form(ONE_PIXEL_PNG, 'receipt.pdf', { kind: 'receipt' }, 'application/pdf'));
    expect(res.status, res.text).toBe(201);
    const file = Envelope(UploadResult).parse(res.body).data;
    expect(file).toEqual({
      url: expect.stringMatching(/^\/api\/v1\/uploads\/files\/[0-9a-f]{32}\.png$/),
      key: expect.stringMatching(new RegExp(`^${owner.orgId}/receipt/[0-9a-f]{32}\\.png$`)),
      name: 'receipt.pdf',
      size: ONE_PIXEL_PNG.length,
      content_type: 'image/png',
      kind: 'receipt',
      private: true,
      signed_url: expect.stringMatching(/^\/api\/v1\/uploads\/files\/[0-9a-f]{32}\.png\?expires=\d+&signature=[\w-]+$/),
      signed_url_expires_at: new Date(Math.floor(t.clock.now() / 1000) * 1000 + 15 * 60_000).toISOString(),
    });
    expect(file.key.endsWith(file.url.split('/').at(-1)!)).toBe(true);
    const served = await fetchFile(file.url, owner.token);
    expect(served.status).toBe(200);
    expect(served.type).toBe('image/png');
    expect(served.bytes.equals(ONE_PIXEL_PNG)).toBe(true);

    const pdf = await uploaded(owner, PDF, 'invoice', { folder: 'suppliers/2026' });
    expect(pdf).toMatchObject({ content_type: 'application/pdf', kind: 'attachment', name: 'invoice', size: PDF.length });
    expect(pdf.key).toMatch(new RegExp(`^${owner.orgId}/suppliers/2026/[0-9a-f]{32}\\.pdf$`));
    expect((await fetchFile(pdf.url, owner.token)).bytes.equals(PDF)).toBe(true);
  });

  it('serves receipts and attachments only to members or through a signed link that expires; images and logos to anyone', async () => {
    const owner = await registerOwner(t);
    const stranger = await registerOwner(t);
    const receipt = await uploaded(owner, ONE_PIXEL_PNG, 'fuel.png', { kind: 'receipt' });
    const invoice = await uploaded(owner, PDF, 'invoice.pdf');
    const photo = await uploaded(owner, ONE_PIXEL_PNG, 'sugar.png', { kind: 'image' });
    expect(photo).toEqual(expect.objectContaining({ private: false }));
    expect(photo.signed_url).toBeUndefined();

    // Anyone may fetch the product photo, cached for a year, shown inline.
    const pub = await fetchFile(photo.url);
    expect(pub).toMatchObject({
      status: 200,
      cache: 'public, max-age=31536000, immutable',
      disposition: "inline; filename*=UTF-8''sugar.png",
    });

    // The private ones: nobody without a token, another organisation's member is told it does not exist.
    expect((await fetchFile(receipt.url)).status).toBe(401);
    expect((await fetchFile(invoice.url)).status).toBe(401);
    expect((await fetchFile(receipt.url, stranger.token)).status).toBe(404);
    expect((await fetchFile(receipt.url, 'not-a-token')).status).toBe(401);
    const mine = await fetchFile(invoice.url, owner.token);
    expect(mine).toMatchObject({
      status: 200,
      cache: 'private, no-store',
      disposition: "attachment; filename*=UTF-8''invoice.pdf",
      type: 'application/pdf',
    });
    expect(mine.bytes.equals(PDF)).toBe(true);

    // A signed link works without a token, for its own file only, until it expires.
    const viaLink = await fetchFile(receipt.signed_url!);
    expect(viaLink.status).toBe(200);
    expect(viaLink.bytes.equals(ONE_PIXEL_PNG)).toBe(true);
    const query = receipt.signed_url!.split('?')[1];
    expect((await fetchFile(`${invoice.url}?${query}`)).status).toBe(401);
    const stretched = receipt.signed_url!.replace(/expires=(\d+)/, (_, e: string) => `expires=${Number(e) + 3600}`);
    expect((await fetchFile(stretched)).status).toBe(401);
    t.clock.advance(15 * 60_000 + 1000);
    const expired = await t.app.request(receipt.signed_url!);
    expect(expired.status).toBe(401);
    expect(((await expired.json()) as { errors: Array<{ code: string }> }).errors[0]!.code).toBe('LINK_EXPIRED');

    // A fresh link, for members only (signed in again: the access token is as old as the link); another organisation's key is not found.
    const again = await t.request('POST', '/auth/refresh', { body: { refresh_token: owner.refresh } });
    expect(again.status, again.text).toBe(200);
    const fresh = await t.request('GET', `/uploads/link?key=${encodeURIComponent(receipt.key)}`, { token: again.body.data.access_token });
    expect(fresh.status, fresh.text).toBe(200);
    expect(fresh.body.data.expires_at).toBe(new Date(Math.floor(t.clock.now() / 1000) * 1000 + 15 * 60_000).toISOString());
    expect((await fetchFile(fresh.body.data.url)).bytes.equals(ONE_PIXEL_PNG)).toBe(true);
    const strangerAgain = await t.request('POST', '/auth/refresh', { body: { refresh_token: stranger.refresh } });
    expect(
      (await t.request('GET', `/uploads/link?key=${encodeURIComponent(receipt.key)}`, { token: strangerAgain.body.data.access_token }))
        .status,
    ).toBe(404);
    expect((await t.request('GET', `/uploads/link?key=${encodeURIComponent(receipt.key)}`)).status).toBe(401);
  });

  it('judges the type by the bytes: executables and unknown data are refused 415, a PDF is not a logo', async () => {
    const owner = await registerOwner(t);
    for (const [bytes, name] of [
      [ELF, 'photo.png'],
      [PE, 'logo.png'],
      [Buffer.from('just some text, not an image'), 'notes.jpg'],
    ] as const) {
      const res = await upload(owner, form(bytes, name, {}, 'image/png'));
      expect(res.status, name).toBe(415);
      expect(res.body.errors[0].code).toBe('UNSUPPORTED_MEDIA_TYPE');
    }
    const logo = await upload(owner, form(PDF, 'logo.pdf', { kind: 'logo' }));
    expect(logo.status).toBe(415);
    expect((await uploaded(owner, ONE_PIXEL_PNG, 'logo.png', { kind: 'logo' })).kind).toBe('logo');
  });

  it('takes a file of exactly 10 MB and refuses one byte more with 413', async () => {
    const owner = await registerOwner(t);
    const big = Buffer.alloc(UPLOAD_MAX_BYTES + 1);
    ONE_PIXEL_PNG.copy(big);
    const refused = await upload(owner, form(big, 'huge.png'));
    expect(refused.status).toBe(413);
    expect(refused.body.errors[0].code).toBe('PAYLOAD_TOO_LARGE');
    const exact = await uploaded(owner, big.subarray(0, UPLOAD_MAX_BYTES), 'big.png', { kind: 'image' });
    expect(exact.size).toBe(UPLOAD_MAX_BYTES);
    const tooMuch = await upload(owner, form(Buffer.alloc(UPLOAD_MAX_BYTES + 200_000), 'way-too-big.png'));
    expect(tooMuch.status).toBe(413);
  });

  it('refuses a folder that climbs out, a missing file, a bad kind and anonymous callers', async () => {
    const owner = await registerOwner(t);
    for (const folder of ['../other-org', 'receipts/../../x', 'a//b', '..', 'with space']) {
      const res = await upload(owner, form(ONE_PIXEL_PNG, 'x.png', { folder }));
      expect(res.status, folder).toBe(400);
    }
    const noFile = new FormData();
    noFile.append('kind', 'image');
    expect((await upload(owner, noFile)).status).toBe(400);
    expect((await upload(owner, form(ONE_PIXEL_PNG, 'x.png', { kind: 'video' }))).status).toBe(400);
    expect((await t.request('POST', '/uploads', { token: owner.token, body: { file: 'x' } })).status).toBe(415);
  });

  it("deletes only the caller's organisation's files", async () => {
    const owner = await registerOwner(t);
    const stranger = await registerOwner(t);
    const file = await uploaded(owner, ONE_PIXEL_PNG, 'shelf.png', { kind: 'image' });

    const theirs = await remove(stranger, file.key);
    expect(theirs.status).toBe(404);
    expect((await fetchFile(file.url)).status).toBe(200);
    expect((await remove(owner, `${owner.orgId}/image/nothing.png`)).status).toBe(404);
    expect((await t.request('DELETE', '/uploads', { token: owner.token })).status).toBe(400);

    const gone = await t.request('DELETE', `/uploads?key=${encodeURIComponent(file.key)}`, { token: owner.token });
    expect(gone.status, gone.text).toBe(200);
    expect(gone.body).toMatchObject({ success: true });
    expect((await fetchFile(file.url)).status).toBe(404);
    expect((await remove(owner, file.key)).status).toBe(404);
    expect((await t.request('GET', '/uploads/files/0123456789abcdef0123456789abcdef.png')).status).toBe(404);
  });
});
