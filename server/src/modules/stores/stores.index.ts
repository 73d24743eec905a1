import { createRouter } from '../../lib/create-router.js';

export const storesRouter = createRouter();
