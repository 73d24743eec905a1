/** Runs the shop flow against a Duka server: `API_URL=http://localhost:8080/api/v1 npm start`. */
import { runShopFlow } from './shop-flow.js';

const result = await runShopFlow(process.env.API_URL ?? 'http://localhost:8080/api/v1');
console.log(JSON.stringify(result, null, 2));
