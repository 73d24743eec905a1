/** What notifications offers the areas ranked above it (docs/architecture.md): they import this file, never the area's other files. */
export { toNotification } from './notifications.queries.js';
export { createNotification } from './services/create-notification.js';
