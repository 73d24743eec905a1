/**
 * The protocol's version, which a till names on every request (design brief §4).
 *
 * PROTOCOL_VERSION history:
 * 1: push (mutations in seq order), pull (change log after a cursor), bootstrap (paged snapshot),
 *    websocket pokes. From 2026-11 the till names its version in the `Duka-Sync-Protocol` header
 *    of push, pull and bootstrap; a request without it comes from a till older than the header,
 *    which spoke version 1.
 * 2: (issue 51) a `sale.create` line's `qty` takes up to 3 decimals for a measured product, a line
 *    carries `pack_id` and `scale_barcode`, and a sale carries `payments` (split tender). The server
 *    answers its own version in the same header on push, pull and bootstrap; a till refuses these
 *    features, and holds such queued mutations, while its server answers < 2 (or no header: 1).
 *    Version-1 requests are served unchanged.
 * 3: (issue 52) the `stock_take.count` mutation: a till's count of a product in an open stock-take,
 *    made offline and pushed. A till does not count, and holds such queued mutations, while its
 *    server answers < 3. Version-1 and 2 requests are served unchanged.
 * 4: (issue 52) the `sale.exchange` mutation: items of a sale back and items out, made offline, applied
 *    as one. A till does not exchange, and holds such queued mutations, while its server answers < 4.
 *    Version-1 to 3 requests are served unchanged.
 */
export const PROTOCOL_VERSION = 4;
/**
 * The oldest version the server still serves. Raise it, with a line in the history above, only when
 * a change breaks older tills: they are answered 426 `UNSUPPORTED_PROTOCOL` and ask to be updated.
 */
export const MIN_SUPPORTED_PROTOCOL_VERSION = 1;
/**
 * The header carrying the till's protocol version on push, pull and bootstrap requests, and the
 * server's own version on their answers (from version 2; an answer without it is from a version-1 server).
 */
export const PROTOCOL_HEADER = 'duka-sync-protocol';
/**
 * The next bootstrap page's token, on a page's answer beside the same `page_token` in its body (none
 * on the last page, nor from an older server): a till asks for the next page as soon as this one
 * has come, before it has parsed it (issue 53).
 */
export const NEXT_PAGE_HEADER = 'duka-next-page-token';
