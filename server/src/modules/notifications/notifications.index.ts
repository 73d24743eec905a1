import { createRouter, type Router } from '../../lib/create-router.js';
import { authedCtx, ok } from '../../lib/route.js';
import * as routes from './notifications.routes.js';
import { deleteNotification, listNotifications, markAllRead, markRead, postNotification, unreadCount } from './services/notifications.js';

export const notificationsRouter: Router = createRouter()
  .openapi(routes.list, async (c) => {
    const { list, meta } = await listNotifications(authedCtx(c), c.req.valid('query'));
    return ok(c, list, { meta });
  })
  .openapi(routes.unreadCount, async (c) => ok(c, await unreadCount(authedCtx(c))))
  .openapi(routes.create, async (c) =>
    ok(c, await postNotification(authedCtx(c), c.req.valid('json')), { message: 'notification created' }),
  )
  .openapi(routes.readAll, async (c) => {
    const result = await markAllRead(authedCtx(c));
    return ok(c, result, { message: `${result.updated} marked read` });
  })
  .openapi(routes.markRead, async (c) =>
    ok(c, await markRead(authedCtx(c), c.req.valid('param').id), { message: 'notification marked read' }),
  )
  .openapi(routes.remove, async (c) => {
    await deleteNotification(authedCtx(c), c.req.valid('param').id);
    return ok(c, null, { message: 'notification deleted' });
  });
