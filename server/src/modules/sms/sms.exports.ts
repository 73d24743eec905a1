/** What sms offers the areas ranked above it (docs/architecture.md): they import this file, never sms's own. */
export { requireCustomerSmsAllowance } from './services/allowance.js';
