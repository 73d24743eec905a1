/** What notifications offers the areas ranked above it (docs/architecture.md): they import this file, never notifications's own. */
export { toNotification } from './notifications.queries.js';
export { createNotification } from './services/create-notification.js';
