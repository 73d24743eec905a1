/**
 * The sync protocol version check of push, pull and bootstrap. It runs before the request is
 * read, so a till too old (or too new) for this server is told so, 426 `UNSUPPORTED_PROTOCOL`
 * with the range served, rather than a validation error about a body shaped for another version.
 * No header is version 1: the tills, tests and tools from before the header spoke it. Every answer
 * (the refusal too) names the server's own version in the same header, so a till knows which of
 * its features (version 2: decimals, packs, scale labels, split tender) this server takes.
 */
import { ErrorBody, MIN_SUPPORTED_PROTOCOL_VERSION, PROTOCOL_HEADER, PROTOCOL_VERSION } from '@duka/shared';
import type { MiddlewareHandler } from 'hono';
import { z } from 'zod';
import type { AppEnv } from '../lib/context.js';
import { ServiceError } from '../lib/errors.js';

export const requireSyncProtocol: MiddlewareHandler<AppEnv> = async (c, next) => {
  c.header(PROTOCOL_HEADER, String(PROTOCOL_VERSION));
  const sent = c.req.header(PROTOCOL_HEADER);
  const version = sent === undefined ? 1 : Number(sent);
  if (!Number.isInteger(version) || version < MIN_SUPPORTED_PROTOCOL_VERSION || version > PROTOCOL_VERSION) {
    const [min, max]: number[] = [MIN_SUPPORTED_PROTOCOL_VERSION, PROTOCOL_VERSION];
    const range = min === max ? `version ${max}` : `versions ${min} to ${max}`;
    const message = `sync protocol version ${sent ?? 1} is not supported: this server speaks ${range}; update the till`;
    throw new ServiceError('UNSUPPORTED_PROTOCOL', message, {
      errors: [{ code: 'UNSUPPORTED_PROTOCOL', field: PROTOCOL_HEADER, message }],
      meta: { min_supported: MIN_SUPPORTED_PROTOCOL_VERSION, protocol_version: PROTOCOL_VERSION },
    });
  }
  await next();
};

/** How push, pull and bootstrap document the header and the refusal. */
export const syncProtocolHeader = z.object({
  [PROTOCOL_HEADER]: z
    .string()
    .optional()
    .meta({
      description: `The till's sync protocol version (default 1); this server speaks ${MIN_SUPPORTED_PROTOCOL_VERSION} to ${PROTOCOL_VERSION}`,
    }),
});
export const unsupportedProtocolResponse = {
  426: {
    description: 'The sync protocol version is not served: `meta` names the range; update the till',
    content: { 'application/json': { schema: ErrorBody } },
  },
};
