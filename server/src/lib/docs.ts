/**
 * The interactive API reference at {BASE_PATH}/docs: Swagger UI served from the swagger-ui-dist
 * package on this server, so the page works on a shop's network with no internet.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Hono } from 'hono';
import swaggerUi from 'swagger-ui-dist';

const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
};
const dir = swaggerUi.getAbsoluteFSPath();
const cache = new Map<string, Buffer>();

export function docsRouter(basePath: string) {
  const page = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Duka API reference</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="${basePath}/docs/assets/favicon-32x32.png">
<link rel="stylesheet" href="${basePath}/docs/assets/swagger-ui.css"></head>
<body><div id="swagger-ui"></div>
<script src="${basePath}/docs/assets/swagger-ui-bundle.js"></script>
<script src="${basePath}/docs/init.js"></script></body></html>`;
  const init = `window.ui = SwaggerUIBundle({ url: ${JSON.stringify(`${basePath}/openapi.json`)}, dom_id: '#swagger-ui', deepLinking: true, persistAuthorization: true });`;

  return new Hono()
    .get('/docs', (c) => c.html(page))
    .get('/docs/init.js', (c) => c.body(init, 200, { 'content-type': 'text/javascript; charset=utf-8' }))
    .get('/docs/assets/:file', (c) => {
      const file = c.req.param('file');
      const type = ASSETS[file];
      if (!type) return c.notFound();
      let data = cache.get(file);
      if (!data) cache.set(file, (data = readFileSync(path.join(dir, file))));
      return c.body(new Uint8Array(data), 200, { 'content-type': type, 'cache-control': 'public, max-age=86400' });
    });
}
