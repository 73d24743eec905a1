/** What notifications offers the areas ranked above it (docs/architecture.md): they import this file, never the area's other files. */
export { toNotification } from './notifications.queries.js';
export { createNotification } from './services/create-notification.js';
export type { ProductAdvice, ReorderAdvice } from './services/reorder-advice-port.js';

// For the server's wiring (app.ts, background-jobs.ts, index.ts, backups.ts, cli/) and sync/: the router, jobs and ports.
export { notificationsRouter } from './notifications.index.js';
export { findNotification } from './notifications.queries.js';
export { lowStockNotifications } from './services/low-stock.js';
export { markRead } from './services/notifications.js';
export { notifyRestored } from './services/restore-notice.js';
