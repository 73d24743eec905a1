import { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from './context.js';
import { handleZodError } from './error-response.js';

/**
 * An area's router, typed without its accumulated route schema: we use no typed RPC client, and
 * merging every area's schema into one type exceeds what TypeScript can represent.
 */
export type Router = OpenAPIHono<AppEnv>;

/** Every area's router: failed validation answers 400 VALIDATION_ERROR before any handler runs. */
export const createRouter = (): Router => new OpenAPIHono<AppEnv>({ defaultHook: handleZodError as never });
