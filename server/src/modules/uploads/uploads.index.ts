import { Readable } from 'node:stream';
import { createRouter, type Router } from '../../lib/create-router.js';
import { authedCtx, ok, serviceCtx } from '../../lib/route.js';
import { deleteUpload, openUpload, uploadFile } from './services/uploads.js';
import * as routes from './uploads.routes.js';

export const uploadsRouter: Router = createRouter()
  .openapi(routes.upload, async (c) => ok(c, await uploadFile(authedCtx(c), c.req.valid('form')), { status: 201, message: 'file uploaded' }))
  .openapi(routes.remove, async (c) => {
    const body = c.req.valid('json') as { key?: string };
    await deleteUpload(authedCtx(c), c.req.valid('query').key ?? body.key);
    return ok(c, null, { message: 'file deleted' });
  })
  .openapi(routes.file, async (c) => {
    const f = await openUpload(serviceCtx(c), c.req.valid('param').name);
    return c.body(Readable.toWeb(f.stream) as ReadableStream, 200, {
      'Content-Type': f.contentType,
      'Content-Length': String(f.size),
      'Content-Disposition': `inline; filename*=UTF-8''${encodeURIComponent(f.name)}`,
      'Cache-Control': 'public, max-age=31536000, immutable',
    }) as never;
  });
