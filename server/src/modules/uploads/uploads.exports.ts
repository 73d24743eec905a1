/** What uploads offers the areas ranked above it (docs/architecture.md): they import this file, never the area's other files. */
export { type FileAddress, findOrgUploadByFileName, findUploadByKey, keyUrl } from './uploads.queries.js';
export { isPublicKind } from './services/file-access.js';
