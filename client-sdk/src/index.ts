/**
 * @duka/client-sdk: what a till runs. So far it holds the typed API error; the local replica,
 * offline queue and sync loop are built on top of it (see the project's issues).
 */
export { DukaApiError, toApiError } from './http/errors.js';
