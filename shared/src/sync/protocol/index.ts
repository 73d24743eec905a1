/**
 * The sync protocol of design brief §4, byte for byte the same on the till and the server: one file
 * per message, as rocicorp Zero's zero-protocol is laid out.
 */
export * from './protocol-version.js';
export * from './mutations.js';
export * from './push.js';
export * from './device.js';
export * from './changes.js';
export * from './pull.js';
export * from './bootstrap.js';
export * from './poke.js';
export * from './conflicts.js';
