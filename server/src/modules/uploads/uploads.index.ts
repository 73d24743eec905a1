import { Readable } from 'node:stream';
import { createRouter, type Router } from '../../lib/create-router.js';
import { authedCtx, ok, serviceCtx } from '../../lib/route.js';
import { deleteUpload, linkUpload, openUpload, uploadFile } from './services/uploads.js';
import * as routes from './uploads.routes.js';

export const uploadsRouter: Router = createRouter()
  .openapi(routes.upload, async (c) =>
    ok(c, await uploadFile(authedCtx(c), c.req.valid('form')), { status: 201, message: 'file uploaded' }),
  )
  .openapi(routes.remove, async (c) => {
    const body = c.req.valid('json') as { key?: string };
    await deleteUpload(authedCtx(c), c.req.valid('query').key ?? body.key);
    return ok(c, null, { message: 'file deleted' });
  })
  .openapi(routes.link, async (c) => ok(c, await linkUpload(authedCtx(c), c.req.valid('query').key)))
  .openapi(routes.file, async (c) => {
    const { expires, signature } = c.req.valid('query');
    const f = await openUpload(serviceCtx(c), c.req.valid('param').name, {
      authorization: c.req.header('authorization'),
      expires,
      signature,
    });
    // A PDF opened inline runs in the browser's viewer on our origin; as a download it does not.
    const disposition = f.contentType === 'application/pdf' ? 'attachment' : 'inline';
    return c.body(Readable.toWeb(f.stream) as ReadableStream, 200, {
      'Content-Type': f.contentType,
      'Content-Length': String(f.size),
      'Content-Disposition': `${disposition}; filename*=UTF-8''${encodeURIComponent(f.name)}`,
      'Cache-Control': f.isPublic ? 'public, max-age=31536000, immutable' : 'private, no-store',
    }) as never;
  });
