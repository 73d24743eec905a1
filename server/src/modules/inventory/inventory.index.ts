import { createRouter } from '../../lib/create-router.js';

export const inventoryRouter = createRouter();
