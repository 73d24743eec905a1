import { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from './context.js';
import { handleZodError } from './errors.js';

/** Every area's router: failed validation answers 400 VALIDATION_ERROR before any handler runs. */
export const createRouter = () => new OpenAPIHono<AppEnv>({ defaultHook: handleZodError as never });
