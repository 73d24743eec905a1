import { createRouter, type Router } from '../../lib/create-router.js';
import { authedCtx, ok } from '../../lib/route.js';
import * as routes from './notebook.routes.js';
import { createNote, deleteNote, getNote, listNotes, updateNote } from './services/notes.js';

export const notebookRouter: Router = createRouter()
  .openapi(routes.list, async (c) => {
    const { data, meta } = await listNotes(authedCtx(c), c.req.valid('query'));
    return ok(c, data, { meta });
  })
  .openapi(routes.create, async (c) => ok(c, await createNote(authedCtx(c), c.req.valid('json')), { message: 'note created' }))
  .openapi(routes.getOne, async (c) => ok(c, await getNote(authedCtx(c), c.req.valid('param').id)))
  .openapi(routes.patch, async (c) =>
    ok(c, await updateNote(authedCtx(c), c.req.valid('param').id, c.req.valid('json')), { message: 'note updated' }),
  )
  .openapi(routes.remove, async (c) => ok(c, await deleteNote(authedCtx(c), c.req.valid('param').id), { message: 'note deleted' }));
