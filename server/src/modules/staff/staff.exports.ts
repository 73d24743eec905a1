/** What staff offers the areas ranked above it (docs/architecture.md): they import this file, never the area's other files. */
export { updateStaff } from './services/update-staff.js';
