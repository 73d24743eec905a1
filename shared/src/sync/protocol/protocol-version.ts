/**
 * The protocol's version, which a till names on every request (design brief §4).
 *
 * PROTOCOL_VERSION history:
 * 1: push (mutations in seq order), pull (change log after a cursor), bootstrap (paged snapshot),
 *    websocket pokes. From 2026-11 the till names its version in the `Duka-Sync-Protocol` header
 *    of push, pull and bootstrap; a request without it comes from a till older than the header,
 *    which spoke version 1.
 */
export const PROTOCOL_VERSION = 1;
/**
 * The oldest version the server still serves. Raise it, with a line in the history above, only when
 * a change breaks older tills: they are answered 426 `UNSUPPORTED_PROTOCOL` and ask to be updated.
 */
export const MIN_SUPPORTED_PROTOCOL_VERSION = 1;
/** The request header carrying the till's protocol version on push, pull and bootstrap. */
export const PROTOCOL_HEADER = 'duka-sync-protocol';
