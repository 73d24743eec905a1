/** What staff offers the areas ranked above it (docs/architecture.md): they import this file, never staff's own. */
export { updateStaff } from './services/update-staff.js';
