import './zod-setup.js';
export * from './errors.js';
export * from './common.js';
export * from './envelope.js';
export * from './auth/auth.schemas.js';
export * from './accounts/accounts.schemas.js';
export * from './stores/stores.schemas.js';
export * from './meta/meta.schemas.js';
